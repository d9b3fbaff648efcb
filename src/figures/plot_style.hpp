// What every figure type shares when it writes gnuplot: text quoting, tics, the data layout of
// series figures (line, bars, stacked) and the style of a series. An implementation keeps one
// colour and point type in every figure of the report, its descriptor's (Appearance,
// impl/implementation.hpp), so a reader learns them once; the variants of one implementation in a
// figure (block shapes, tiles) differ by line style.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "figures/figure_data.hpp"

namespace convlab {

// Every string from data (a config, a results or shard file, a file name) reaches a script only
// through these. Text for gnuplot: "16x16" as 16×16, every control character a space.
std::string plot_text(const std::string& text);
// A gnuplot string constant of `text` (after plot_text): in double quotes, a backslash and a
// double quote escaped, a backquote and control characters in octal, so that nothing in it can
// end the string or the command, or run one. The one quoting of every string in a script.
std::string quoted(const std::string& text);
// Lines of text (already plot_text) as one string constant, joined by newlines.
std::string quoted_lines(const std::vector<std::string>& lines);
// A panel's title, quoted, broken at its commas (and spaces) into lines as wide as the panel when
// it is longer (a machine's label over one of two panels side by side).
std::string panel_title(const FigureData& figure, const std::string& title);
size_t panel_title_lines(const FigureData& figure, const std::string& title);
// A TSV cell: no control characters (a tab or a newline would end it).
std::string tsv_text(std::string text);

const std::string& tic_of(const Category& category);
// Where column `column` of `grid` lies on the x axis: its value, or its index for categories.
double x_position(const FigureData& figure, const Grid& grid, size_t column);
// Explicit tics on `axis` ("x" or "y"): every category (or x value) with its label, long ones
// wrapped; rows: the grid's rows instead of its columns.
void write_tics(std::ostringstream& out, const char* axis, const FigureData& figure,
                const Grid& grid, bool rows);
// Lines the longest wrapped x tic label takes (the axis label is moved down by as many).
size_t x_tic_lines(const FigureData& figure, const Grid& grid);
bool long_labels(const std::vector<Category>& categories);

// How a series of a figure is drawn.
struct SeriesStyle {
  std::string colour;  // "#rrggbb"
  int point_type = 7;
  int dash_type = 1;
};
// The style of grid row `row`: its implementation's colour and point, a dash per variant of that
// implementation in the figure; rows that name no registered implementation (a user's kernel,
// threads) take colours in order.
SeriesStyle series_style(const FigureData& figure, size_t row);

// Series figures (line, bars, stacked): one data line per x; columns x, x_label, then per grid
// row its value (and q1, q3 with error bars), then one column per overlay line.
std::string series_panel_tsv(const FigureData& figure, size_t panel);
// The data column (1-based) of grid row `row`, and of overlay `overlay`.
size_t series_column(const FigureData& figure, size_t row);
size_t overlay_column(const FigureData& figure, size_t overlay);
// The plot clause of overlay `overlay` (the hardware floor, ideal scaling).
std::string overlay_clause(const FigureData& figure, size_t overlay, const std::string& data,
                           bool titled);
std::string overlay_legend_entry(const FigureData& figure, size_t overlay);

}  // namespace convlab

namespace convlab {
// Labelled tics at 1, 2 and 5 of every decade of a logarithmic axis ("x" or "y"); gnuplot shows
// those within the range.
void write_log_tics(std::ostringstream& out, const char* axis, double low, double high);
// The smallest and largest positive value a panel draws (series and overlays), for its tics.
std::pair<double, double> panel_value_range(const FigurePanel& panel);
}  // namespace convlab
