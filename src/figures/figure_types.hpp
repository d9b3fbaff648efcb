// One descriptor per figure type (line, bars, stacked, heatmap, convergence, history): what its
// declaration may say, how the grid of one panel is built from the records, how that panel's data
// file looks and how gnuplot draws it, and how the notebook makes it interactive. A new figure type
// is one file (figure_type_<name>.cpp) and one row in CONVLAB_FIGURE_TYPES (figure_types.cpp);
// nothing else names a type.
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "store/record.hpp"

namespace convlab {

struct FigureDeclaration;
struct FigureData;
struct FigurePanel;
struct Grid;
struct SvgPlot;

// What a declaration of the type may and must say; parse_report_declarations enforces it.
struct FigureTypeRules {
  bool series = true;       // takes series: (one line or bar per value combination)
  bool y_list = false;      // y may be a list: the parts of each bar
  bool value = false;       // needs value: (the field shown as colour)
  bool log_x = false;       // a logarithmic x axis
  bool log_y = true;        // a logarithmic y axis
  bool error_bars = false;  // q1..q3 error bars
  bool overlays = false;    // overlay: reference lines such as the hardware floor
  bool best = false;        // best: a series of the fastest point per x (a series_grid type)
  bool numeric_x = false;   // x positions are the values themselves when every x is a number
  // Points of several problems (image, kernel, border, output) are drawn in a panel each, by the
  // problem fields they differ in, unless the declaration places those fields itself.
  bool panel_per_problem = false;
  // Fields a declaration of the type may leave out (empty: it must give them).
  std::string_view default_x, default_y, default_series;
  // false: convlab draws the type from data of its own (a history's commits), and a config's
  // figures: cannot declare it; messages and the schema do not list it.
  bool declarable = true;
};

// One panel being written into a gnuplot script.
struct PanelPlot {
  std::ostringstream& out;
  const FigureData& figure;
  size_t panel;
  std::string data;    // the panel's data file, quoted for gnuplot
  bool titled = true;  // false: the figure's one legend is drawn apart, lines carry no titles
  // Legend entries drawn as plots of their own after the data ("NaN with ... title ..."), so that
  // an entry and its series are separate elements (the notebook's SVG hides a series by its key).
  std::vector<std::string> key_entries;
};

// Where the hover target of a grid cell lies, in the panel's data coordinates.
struct HoverPosition {
  double x = 0, y = 0;
};

// How the notebook makes a figure of the type interactive (html/figure_html.cpp, notebook.js).
struct FigureInteraction {
  // What a panel's plot command draws, in order: the SVG's groups, of which series can be hidden.
  std::vector<SvgPlot> (*svg_plots)(const FigurePanel& panel);
  // A hover target on each point of a series (named by its series, hidden with it, its series
  // listed for the legend), or one per grid cell on axes of row and column indices (linear),
  // whose tooltip names its row as y.
  enum class Target { series_point, grid_cell };
  Target target;
  // Where the target of cell (row, column) of `grid` lies.
  HoverPosition (*position)(const FigureData& figure, const Grid& grid, size_t row, size_t column);
  int radius;             // of a target's circle, in SVG pixels
  std::string_view hint;  // after the caption: what hovering and clicking do
  // The hover names a point's column by its label ("1a2b3c4d5e6f: Subject"), not its tic.
  bool hover_names_label = false;
};

// A figure whose grid rows are series: a target on each point, hidden with its series.
constexpr FigureInteraction series_interaction(
    std::vector<SvgPlot> (*svg_plots)(const FigurePanel&),
    HoverPosition (*position)(const FigureData&, const Grid&, size_t, size_t)) {
  return {svg_plots, FigureInteraction::Target::series_point, position, 7,
          "Hover a point for its record; click a key entry to hide its series."};
}

// Adds the clauses of the panel's overlays that have a value in it (gnuplot would only warn about
// the others) to its plot command, after the clauses `separator` follows ("" when none yet);
// returns the separator for what follows.
const char* write_overlay_clauses(PanelPlot& plot, const char* separator);

// Ends a panel's plot command, with its key entries; `any_clause` false: nothing was drawn, and
// a plot of nothing keeps the command whole.
void end_plot(PanelPlot& plot, bool any_clause);

struct FigureTypeDescriptor {
  std::string_view name;
  std::vector<std::string_view> aliases;
  FigureTypeRules rules;
  // The grid of one panel: rows (series, stack parts or y values) against the x values.
  Grid (*panel_grid)(const FigureDeclaration& declaration,
                     const std::vector<const Record*>& records, const std::string& context);
  // The panel's data file (a header row of column names, then data at full precision).
  std::string (*panel_tsv)(const FigureData& figure, size_t panel);
  // Axes, ranges and the plot command of one panel.
  void (*plot_panel)(PanelPlot& plot);
  // The legend entry of grid row `row` drawn on its own (gnuplot: "NaN with ... title ..."); empty
  // for a type without a legend.
  std::string (*legend_entry)(const FigureData& figure, size_t row);
  FigureInteraction interaction;
};

// Shared by line and bars: one row per series against x, with quartiles when error bars are asked;
// with best:, the fastest point per x first (fastest_series.hpp).
Grid series_grid(const FigureDeclaration& declaration, const std::vector<const Record*>& records,
                 const std::string& context);

// Shared by bars and stacked: histogram axes, tics and fill; the legend entry of a bar.
void write_histogram_axes(PanelPlot& plot);
std::string bar_legend_entry(const FigureData& figure, size_t row);

// The types, in the order docs/report.md lists them.
const std::vector<const FigureTypeDescriptor*>& figure_types();
// By name or alias; nullptr when unknown.
const FigureTypeDescriptor* find_figure_type(std::string_view name);
// Every name and alias a declaration may give, for the config schema.
std::vector<std::string> figure_type_words();
// "line, bars, stacked, heatmap" for messages.
std::string figure_type_names();
// The types whose rules allow `feature` (nullptr: every type), as words for messages: "line or
// bars" (`conjunction` "or").
std::string figure_type_names(bool FigureTypeRules::*feature, std::string_view conjunction);

// The types other code names: the default (line), and those the tests declare figures of. Every
// type is listed in figure_types.cpp.
const FigureTypeDescriptor& line_figure_type();
const FigureTypeDescriptor& bars_figure_type();
const FigureTypeDescriptor& stacked_figure_type();
// Drawn from a history folder (history_figure.hpp), never declared.
const FigureTypeDescriptor& history_figure_type();

}  // namespace convlab
