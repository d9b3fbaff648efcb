#include "figures/plot_style.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/number_text.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

// The appearance of a registered implementation (its descriptor's colour and point type, the
// same in every figure), or null for a name that is none (a user's kernel, a series of threads).
const Appearance* appearance_of(const std::string& implementation) {
  const Implementation* registered = find_implementation(implementation);
  return registered && registered->appearance ? &*registered->appearance : nullptr;
}

// For series that are not implementations (threads, kernels, tiles): Okabe-Ito, then a few more.
const char* const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                                "#56B4E9", "#000000", "#F0E442", "#8C564B", "#7F7F7F"};
const int kPointTypes[] = {7, 5, 9, 11, 13, 4, 6, 8, 10, 12};

// A category tic broken into lines: at commas, and at spaces so that no line is longer than
// `limit` characters where that can be done (a single long word stays whole).
std::vector<std::string> wrap_tic(const std::string& text, size_t limit) {
  std::vector<std::string> lines(1);
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(" ,", start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const bool comma = end < text.size() && text[end] == ',';
    if (!word.empty()) {
      std::string& line = lines.back();
      if (!line.empty() && line.size() + 1 + word.size() > limit)
        lines.push_back(word);
      else
        line += (line.empty() ? "" : " ") + word;
    }
    if (comma && !lines.back().empty()) lines.emplace_back();
    start = end + 1;
  }
  if (lines.size() > 1 && lines.back().empty()) lines.pop_back();
  return lines;
}

// Characters a category tic may use per line: the panel's width shared among its categories.
size_t tic_limit(const FigureData& figure, size_t categories) {
  const size_t panel_chars = figure.panels.size() > 1 ? 48 : 90;
  return std::max<size_t>(8, panel_chars / std::max<size_t>(1, categories));
}

const Grid& first_grid(const FigureData& figure) {
  return figure.panels.front().grid;
}

// "#rrggbb" mixed with black: 0 keeps it, 1 is black.
std::string shade(const std::string& colour, double dark) {
  const auto channel = [&](size_t at) {
    const int value = std::stoi(colour.substr(at, 2), nullptr, 16);
    return static_cast<int>(std::lround(value * (1.0 - dark)));
  };
  char text[8];
  std::snprintf(text, sizeof text, "#%02X%02X%02X", channel(1), channel(3), channel(5));
  return text;
}

// Where a point type stands in the cycle of point types, so that variants start from their
// implementation's own.
size_t row_index_of(int point_type) {
  for (size_t i = 0; i < std::size(kPointTypes); ++i)
    if (kPointTypes[i] == point_type) return i;
  return 0;
}

}  // namespace

std::string plot_text(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const bool times = c == 'x' && i > 0 && i + 1 < text.size() &&
                       std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
                       std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (times)
      out += "\xc3\x97";
    else if (c < 0x20 || c == 0x7f)
      out += ' ';  // a newline would end the command, and "!" start a shell line after it
    else
      out += static_cast<char>(c);
  }
  return out;
}

std::string quoted(const std::string& text) {
  return quoted_lines({plot_text(text)});
}

std::string quoted_lines(const std::vector<std::string>& lines) {
  // Double quotes, the one quoting of every string a script holds. gnuplot reads the escapes
  // \\ \" \n and \ooo there, and substitutes a `command` there unless its backquote is escaped;
  // so a backslash and a double quote are escaped, a backquote and any control character written
  // in octal: nothing can end the string, continue the line or run a command. (Single quotes
  // read no escape, but gnuplot takes a string opening with a doubled quote, '''a', for an empty
  // string and a stray token.) Lines are joined by \n inside the one string.
  std::string out = "\"";
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) out += "\\n";
    for (const char c : lines[i]) {
      const auto byte = static_cast<unsigned char>(c);
      if (c == '\\' || c == '"') {
        out += '\\';
        out += c;
      } else if (c == '`' || byte < 0x20 || byte == 0x7f) {
        char octal[8];
        std::snprintf(octal, sizeof octal, "\\%03o", static_cast<unsigned>(byte));
        out += octal;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

namespace {

std::vector<std::string> panel_title_text(const FigureData& figure, const std::string& title) {
  const size_t limit = figure.panels.size() > 1 ? 48 : 90;
  if (title.size() <= limit) return {plot_text(title)};
  return wrap_tic(plot_text(title), limit);
}

}  // namespace

std::string panel_title(const FigureData& figure, const std::string& title) {
  return quoted_lines(panel_title_text(figure, title));
}

size_t panel_title_lines(const FigureData& figure, const std::string& title) {
  return panel_title_text(figure, title).size();
}

std::string tsv_text(std::string text) {
  // A control character could end the cell or the line; none is kept.
  std::replace_if(
      text.begin(), text.end(),
      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == '\x7f'; }, ' ');
  return text;
}

const std::string& tic_of(const Category& category) {
  return category.tic.empty() ? category.label : category.tic;
}

double x_position(const FigureData& figure, const Grid& grid, size_t column) {
  return figure.numeric_x ? grid.columns[column].number : static_cast<double>(column);
}

bool long_labels(const std::vector<Category>& categories) {
  size_t total = 0;
  for (const auto& c : categories) total += c.label.size();
  return total > 60 || std::any_of(categories.begin(), categories.end(),
                                   [](const Category& c) { return c.label.size() > 12; });
}

void write_tics(std::ostringstream& out, const char* axis, const FigureData& figure,
                const Grid& grid, bool rows) {
  const auto& categories = rows ? grid.rows : grid.columns;
  const size_t limit = tic_limit(figure, categories.size());
  out << "set " << axis << "tics (";
  // On a logarithmic axis a value too close to the last labelled one keeps its tic, unlabelled.
  const bool thin = !rows && figure.numeric_x && figure.log_x;
  double labelled = 0.0;
  for (size_t i = 0; i < categories.size(); ++i) {
    const double position = rows ? static_cast<double>(i) : x_position(figure, grid, i);
    const bool crowded = thin && labelled > 0 && position < labelled * 1.8;
    if (!crowded) labelled = position;
    const std::string tic =
        crowded ? quoted("") : quoted_lines(wrap_tic(plot_text(tic_of(categories[i])), limit));
    out << (i ? ", " : "") << tic << " " << format_exact(position);
  }
  out << ")\n";
}

size_t x_tic_lines(const FigureData& figure, const Grid& grid) {
  size_t tic_lines = 1;
  const size_t limit = tic_limit(figure, grid.columns.size());
  for (const auto& column : grid.columns)
    tic_lines = std::max(tic_lines, wrap_tic(tic_of(column), limit).size());
  return tic_lines;
}

SeriesStyle series_style(const FigureData& figure, size_t row) {
  const auto& rows = first_grid(figure).rows;
  const Category& category = rows.at(row);
  const Appearance* known = appearance_of(category.implementation);
  if (known == nullptr)
    return {kColours[row % std::size(kColours)], kPointTypes[row % std::size(kPointTypes)], 1};
  // The variant's rank among the rows of the same implementation picks the dash.
  int variant = 0, variants = 0;
  for (size_t r = 0; r < rows.size(); ++r)
    if (rows[r].implementation == category.implementation) {
      variant += r < row ? 1 : 0;
      ++variants;
    }
  if (!figure.declaration.shade_variants || variants < 2)
    return {known->colour, known->point_type, 1 + variant % 5};
  // Shades from the implementation's colour to near black, and a point type each, so that four
  // thread counts of one implementation are four lines a reader tells apart.
  const double dark = 0.7 * variant / (variants - 1);
  return {shade(known->colour, dark),
          kPointTypes[(variant + row_index_of(known->point_type)) % std::size(kPointTypes)],
          1 + variant % 5};
}

size_t series_column(const FigureData& figure, size_t row) {
  return 3 + row * (figure.declaration.error_bars ? 3 : 1);
}

size_t overlay_column(const FigureData& figure, size_t overlay) {
  return series_column(figure, first_grid(figure).rows.size()) + overlay;
}

std::string series_panel_tsv(const FigureData& figure, size_t panel_index) {
  const FigurePanel& panel = figure.panels.at(panel_index);
  const Grid& grid = panel.grid;
  const bool errors = figure.declaration.error_bars;
  std::ostringstream out;
  out << "x\tx_label";
  for (const auto& row : grid.rows) {
    out << '\t' << tsv_text(row.label);
    if (errors) out << '\t' << tsv_text(row.label) << " q1\t" << tsv_text(row.label) << " q3";
  }
  for (const auto& overlay : panel.overlays) out << '\t' << tsv_text(overlay.label);
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
    for (const auto& overlay : panel.overlays) {
      const auto& value = c < overlay.values.size() ? overlay.values[c] : std::nullopt;
      out << '\t' << (value ? format_exact(*value) : "NaN");
    }
    out << '\n';
  }
  return out.str();
}

namespace {

std::string overlay_style(const OverlayLine& line) {
  return line.ideal ? "with lines lw 1.5 dt 3 lc rgb '#000000'"
                    : "with lines lw 2.5 dt 2 lc rgb '#888888'";
}

}  // namespace

std::string overlay_clause(const FigureData& figure, size_t overlay, const std::string& data,
                           bool titled) {
  const OverlayLine& line = figure.panels.front().overlays.at(overlay);
  return data + " skip 1 using 1:" + std::to_string(overlay_column(figure, overlay)) + " " +
         overlay_style(line) + (titled ? " title " + quoted(line.label) : " notitle");
}

std::string overlay_legend_entry(const FigureData& figure, size_t overlay) {
  const OverlayLine& line = figure.panels.front().overlays.at(overlay);
  return "NaN " + overlay_style(line) + " title " + quoted(line.label);
}

}  // namespace convlab

namespace convlab {

void write_log_tics(std::ostringstream& out, const char* axis, double low, double high) {
  // 1, 2, 5 per decade over up to two decades, 1 and 3 up to four, decades beyond.
  const double decades = low > 0 && high > low ? std::log10(high / low) : 6.0;
  std::vector<double> mantissas = {1.0};
  if (decades <= 2.2)
    mantissas = {1.0, 2.0, 5.0};
  else if (decades <= 4.2)
    mantissas = {1.0, 3.0};
  out << "set " << axis << "tics (";
  bool first = true;
  for (int exponent = -5; exponent <= 6; ++exponent)
    for (const double mantissa : mantissas) {
      const double value = mantissa * std::pow(10.0, exponent);
      out << (first ? "" : ", ") << "\"" << format_number(value, 1) << "\" " << format_exact(value);
      first = false;
    }
  out << ")\n";
}

}  // namespace convlab

namespace convlab {

std::pair<double, double> panel_value_range(const FigurePanel& panel) {
  double low = 0.0, high = 0.0;
  const auto take = [&](double value) {
    if (!(value > 0)) return;
    low = low == 0.0 ? value : std::min(low, value);
    high = std::max(high, value);
  };
  for (const auto& row : panel.grid.cells)
    for (const auto& cell : row)
      if (cell) {
        take(cell->value);
        if (cell->low) take(*cell->low);
        if (cell->high) take(*cell->high);
      }
  for (const auto& overlay : panel.overlays)
    for (const auto& value : overlay.values)
      if (value) take(*value);
  return {low, high};
}

}  // namespace convlab
