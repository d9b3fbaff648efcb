// type: bars — clustered bars, one per series at each category of x, optional q1..q3 error bars
// and overlay lines (a goal).
// type: stacked (figure_type_stacked.cpp) shares the histogram set-up below.
#include "figures/declarations.hpp"
#include "figures/figure_types.hpp"
#include "figures/plot_style.hpp"
#include "figures/plot_writers.hpp"

namespace convlab {
namespace {

FigureTypeRules bars_rules() {
  FigureTypeRules rules;
  rules.error_bars = true;
  rules.best = true;
  rules.overlays = true;
  return rules;
}

// The fill of a series' bars: solid for an implementation's first variant, then hatched, so that
// variants of one implementation (one colour) stay apart.
std::string bar_fill(const SeriesStyle& style) {
  static const int kPatterns[] = {4, 5, 1, 6, 7, 2};
  if (style.dash_type <= 1) return "fs solid 0.85 border rgb '#333333'";
  return "fs pattern " + std::to_string(kPatterns[(style.dash_type - 2) % 6]) +
         " border rgb '#333333'";
}

void plot_bars_panel(PanelPlot& plot) {
  write_histogram_axes(plot);
  const FigureData& figure = plot.figure;
  const Grid& grid = figure.panels[plot.panel].grid;
  const bool errors = figure.declaration.error_bars;
  plot.out << (errors ? "set style histogram errorbars gap 1 lw 1\n"
                      : "set style histogram clustered gap 1\n");
  plot.out << "plot ";
  // A series without a value in this panel is left out: gnuplot would only warn.
  const char* separator = "";
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    if (!grid.row_has_values(r)) continue;
    const size_t column = series_column(figure, r);
    plot.out << separator << plot.data << " skip 1 using " << column;
    if (errors) plot.out << ":" << column + 1 << ":" << column + 2;
    const SeriesStyle style = series_style(figure, r);
    plot.out << " " << bar_fill(style) << " lc rgb '" << style.colour << "'"
             << (plot.titled ? " title " + quoted(grid.rows[r].label) : " notitle");
    separator = ", \\\n     ";
  }
  // An overlay lies at the clusters' centres, the x of the data file (0, 1, ...).
  separator = write_overlay_clauses(plot, separator);
  end_plot(plot, *separator != '\0');
}

// gnuplot's clustered histogram: bar i of the n drawn series at c + (i - (n-1)/2) / (n + gap),
// gap 1; series without a value in the panel are not drawn (plot_bars_panel).
HoverPosition bar_hover_position(const FigureData&, const Grid& grid, size_t row, size_t column) {
  size_t drawn = 0, rank = 0;
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    drawn += grid.row_has_values(r);
    if (r < row) rank += grid.row_has_values(r);
  }
  const double n = static_cast<double>(drawn);
  const double i = static_cast<double>(rank);
  return {static_cast<double>(column) + (i - (n - 1) / 2.0) / (n + 1.0),
          grid.cells[row][column]->value};
}

constexpr FigureInteraction kInteraction =
    series_interaction(drawn_rows_svg_plots, bar_hover_position);

}  // namespace

void write_histogram_axes(PanelPlot& plot) {
  const FigureData& figure = plot.figure;
  const Grid& grid = figure.panels[plot.panel].grid;
  std::ostringstream& out = plot.out;
  out << "unset colorbox\n";
  if (figure.log_y) {
    out << "set logscale y\n";
    {
      const auto [low, high] = panel_value_range(figure.panels[plot.panel]);
      write_log_tics(out, "y", low, high);
    }
  }
  write_tics(out, "x", figure, grid, false);
  out << "set xlabel offset 0," << -static_cast<double>(x_tic_lines(figure, grid) - 1) << "\n";
  if (grid.columns.size() > 6 && long_labels(grid.columns)) out << "set xtics rotate by 30 right\n";
  out << "set offsets 0, 0, 0, 0\nset xrange [-0.6:" << grid.columns.size() - 0.4 << "]\n";
  out << "set autoscale y\n";
  if (!figure.log_y) out << "set yrange [0:*]\n";
  out << "set style data histograms\n";
  out << "set style fill solid 0.85 border rgb '#333333'\nset boxwidth 0.8\n";
}

std::string bar_legend_entry(const FigureData& figure, size_t row) {
  const SeriesStyle style = series_style(figure, row);
  return "NaN with boxes " + bar_fill(style) + " lc rgb '" + style.colour + "' title " +
         quoted(figure.panels.front().grid.rows[row].label);
}

const FigureTypeDescriptor& bars_figure_type() {
  static const FigureTypeDescriptor type{
      "bars",           {},          bars_rules(), series_grid, series_panel_tsv, plot_bars_panel,
      bar_legend_entry, kInteraction};
  return type;
}

}  // namespace convlab
