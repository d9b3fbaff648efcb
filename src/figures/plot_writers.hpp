// Writers for what gnuplot reads: tab-separated data (one header row of column names, then data
// at full precision) and the scripts that render a figure to PDF and PNG (the report) or SVG (the
// notebook).
#pragma once

#include <string>
#include <vector>

#include "figures/figure_data.hpp"

namespace convlab {

// Data of one panel. Line, bars, stacked: columns x, x_label, then per grid row its value (and
// q1, q3 with error bars). Heatmap: x_index, y_index, value, x_label, y_label, value_text (the
// cell's printed number, empty where no point), one row per cell.
std::string figure_panel_tsv(const FigureData& figure, size_t panel);

// A table's grid: row label, then one column per grid column.
std::string table_tsv(const TableData& table);

struct GnuplotOutputs {
  std::vector<std::string> panel_data;  // TSV paths as the script should open them
  std::string pdf;
  std::string png;
};

std::string gnuplot_script(const FigureData& figure, const GnuplotOutputs& outputs);

// The same figure as SVG, for the notebook. The drawing is the report's, with two differences:
// every legend entry is a plot of its own after the data, so that an entry and its series are
// separate groups of the SVG; and after each panel's plot gnuplot prints its axis ranges and plot
// area to `axes`, one line "panel P xmin xmax ymin ymax term_xmin term_xmax term_ymin term_ymax"
// (terminal y counts from the bottom), from which points are placed on the picture.
struct SvgOutputs {
  std::vector<std::string> panel_data;
  std::string svg;
  std::string axes;
};
std::string gnuplot_svg_script(const FigureData& figure, const SvgOutputs& outputs);

// Pixels per inch of the SVG: a figure of several panels gets more, so that its panels' tics and
// cell labels keep apart at the width a page gives it.
inline constexpr double kSvgPixelsPerInch = 100.0;
inline constexpr double kSvgPanelsPixelsPerInch = 125.0;
struct SvgSize {
  int width = 0;
  int height = 0;
};
SvgSize svg_size(const FigureData& figure);

// What each plot clause of the SVG script draws, in the order gnuplot numbers them: one list per
// plot command (one per panel, then the legend band of a figure of several panels). `series`:
// the grid row, or the number of rows plus the overlay's index.
struct SvgPlot {
  enum class Kind { data, key, other };
  Kind kind = Kind::data;
  size_t series = 0;
};
std::vector<std::vector<SvgPlot>> svg_plots(const FigureData& figure);
// What the plot command of a series figure draws in a panel: the grid rows with a value there
// (line and bars leave the others out) or every row (stacked draws every part, a missing one as
// zero), then the overlays with a value; or one plot of nothing. The figure types' svg_plots.
std::vector<SvgPlot> drawn_rows_svg_plots(const FigurePanel& panel);
std::vector<SvgPlot> every_row_svg_plots(const FigurePanel& panel);

}  // namespace convlab
