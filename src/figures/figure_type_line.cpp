// type: line — one line per series against a numeric or categorical x, optional q1..q3 error bars,
// logarithmic axes and overlay lines (the hardware floor, ideal scaling).
#include <algorithm>

#include "core/number_text.hpp"
#include "figures/declarations.hpp"
#include "figures/figure_types.hpp"
#include "figures/plot_style.hpp"
#include "figures/plot_writers.hpp"

namespace convlab {
namespace {

std::string line_style(const FigureData& figure, size_t row) {
  const SeriesStyle style = series_style(figure, row);
  const bool errors = figure.declaration.error_bars;
  return std::string("with ") + (errors ? "yerrorlines" : "linespoints") + " lw 2 pt " +
         std::to_string(style.point_type) + " ps 0.8 dt " + std::to_string(style.dash_type) +
         " lc rgb '" + style.colour + "'";
}

void plot_line_panel(PanelPlot& plot) {
  const FigureData& figure = plot.figure;
  const Grid& grid = figure.panels[plot.panel].grid;
  std::ostringstream& out = plot.out;
  out << "unset colorbox\n";
  if (figure.log_x) out << "set logscale x\n";
  if (figure.log_y) {
    out << "set logscale y\n";
    {
      const auto [low, high] = panel_value_range(figure.panels[plot.panel]);
      write_log_tics(out, "y", low, high);
    }
  }
  if (!figure.numeric_x || grid.columns.size() <= 12)
    write_tics(out, "x", figure, grid, false);
  else if (figure.log_x)
    write_log_tics(out, "x", grid.columns.front().number, grid.columns.back().number);
  out << "set xlabel offset 0," << -static_cast<double>(x_tic_lines(figure, grid) - 1) << "\n";
  if (!figure.numeric_x && grid.columns.size() > 6 && long_labels(grid.columns))
    out << "set xtics rotate by 30 right\n";
  if (figure.numeric_x) {
    out << "set autoscale xfix\n";
    out << (figure.log_x ? "set offsets 0, 0, 0, 0\n"
                         : "set offsets graph 0.05, graph 0.05, 0, 0\n");
    if (figure.log_x && !grid.columns.empty())
      out << "set xrange [" << format_exact(grid.columns.front().number / 1.25) << ":"
          << format_exact(grid.columns.back().number * 1.25) << "]\n";
  } else {
    out << "set xrange [-0.5:" << grid.columns.size() - 0.5 << "]\n";
  }
  out << "set autoscale y\nplot ";
  // Series and overlays without a value in this panel are left out: gnuplot would only warn.
  const char* separator = "";
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    if (!grid.row_has_values(r)) continue;
    const size_t column = series_column(figure, r);
    out << separator << plot.data << " skip 1 using 1:" << column;
    if (figure.declaration.error_bars) out << ":" << column + 1 << ":" << column + 2;
    out << " " << line_style(figure, r)
        << (plot.titled ? " title " + quoted(grid.rows[r].label) : " notitle");
    separator = ", \\\n     ";
  }
  separator = write_overlay_clauses(plot, separator);
  end_plot(plot, *separator != '\0');
}

FigureTypeRules line_rules() {
  FigureTypeRules rules;
  rules.log_x = true;
  rules.error_bars = true;
  rules.overlays = true;
  rules.best = true;
  rules.numeric_x = true;
  return rules;
}

std::string line_legend_entry(const FigureData& figure, size_t row) {
  std::string style = line_style(figure, row);
  // Error bars need data; the legend shows the line and its point.
  const size_t errors = style.find("yerrorlines");
  if (errors != std::string::npos) style.replace(errors, 11, "linespoints");
  return "NaN " + style + " title " + quoted(figure.panels.front().grid.rows[row].label);
}

// A line's point lies at its x and its value.
HoverPosition line_hover_position(const FigureData& figure, const Grid& grid, size_t row,
                                  size_t column) {
  return {x_position(figure, grid, column), grid.cells[row][column]->value};
}

constexpr FigureInteraction kInteraction =
    series_interaction(drawn_rows_svg_plots, line_hover_position);

}  // namespace

const FigureTypeDescriptor& line_figure_type() {
  static const FigureTypeDescriptor type{"line",
                                         {},
                                         line_rules(),
                                         series_grid,
                                         series_panel_tsv,
                                         plot_line_panel,
                                         line_legend_entry,
                                         kInteraction};
  return type;
}

}  // namespace convlab
