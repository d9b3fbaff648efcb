// type: heatmap — the value field as colour over the grid of x against y, each cell printed.
#include "core/number_text.hpp"
#include "figures/declarations.hpp"
#include "figures/figure_types.hpp"
#include "figures/plot_style.hpp"
#include "figures/plot_writers.hpp"

namespace convlab {
namespace {

// Rows: the values of y; columns: the values of x; cells: value.
Grid heatmap_grid(const FigureDeclaration& declaration, const std::vector<const Record*>& records,
                  const std::string& context) {
  return value_grid(records, {declaration.y[0]}, {declaration.value}, {declaration.x}, false,
                    declaration.reduce, context);
}

FigureTypeRules heatmap_rules() {
  FigureTypeRules rules;
  rules.series = false;
  rules.value = true;
  rules.log_y = false;
  return rules;
}

// One line per cell: x_index, y_index, value, x_label, y_label, value_text (the printed number,
// empty where no point).
std::string heatmap_tsv(const FigureData& figure, size_t panel) {
  const Grid& grid = figure.panels.at(panel).grid;
  std::ostringstream out;
  out << "x_index\ty_index\tvalue\tx_label\ty_label\tvalue_text\n";
  for (size_t r = 0; r < grid.rows.size(); ++r)
    for (size_t c = 0; c < grid.columns.size(); ++c) {
      const auto& cell = grid.cells[r][c];
      out << c << '\t' << r << '\t' << (cell ? format_exact(cell->value) : "NaN") << '\t'
          << tsv_text(tic_of(grid.columns[c])) << '\t' << tsv_text(tic_of(grid.rows[r])) << '\t'
          << (cell ? format_number(cell->value, 3) : "") << '\n';
    }
  return out.str();
}

void plot_heatmap_panel(PanelPlot& plot) {
  const FigureData& figure = plot.figure;
  const Grid& grid = figure.panels[plot.panel].grid;
  std::ostringstream& out = plot.out;
  out << "set offsets 0, 0, 0, 0\nunset grid\n";
  write_tics(out, "x", figure, grid, false);
  write_tics(out, "y", figure, grid, true);
  out << "set xrange [-0.5:" << grid.columns.size() - 0.5 << "]\n";
  out << "set yrange [-0.5:" << grid.rows.size() - 0.5 << "]\n";
  out << "set cblabel " << quoted(figure.value_label) << "\n";
  out << "set palette defined (0 '#fff7bc', 1 '#fec44f', 2 '#fe9929', 3 '#d95f0e')\n";
  out << "set colorbox\nunset key\n";
  // One box per cell: cells without a point stay empty (an image needs every cell of the grid).
  out << "plot " << plot.data
      << " skip 1 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette "
         "notitle, \\\n     "
      << plot.data << " skip 1 using 1:2:6 with labels notitle";
  end_plot(plot, true);
}

// The colour bar is the legend; rows are labelled on the y axis.
std::string no_legend_entry(const FigureData&, size_t) {
  return "";
}

// The boxes and the labels over them: neither is a series the notebook could hide.
std::vector<SvgPlot> heatmap_svg_plots(const FigurePanel&) {
  return {{SvgPlot::Kind::other, 0}, {SvgPlot::Kind::other, 0}};
}

// A cell's target lies at its column and row index.
HoverPosition heatmap_hover_position(const FigureData&, const Grid&, size_t row, size_t column) {
  return {static_cast<double>(column), static_cast<double>(row)};
}

constexpr FigureInteraction kInteraction{heatmap_svg_plots, FigureInteraction::Target::grid_cell,
                                         heatmap_hover_position, 14,
                                         "Hover a cell for its record."};

}  // namespace

const FigureTypeDescriptor& heatmap_figure_type() {
  static const FigureTypeDescriptor type{"heatmap",       {},          heatmap_rules(),
                                         heatmap_grid,    heatmap_tsv, plot_heatmap_panel,
                                         no_legend_entry, kInteraction};
  return type;
}

}  // namespace convlab
