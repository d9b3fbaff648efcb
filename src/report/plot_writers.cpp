#include "report/plot_writers.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "report/record_fields.hpp"

namespace convlab {
namespace {

// Colour-blind safe (Okabe-Ito), then a few more for long legends.
const char* const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                                "#56B4E9", "#000000", "#F0E442", "#8C564B", "#7F7F7F"};
const int kPointTypes[] = {7, 5, 9, 11, 13, 4, 6, 8, 10, 12};

// "16x16" reads better as 16×16; double quotes would end the gnuplot string.
std::string plot_text(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool times = c == 'x' && i > 0 && i + 1 < text.size() &&
                       std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
                       std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (times)
      out += "\xc3\x97";
    else if (c == '"' || c == '\\')
      out += std::string("\\") + c;
    else
      out += c;
  }
  return out;
}

std::string quoted(const std::string& text) {
  return "\"" + plot_text(text) + "\"";
}

// TSV cells never hold tabs or newlines.
std::string tsv_text(std::string text) {
  std::replace(text.begin(), text.end(), '\t', ' ');
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

const std::string& tic_of(const Category& category) {
  return category.tic.empty() ? category.label : category.tic;
}

double x_position(const FigureData& figure, const Grid& grid, size_t column) {
  return figure.numeric_x ? grid.columns[column].number : static_cast<double>(column);
}

size_t panel_columns(size_t panels) {
  return panels == 1 ? 1 : 2;
}

bool long_labels(const std::vector<Category>& categories) {
  size_t total = 0;
  for (const auto& c : categories) total += c.label.size();
  return total > 60 || std::any_of(categories.begin(), categories.end(),
                                   [](const Category& c) { return c.label.size() > 12; });
}

// A category tic broken into lines: at commas, and at spaces so that no line is longer than
// `limit` characters where that can be done (a single long word stays whole).
std::string wrap_tic(const std::string& text, size_t limit) {
  std::string wrapped;
  size_t line = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(" ,", start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const bool comma = end < text.size() && text[end] == ',';
    if (!word.empty()) {
      if (line > 0 && line + 1 + word.size() > limit) {
        wrapped += "\\n";
        line = 0;
      } else if (line > 0) {
        wrapped += ' ';
        ++line;
      }
      wrapped += word;
      line += word.size();
    }
    if (comma && line > 0) {
      wrapped += "\\n";
      line = 0;
    }
    start = end + 1;
  }
  return wrapped;
}

// Characters a category tic may use per line: the panel's width shared among its categories.
size_t tic_limit(const FigureData& figure, size_t categories) {
  const size_t panel_chars = figure.panels.size() > 1 ? 48 : 90;
  return std::max<size_t>(8, panel_chars / std::max<size_t>(1, categories));
}

// Explicit tics: every category (or data x value) gets its label, long ones wrapped.
void write_tics(std::ostringstream& out, const char* axis, const FigureData& figure,
                const Grid& grid, bool rows) {
  const auto& categories = rows ? grid.rows : grid.columns;
  const size_t limit = tic_limit(figure, categories.size());
  out << "set " << axis << "tics (";
  for (size_t i = 0; i < categories.size(); ++i) {
    const std::string tic = wrap_tic(
        plot_text(categories[i].tic.empty() ? categories[i].label : categories[i].tic), limit);
    const double position = rows ? static_cast<double>(i) : x_position(figure, grid, i);
    out << (i ? ", " : "") << "\"" << tic << "\" " << format_exact(position);
  }
  out << ")\n";
}

void write_panel_plot(std::ostringstream& out, const FigureData& figure, size_t panel_index,
                      const std::string& data_path) {
  const FigureDeclaration& declaration = figure.declaration;
  const FigurePanel& panel = figure.panels[panel_index];
  const Grid& grid = panel.grid;
  const std::string data = quoted(data_path);
  if (!panel.title.empty()) out << "set title " << quoted(panel.title) << "\n";
  out << "unset xtics; unset ytics; set xtics nomirror; set ytics nomirror\n";
  out << "unset logscale\n";

  if (declaration.type == FigureType::heatmap) {
    out << "set offsets 0, 0, 0, 0\nunset grid\n";
    write_tics(out, "x", figure, grid, false);
    write_tics(out, "y", figure, grid, true);
    out << "set xrange [-0.5:" << grid.columns.size() - 0.5 << "]\n";
    out << "set yrange [-0.5:" << grid.rows.size() - 0.5 << "]\n";
    out << "set cblabel " << quoted(figure.value_label) << "\n";
    out << "set palette defined (0 '#fff7bc', 1 '#fec44f', 2 '#fe9929', 3 '#d95f0e')\n";
    out << "set colorbox\nunset key\n";
    out << "plot " << data << " skip 1 using 1:2:3 with image pixels notitle, \\\n     " << data
        << " skip 1 using 1:2:6 with labels notitle\n";
    return;
  }

  out << "unset colorbox\n";
  if (declaration.log_x) out << "set logscale x\n";
  if (declaration.log_y) out << "set logscale y\n";
  const bool explicit_tics = !figure.numeric_x || grid.columns.size() <= 12;
  if (explicit_tics) write_tics(out, "x", figure, grid, false);
  // Tic labels wrapped onto several lines push the axis label down by as many lines.
  size_t tic_lines = 1;
  const size_t limit = tic_limit(figure, grid.columns.size());
  for (const auto& column : grid.columns) {
    const std::string tic = wrap_tic(column.tic.empty() ? column.label : column.tic, limit);
    size_t lines = 1;
    for (size_t at = tic.find("\\n"); at != std::string::npos; at = tic.find("\\n", at + 2))
      ++lines;
    tic_lines = std::max(tic_lines, lines);
  }
  out << "set xlabel offset 0," << -static_cast<double>(tic_lines - 1) << "\n";
  if (!figure.numeric_x && grid.columns.size() > 6 && long_labels(grid.columns))
    out << "set xtics rotate by 30 right\n";
  if (grid.rows.size() > 1)
    out << "set key below center horizontal reverse Left maxcols " << (grid.rows.size() > 3 ? 2 : 3)
        << " spacing 1.1\n";
  else
    out << "set key off\n";

  const bool errors = declaration.error_bars;
  const size_t stride = errors ? 3 : 1;
  if (declaration.type == FigureType::line) {
    if (figure.numeric_x) {
      out << "set autoscale xfix\nset offsets graph 0.05, graph 0.05, 0, 0\n";
    } else {
      out << "set xrange [-0.5:" << grid.columns.size() - 0.5 << "]\n";
    }
    out << "set autoscale y\nplot ";
    for (size_t r = 0; r < grid.rows.size(); ++r) {
      const size_t column = 3 + r * stride;
      const std::string colour = kColours[r % std::size(kColours)];
      const int point_type = kPointTypes[r % std::size(kPointTypes)];
      out << (r ? ", \\\n     " : "") << data << " skip 1 using 1:" << column;
      if (errors) out << ":" << column + 1 << ":" << column + 2;
      out << " with " << (errors ? "yerrorlines" : "linespoints") << " lw 2 pt " << point_type
          << " ps 0.8 lc rgb '" << colour << "' title " << quoted(grid.rows[r].label);
    }
    out << "\n";
    return;
  }

  out << "set offsets 0, 0, 0, 0\nset xrange [-0.6:" << grid.columns.size() - 0.4 << "]\n";
  out << "set autoscale y\n";
  if (!declaration.log_y) out << "set yrange [0:*]\n";
  out << "set style data histograms\n";
  if (declaration.type == FigureType::stacked)
    out << "set style histogram rowstacked\n";
  else if (errors)
    out << "set style histogram errorbars gap 1 lw 1\n";
  else
    out << "set style histogram clustered gap 1\n";
  out << "set style fill solid 0.85 border rgb '#333333'\nset boxwidth 0.8\nplot ";
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    const size_t column = 3 + r * stride;
    const std::string colour = kColours[r % std::size(kColours)];
    // Stacked parts a record lacks (a CPU point has no copies) count as zero height.
    const std::string value = declaration.type == FigureType::stacked
                                  ? "(($" + std::to_string(column) + " == $" +
                                        std::to_string(column) + ") ? $" + std::to_string(column) +
                                        " : 0)"
                                  : std::to_string(column);
    out << (r ? ", \\\n     " : "") << data << " skip 1 using " << value;
    if (errors) out << ":" << column + 1 << ":" << column + 2;
    out << " lc rgb '" << colour << "' title " << quoted(grid.rows[r].label);
  }
  out << "\n";
}

void write_figure_body(std::ostringstream& out, const FigureData& figure,
                       const GnuplotOutputs& outputs) {
  const size_t panels = figure.panels.size();
  const size_t columns = panel_columns(panels);
  const size_t rows = (panels + columns - 1) / columns;
  if (panels > 1)
    out << "set multiplot layout " << rows << "," << columns << " title "
        << quoted(figure.declaration.title) << "\n";
  for (size_t p = 0; p < panels; ++p) write_panel_plot(out, figure, p, outputs.panel_data[p]);
  if (panels > 1) out << "unset multiplot\n";
}

}  // namespace

std::string figure_panel_tsv(const FigureData& figure, size_t panel_index) {
  const Grid& grid = figure.panels.at(panel_index).grid;
  std::ostringstream out;
  if (figure.declaration.type == FigureType::heatmap) {
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
  const bool errors = figure.declaration.error_bars;
  out << "x\tx_label";
  for (const auto& row : grid.rows) {
    out << '\t' << tsv_text(row.label);
    if (errors) out << '\t' << tsv_text(row.label) << " q1\t" << tsv_text(row.label) << " q3";
  }
  out << '\n';
  for (size_t c = 0; c < grid.columns.size(); ++c) {
    out << format_exact(x_position(figure, grid, c)) << '\t' << tsv_text(tic_of(grid.columns[c]));
    for (size_t r = 0; r < grid.rows.size(); ++r) {
      const auto& cell = grid.cells[r][c];
      out << '\t' << (cell ? format_exact(cell->value) : "NaN");
      if (errors) {
        out << '\t' << (cell && cell->low ? format_exact(*cell->low) : "NaN");
        out << '\t' << (cell && cell->high ? format_exact(*cell->high) : "NaN");
      }
    }
    out << '\n';
  }
  return out.str();
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
  const size_t panels = figure.panels.size();
  const size_t columns = panel_columns(panels);
  const size_t rows = (panels + columns - 1) / columns;
  // Sized close to how the report prints them (6.5in text width), so fonts keep their size:
  // panels side by side get 3.25in each.
  const double width_in = columns == 1 ? 6.0 : 7.0;
  const double height_in =
      (columns == 1 ? 3.8 : 2.9) * static_cast<double>(rows) + (panels > 1 ? 0.3 : 0.0);
  std::ostringstream out;
  out << "# Figure '" << figure.declaration.name << "' (" << to_string(figure.declaration.type)
      << "), generated by convlab export from the results; edit the declaration, not this file.\n";
  out << "set encoding utf8\n";
  out << "set datafile separator \"\\t\"\n";
  out << "set termoption noenhanced\n";
  out << "set grid lc rgb '#dddddd'\nset border 3 lc rgb '#444444'\n";
  out << "set xlabel " << quoted(figure.x_label) << "\n";
  out << "set ylabel " << quoted(figure.y_label) << "\n";
  if (panels == 1) out << "set title " << quoted(figure.declaration.title) << "\n";

  out << "\nset terminal pdfcairo size " << width_in << "in," << height_in << "in font 'Helvetica,"
      << (columns == 1 ? 10 : 8) << "' noenhanced\n";
  out << "set output " << quoted(outputs.pdf) << "\n";
  std::ostringstream body;
  write_figure_body(body, figure, outputs);
  out << body.str();
  out << "set output\n\n";
  out << "set terminal pngcairo size " << static_cast<int>(width_in * 150) << ","
      << static_cast<int>(height_in * 150) << " font 'Helvetica,14' noenhanced\n";
  out << "set output " << quoted(outputs.png) << "\n";
  out << body.str();
  out << "set output\n";
  return out.str();
}

}  // namespace convlab
