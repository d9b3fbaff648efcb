#include "figures/plot_writers.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/number_text.hpp"
#include "figures/figure_types.hpp"
#include "figures/plot_style.hpp"

namespace convlab {
namespace {

// Page geometry of a figure in inches, sized close to how the report prints it (6.5in text
// width) so fonts keep their size: panels side by side get 3.5in each. A figure of several panels
// has one title band on top and one legend band below all panels.
struct FigureLayout {
  size_t panels = 1;
  size_t columns = 1;
  size_t rows = 1;
  double width_in = 6.0;
  double panel_height_in = 3.8;
  double title_in = 0.0;
  double legend_in = 0.0;
  size_t legend_columns = 3;
  double height_in() const {
    return panel_height_in * static_cast<double>(rows) + title_in + legend_in;
  }
};

// The legend entries of a figure drawn apart from its panels: one per series, then the overlays.
std::vector<std::string> legend_entries(const FigureData& figure) {
  std::vector<std::string> entries;
  const auto& rows = figure.panels.front().grid.rows;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string entry = figure.declaration.type->legend_entry(figure, r);
    if (!entry.empty()) entries.push_back(std::move(entry));
  }
  if (entries.empty()) return entries;
  for (size_t o = 0; o < figure.panels.front().overlays.size(); ++o)
    entries.push_back(overlay_legend_entry(figure, o));
  return entries;
}

size_t longest_series_label(const FigureData& figure) {
  size_t longest = 0;
  for (const auto& row : figure.panels.front().grid.rows)
    longest = std::max(longest, row.label.size());
  for (const auto& overlay : figure.panels.front().overlays)
    longest = std::max(longest, overlay.label.size());
  return longest;
}

FigureLayout figure_layout(const FigureData& figure, size_t legend_entry_count) {
  FigureLayout layout;
  layout.panels = figure.panels.size();
  layout.columns = layout.panels == 1 ? 1 : 2;
  layout.rows = (layout.panels + layout.columns - 1) / layout.columns;
  layout.width_in = layout.columns == 1 ? 6.0 : 7.0;
  layout.panel_height_in = layout.columns == 1 ? 3.6 : 2.2;
  if (layout.panels > 1) layout.title_in = 0.3;
  const size_t longest = longest_series_label(figure);
  layout.legend_columns = longest > 40 ? 1 : longest > 24 ? 2 : longest > 14 ? 3 : 4;
  if (legend_entry_count > 0) {
    const size_t lines = (legend_entry_count + layout.legend_columns - 1) / layout.legend_columns;
    layout.legend_in = 0.15 + 0.17 * static_cast<double>(lines);
  }
  return layout;
}

// Where panel `p` lies on the page, as gnuplot screen fractions.
void place_panel(std::ostringstream& out, const FigureLayout& layout, size_t p) {
  const double height = layout.height_in();
  const double w = 1.0 / static_cast<double>(layout.columns);
  const double h = layout.panel_height_in / height;
  const size_t row = p / layout.columns;
  const size_t column = p % layout.columns;
  const double y =
      (layout.legend_in + layout.panel_height_in * static_cast<double>(layout.rows - 1 - row)) /
      height;
  out << "set size " << format_number(w, 4) << "," << format_number(h, 4) << "\n";
  out << "set origin " << format_number(w * static_cast<double>(column), 4) << ","
      << format_number(y, 4) << "\n";
}

// The figure's one legend, in its band below the panels, outside every plot's data.
void write_legend_band(std::ostringstream& out, const FigureLayout& layout,
                       const std::vector<std::string>& entries) {
  out << "# The legend of all panels\n";
  out << "set size 1," << format_number(layout.legend_in / layout.height_in(), 4)
      << "\nset origin 0,0\n";
  out << "unset title; unset xlabel; unset ylabel; unset logscale; unset grid; unset colorbox\n";
  out << "unset border; unset xtics; unset ytics; set xrange [0:1]; set yrange [0:1]\n";
  out << "set key center center horizontal Left reverse maxcols " << layout.legend_columns
      << " samplen 3 spacing 1.1\n";
  out << "plot ";
  for (size_t i = 0; i < entries.size(); ++i) out << (i ? ", \\\n     " : "") << entries[i];
  out << "\n";
}

// How a figure's body is written: for the report, a single panel's legend comes from the titles
// of its plots; for the notebook's SVG, every legend entry is a plot of its own after the data,
// and the axis ranges of each panel are printed for the hover layer.
struct BodyOptions {
  bool key_apart = false;
  bool print_axes = false;
};

// The axis ranges and the plot area on the terminal after a panel is drawn (svg_axes_line).
void print_axes(std::ostringstream& out, size_t p) {
  out << "print sprintf(\"panel " << p
      << " %.10g %.10g %.10g %.10g %.10g %.10g %.10g %.10g\", GPVAL_X_MIN, GPVAL_X_MAX, "
         "GPVAL_Y_MIN, GPVAL_Y_MAX, GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, "
         "GPVAL_TERM_YMAX)\n";
}

void write_panel(std::ostringstream& out, const FigureData& figure, size_t p,
                 const std::string& data_path, bool titled,
                 const std::vector<std::string>& key_entries = {}) {
  const FigurePanel& panel = figure.panels[p];
  if (!panel.title.empty()) out << "set title " << panel_title(figure, panel.title) << "\n";
  out << "unset xtics; unset ytics; set xtics nomirror; set ytics nomirror\n";
  out << "unset logscale\nset autoscale xy\nset grid lc rgb '#dddddd'\nset border 3 lc rgb "
         "'#444444'\n";
  out << "set xlabel " << quoted(figure.x_label) << "\nset ylabel " << quoted(figure.y_label)
      << "\n";
  const bool keyed = titled || !key_entries.empty();
  if (keyed && panel.grid.rows.size() + panel.overlays.size() > 1)
    out << "set key below center horizontal Left reverse maxcols 3 spacing 1.1\n";
  else
    out << "set key off\n";
  PanelPlot plot{out, figure, p, quoted(data_path), titled, key_entries};
  figure.declaration.type->plot_panel(plot);
}

void write_figure_body(std::ostringstream& out, const FigureData& figure,
                       const std::vector<std::string>& panel_data, const BodyOptions& options) {
  const auto entries = legend_entries(figure);
  const bool apart = figure.panels.size() > 1;
  const FigureLayout layout = figure_layout(figure, apart ? entries.size() : 0);
  if (!apart) {
    if (options.key_apart)
      write_panel(out, figure, 0, panel_data[0], false, entries);
    else
      write_panel(out, figure, 0, panel_data[0], true);
    if (options.print_axes) print_axes(out, 0);
    return;
  }
  out << "set multiplot title " << quoted(figure.declaration.title) << "\n";
  // The top band holds the figure's title, and a line more for each line of the longest panel
  // title after its first, so that no line of a wrapped title falls off the picture.
  size_t title_lines = 1;
  for (const auto& panel : figure.panels)
    title_lines = std::max(title_lines, panel_title_lines(figure, panel.title));
  const bool two_line_titles = title_lines > 1;
  out << "set tmargin " << 1 + title_lines << "\n";
  for (size_t p = 0; p < figure.panels.size(); ++p) {
    place_panel(out, layout, p);
    write_panel(out, figure, p, panel_data[p], false);
    if (options.print_axes) print_axes(out, p);
  }
  if (two_line_titles) out << "set tmargin 2\n";  // the legend band as without them
  if (!entries.empty()) write_legend_band(out, layout, entries);
  out << "unset multiplot\n";
}

// Settings every output of a figure shares.
void write_preamble(std::ostringstream& out, const FigureData& figure, const char* generator) {
  out << "# Figure " << quoted(figure.declaration.name) << " (" << figure.declaration.type->name
      << "), generated by " << generator
      << " from the results; edit the declaration, not this file.\n";
  out << "set encoding utf8\n";
  out << "set datafile separator \"\\t\"\n";
  // A series missing at some x (a CPU rung without K = 9) is drawn through its neighbours.
  out << "set datafile missing \"NaN\"\n";
  out << "set termoption noenhanced\n";
  out << "set border 3 lc rgb '#444444'\n";
  out << "set xlabel " << quoted(figure.x_label) << "\n";
  out << "set ylabel " << quoted(figure.y_label) << "\n";
  // A single panel carries no title of its own: the report prints the caption below it.
  // Logarithmic axes: labelled tics at 1, 2 and 5 of every decade.
  out << "set format x '%g'; set format y '%g'\n";
  out << "set mxtics 10; set mytics 10\n";
}

}  // namespace

std::string figure_panel_tsv(const FigureData& figure, size_t panel_index) {
  return figure.declaration.type->panel_tsv(figure, panel_index);
}

std::string table_tsv(const TableData& table) {
  std::ostringstream out;
  out << tsv_text(table.row_header);
  for (const auto& column : table.grid.columns) out << '\t' << tsv_text(column.label);
  out << '\n';
  for (size_t r = 0; r < table.grid.rows.size(); ++r) {
    out << tsv_text(table.grid.rows[r].label);
    for (const auto& cell : table.grid.cells[r])
      out << '\t' << (cell ? format_exact(cell->value) : "NaN");
    out << '\n';
  }
  return out.str();
}

std::string gnuplot_script(const FigureData& figure, const GnuplotOutputs& outputs) {
  const bool apart = figure.panels.size() > 1;
  const FigureLayout layout = figure_layout(figure, apart ? legend_entries(figure).size() : 0);
  const double height_in = layout.height_in();
  std::ostringstream out;
  write_preamble(out, figure, "convlab export");

  out << "\nset terminal pdfcairo size " << layout.width_in << "in," << height_in
      << "in font 'Helvetica," << (layout.columns == 1 ? 10 : 8) << "' noenhanced\n";
  out << "set output " << quoted(outputs.pdf) << "\n";
  std::ostringstream body;
  write_figure_body(body, figure, outputs.panel_data, BodyOptions{});
  out << body.str();
  out << "set output\n\n";
  out << "set terminal pngcairo size " << static_cast<int>(layout.width_in * 150) << ","
      << static_cast<int>(height_in * 150) << " font 'Helvetica,14' noenhanced\n";
  out << "set output " << quoted(outputs.png) << "\n";
  out << body.str();
  out << "set output\n";
  return out.str();
}

SvgSize svg_size(const FigureData& figure) {
  const bool apart = figure.panels.size() > 1;
  const FigureLayout layout = figure_layout(figure, apart ? legend_entries(figure).size() : 0);
  const double per_inch = apart ? kSvgPanelsPixelsPerInch : kSvgPixelsPerInch;
  return {static_cast<int>(layout.width_in * per_inch),
          static_cast<int>(layout.height_in() * per_inch)};
}

namespace {

std::vector<SvgPlot> series_svg_plots(const FigurePanel& panel, bool every_row) {
  std::vector<SvgPlot> data;
  const size_t rows = panel.grid.rows.size();
  for (size_t r = 0; r < rows; ++r)
    if (every_row || panel.grid.row_has_values(r)) data.push_back({SvgPlot::Kind::data, r});
  for (size_t o = 0; o < panel.overlays.size(); ++o) {
    const auto& values = panel.overlays[o].values;
    if (std::any_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); }))
      data.push_back({SvgPlot::Kind::data, rows + o});
  }
  if (data.empty()) data.push_back({SvgPlot::Kind::other, 0});
  return data;
}

}  // namespace

std::vector<SvgPlot> drawn_rows_svg_plots(const FigurePanel& panel) {
  return series_svg_plots(panel, false);
}

std::vector<SvgPlot> every_row_svg_plots(const FigurePanel& panel) {
  return series_svg_plots(panel, true);
}

std::string gnuplot_svg_script(const FigureData& figure, const SvgOutputs& outputs) {
  const SvgSize size = svg_size(figure);
  std::ostringstream out;
  write_preamble(out, figure, "convlab notebook");
  out << "\nset terminal svg size " << size.width << "," << size.height << " font 'Helvetica,"
      << (figure.panels.size() > 1 ? 10 : 12) << "' noenhanced\n";
  out << "set output " << quoted(outputs.svg) << "\n";
  out << "set print " << quoted(outputs.axes) << "\n";
  write_figure_body(out, figure, outputs.panel_data, BodyOptions{true, true});
  out << "set output\nunset print\n";
  return out.str();
}

std::vector<std::vector<SvgPlot>> svg_plots(const FigureData& figure) {
  const size_t rows = figure.panels.front().grid.rows.size();
  const size_t overlays = figure.panels.front().overlays.size();
  std::vector<SvgPlot> keys;
  const auto entries = legend_entries(figure);
  for (size_t r = 0; r < rows && !entries.empty(); ++r)
    if (!figure.declaration.type->legend_entry(figure, r).empty())
      keys.push_back({SvgPlot::Kind::key, r});
  for (size_t o = 0; o < overlays && !entries.empty(); ++o)
    keys.push_back({SvgPlot::Kind::key, rows + o});
  std::vector<std::vector<SvgPlot>> plots;
  for (const FigurePanel& panel : figure.panels)
    plots.push_back(figure.declaration.type->interaction.svg_plots(panel));
  if (figure.panels.size() == 1)
    plots.back().insert(plots.back().end(), keys.begin(), keys.end());
  else if (!keys.empty())
    plots.push_back(keys);
  return plots;
}

}  // namespace convlab
