// type: stacked — one bar per x made of the parts y lists (e.g. upload, kernel, download).
#include "figures/declarations.hpp"
#include "figures/figure_types.hpp"
#include "figures/plot_style.hpp"
#include "figures/plot_writers.hpp"

namespace convlab {
namespace {

// One row per part of the stack.
Grid stacked_grid(const FigureDeclaration& declaration, const std::vector<const Record*>& records,
                  const std::string& context) {
  return value_grid(records, {}, declaration.y, {declaration.x}, false, declaration.reduce,
                    context);
}

FigureTypeRules stacked_rules() {
  FigureTypeRules rules;
  rules.series = false;
  rules.y_list = true;
  return rules;
}

void plot_stacked_panel(PanelPlot& plot) {
  write_histogram_axes(plot);
  const FigureData& figure = plot.figure;
  const Grid& grid = figure.panels[plot.panel].grid;
  plot.out << "set style histogram rowstacked\nplot ";
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    // Parts a record lacks (a CPU point has no copies) count as zero height.
    const std::string column = "$" + std::to_string(series_column(figure, r));
    plot.out << (r ? ", \\\n     " : "") << plot.data << " skip 1 using ((" << column
             << " == " << column << ") ? " << column << " : 0) lc rgb '"
             << series_style(figure, r).colour << "'"
             << (plot.titled ? " title " + quoted(grid.rows[r].label) : " notitle");
  }
  end_plot(plot, !grid.rows.empty());
}

// A part's target lies at the middle of its segment of the bar, at its top on a logarithmic axis.
HoverPosition stacked_hover_position(const FigureData& figure, const Grid& grid, size_t row,
                                     size_t column) {
  double below = 0.0;
  for (size_t r = 0; r < row; ++r)
    if (const auto& cell = grid.cells[r][column]) below += cell->value;
  const double top = below + grid.cells[row][column]->value;
  return {static_cast<double>(column), figure.log_y ? top : (below + top) / 2.0};
}

constexpr FigureInteraction kInteraction =
    series_interaction(every_row_svg_plots, stacked_hover_position);

}  // namespace

const FigureTypeDescriptor& stacked_figure_type() {
  static const FigureTypeDescriptor type{"stacked",        {"stacked_bars"}, stacked_rules(),
                                         stacked_grid,     series_panel_tsv, plot_stacked_panel,
                                         bar_legend_entry, kInteraction};
  return type;
}

}  // namespace convlab
