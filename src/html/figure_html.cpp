#include "html/figure_html.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>

#include "core/number_text.hpp"
#include "figures/figure_types.hpp"
#include "figures/plot_style.hpp"
#include "figures/plot_writers.hpp"
#include "html/html_text.hpp"
#include "html/svg_sanitizer.hpp"
#include "query/point_flags.hpp"
#include "query/record_fields.hpp"

namespace convlab {
namespace {

using nlohmann::json;

// A panel's axis ranges and plot area as gnuplot printed them (terminal y from the bottom).
struct PanelAxes {
  double x_min = 0, x_max = 0, y_min = 0, y_max = 0;
  double left = 0, right = 0, bottom = 0, top = 0;
};

std::map<size_t, PanelAxes> parse_axes(const std::string& text) {
  std::map<size_t, PanelAxes> panels;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string tag;
    size_t panel = 0;
    PanelAxes a;
    if (words >> tag >> panel >> a.x_min >> a.x_max >> a.y_min >> a.y_max >> a.left >> a.right >>
            a.bottom >> a.top &&
        tag == "panel")
      panels[panel] = a;
  }
  return panels;
}

// Where `value` lies between `low` and `high` on a linear or logarithmic axis, as a fraction.
std::optional<double> fraction(double value, double low, double high, bool log) {
  if (!std::isfinite(value) || high == low) return std::nullopt;
  if (log) {
    if (value <= 0 || low <= 0 || high <= 0) return std::nullopt;
    return (std::log(value) - std::log(low)) / (std::log(high) - std::log(low));
  }
  return (value - low) / (high - low);
}

struct HoverPoint {
  size_t panel = 0;
  size_t series = 0;
  size_t column = 0;
  double x = 0, y = 0;  // data coordinates
  const Cell* cell = nullptr;
};

// Where each cell's target lies in data coordinates, as its figure type places it.
std::vector<HoverPoint> hover_points(const FigureData& figure) {
  std::vector<HoverPoint> points;
  const FigureInteraction& hover = figure.declaration.type->interaction;
  for (size_t p = 0; p < figure.panels.size(); ++p) {
    const Grid& grid = figure.panels[p].grid;
    for (size_t r = 0; r < grid.rows.size(); ++r)
      for (size_t c = 0; c < grid.columns.size(); ++c) {
        const auto& cell = grid.cells[r][c];
        if (!cell) continue;
        const HoverPosition at = hover.position(figure, grid, r, c);
        points.push_back({p, r, c, at.x, at.y, &*cell});
      }
  }
  return points;
}

// "16x16" as "16×16", as the figure's tics show it.
std::string shown(const std::string& text) {
  return plot_text(text);
}

std::string params_words(const Record& record) {
  std::string words;
  for (auto it = record.params.begin(); it != record.params.end(); ++it) {
    const auto value = field_value(record, "params." + it.key());
    words += (words.empty() ? "" : ", ") + it.key() + " " + (value ? value->text : it->dump());
  }
  return words.empty() ? "none" : words;
}

std::string verdict_words(const Record& record) {
  if (record.status != Status::ok)
    return std::string(to_string(record.status)) +
           (record.reason.empty() ? "" : ": " + record.reason);
  if (!record.verification) return "ok (not verified)";
  const Verification& v = *record.verification;
  std::string words = std::string(v.ok ? "verified" : "outside tolerance") + ", max error " +
                      format_number(v.max_abs_error, 3) + " (tolerance " +
                      format_number(v.tolerance, 3) + ")";
  if (v.exactness_counted)
    words += v.values_not_exact == 0
                 ? ", every u8 value exact"
                 : ", " + std::to_string(v.values_not_exact) + " u8 values not exact";
  return words;
}

std::string svg_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

size_t plot_index(const std::string& letters) {
  size_t index = 0;
  for (char c : letters) index = index * 26 + static_cast<size_t>(c - 'a' + 1);
  return letters.empty() ? 0 : index - 1;
}

std::string figure_caption(const FigureCell& figure, size_t index, const std::string& hint) {
  return "<figcaption><span class=\"figure-number\">Figure " + std::to_string(index + 1) +
         ".</span> " + html_escape(figure.caption) + " <span class=\"hint\">" + html_escape(hint) +
         "</span></figcaption>\n";
}

}  // namespace

std::string undrawn_figure_html(const FigureCell& figure, size_t index, const std::string& why) {
  return "<figure class=\"plot undrawn\" id=\"figure-" + html_id(figure.data.declaration.name) +
         "\">\n<p class=\"flag\">Not drawn: " + html_escape(why) + "</p>\n" +
         figure_caption(figure, index, "") + "</figure>\n";
}

std::string failed_figure_html(const FigureCell& figure, size_t index, const std::string& error) {
  return "<figure class=\"plot undrawn failed\" id=\"figure-" +
         html_id(figure.data.declaration.name) +
         "\">\n<div class=\"figure-error\" role=\"alert\"><p class=\"flag\">Not drawn: gnuplot "
         "failed on figure <code>" +
         html_escape(figure.data.declaration.name) + "</code>.</p><pre class=\"error-text\">" +
         html_escape(error) + "</pre></div>\n" + figure_caption(figure, index, "") + "</figure>\n";
}

std::vector<std::pair<std::string, std::string>> record_rows(const Record& record) {
  std::vector<std::pair<std::string, std::string>> rows;
  const auto add = [&](const std::string& label, const std::string& field,
                       const std::string& unit) {
    const auto value = field_value(record, field);
    if (!value) return;
    rows.emplace_back(label,
                      (value->numeric ? format_number(value->number, 3) : value->text) + unit);
  };
  rows.emplace_back("Implementation", record.implementation);
  rows.emplace_back("Parameters", params_words(record));
  rows.emplace_back("Image", record.image.name + " (" + std::to_string(record.image.width) + "x" +
                                 std::to_string(record.image.height) + ", " +
                                 std::to_string(record.image.channels) + " ch)");
  rows.emplace_back("Kernel", record.kernel.name + " (" + std::to_string(record.kernel.size) + "x" +
                                  std::to_string(record.kernel.size) + ")");
  rows.emplace_back("Border", record.border);
  rows.emplace_back("Output", record.output);
  if (record.timing) {
    const SampleStats& stats = record.timing->compute.stats;
    rows.emplace_back("Median", format_number(stats.median, 3) + " ms (q1 " +
                                    format_number(stats.q1, 3) + ", q3 " +
                                    format_number(stats.q3, 3) + ")");
    rows.emplace_back("CV", format_number(stats.cv * 100, 2) + " %");
  }
  add("Speedup", "speedup", "\xC3\x97");
  add("With copies", "speedup_with_transfers", "\xC3\x97");
  for (PointFlag flag : point_flags(record))
    rows.emplace_back("Flag", std::string(flag_mark(flag)) + " " + flag_words(flag, record));
  rows.emplace_back("Verdict", verdict_words(record));
  if (record.machine && !record.machine->label.empty())
    rows.emplace_back("Machine", record.machine->label);
  return rows;
}

namespace {

// A figure whose targets are grid cells: its rows are no series, its axes row and column indices.
bool hovers_cells(const FigureData& data) {
  return data.declaration.type->interaction.target == FigureInteraction::Target::grid_cell;
}

// The label of series `s`: a grid row, or after the rows an overlay line.
std::string series_label(const FigureData& data, size_t s) {
  const auto& rows = data.panels.front().grid.rows;
  const auto& overlays = data.panels.front().overlays;
  if (s < rows.size()) return shown(rows[s].label);
  if (s - rows.size() < overlays.size()) return overlays[s - rows.size()].label;
  return "";
}

// The points a reader can hover: a circle on each drawn point, placed from gnuplot's axis ranges,
// and the data the tooltip shows for it.
struct HoverLayer {
  std::string markup;
  json points = json::array();
  json records = json::array();
};

HoverLayer hover_layer(const FigureData& data, const std::string& axes_text) {
  const auto axes = parse_axes(axes_text);
  const SvgSize size = svg_size(data);
  const bool cells = hovers_cells(data);
  HoverLayer layer;
  std::map<const Record*, size_t> record_index;
  layer.markup = "<g class=\"hover-layer\">";
  for (const HoverPoint& point : hover_points(data)) {
    const auto panel = axes.find(point.panel);
    if (panel == axes.end()) continue;
    const PanelAxes& a = panel->second;
    const auto fx = fraction(point.x, a.x_min, a.x_max, data.log_x && !cells);
    const auto fy = fraction(point.y, a.y_min, a.y_max, data.log_y && !cells);
    if (!fx || !fy || *fx < -0.01 || *fx > 1.01 || *fy < -0.01 || *fy > 1.01) continue;
    const double px = a.left + *fx * (a.right - a.left);
    const double py = size.height - (a.bottom + *fy * (a.top - a.bottom));
    const Grid& grid = data.panels[point.panel].grid;
    json entry = {{"series", point.series},
                  {"panel", data.panels[point.panel].title},
                  {"x", shown(data.declaration.type->interaction.hover_names_label
                                  ? grid.columns[point.column].label
                                  : tic_of(grid.columns[point.column]))},
                  {"value", format_number(point.cell->value, 4)}};
    if (cells) entry["y"] = shown(tic_of(grid.rows[point.series]));
    if (const Record* record = point.cell->record) {
      auto [it, added] = record_index.emplace(record, layer.records.size());
      if (added) layer.records.push_back(record_rows(*record));
      entry["record"] = it->second;
      if (!record->point_id.empty()) entry["point"] = record->point_id;  // to measure it again
    }
    layer.markup +=
        "<circle class=\"hover-target\" cx=\"" + svg_number(px) + "\" cy=\"" + svg_number(py) +
        "\" r=\"" + std::to_string(data.declaration.type->interaction.radius) + "\" data-point=\"" +
        std::to_string(layer.points.size()) + "\"" +
        (cells ? std::string() : " data-series=\"" + std::to_string(point.series) + "\"") +
        " fill=\"#000000\" fill-opacity=\"0\"/>";
    layer.points.push_back(std::move(entry));
  }
  layer.markup += "</g>";
  return layer;
}

// What the page's script reads about a figure.
json figure_json(const FigureData& data, const HoverLayer& layer) {
  json series = json::array();
  const size_t count = (hovers_cells(data) ? 0 : data.panels.front().grid.rows.size()) +
                       data.panels.front().overlays.size();
  for (size_t s = 0; s < count; ++s) series.push_back({{"label", series_label(data, s)}});
  return {{"name", data.declaration.name},
          {"type", std::string(data.declaration.type->name)},
          {"x_label", data.x_label},
          {"y_label", data.y_label},
          {"value_label", data.declaration.type->rules.value ? data.value_label : data.y_label},
          {"series", series},
          {"points", layer.points},
          {"records", layer.records}};
}

// The attributes of gnuplot's group `id` (gnuplot_plot_<clause><plot letters>): its series, or
// a key entry that shows and hides that series.
SvgAttributes plot_group_attributes(const FigureData& data,
                                    const std::vector<std::vector<SvgPlot>>& plots,
                                    const std::string& id) {
  static const std::string kPlot = "gnuplot_plot_";
  if (id.rfind(kPlot, 0) != 0) return {};
  size_t digits = kPlot.size();
  while (digits < id.size() && std::isdigit(static_cast<unsigned char>(id[digits]))) ++digits;
  if (digits == kPlot.size()) return {};
  const size_t clause = std::stoul(id.substr(kPlot.size(), digits - kPlot.size()));
  const size_t plot = plot_index(id.substr(digits));
  if (plot >= plots.size() || clause == 0 || clause > plots[plot].size()) return {};
  const SvgPlot& role = plots[plot][clause - 1];
  const std::string s = std::to_string(role.series);
  if (role.kind == SvgPlot::Kind::data) return {{"class", "series"}, {"data-series", s}};
  if (role.kind != SvgPlot::Kind::key) return {};
  return {
      {"class", "key-entry"},   {"data-series", s},
      {"role", "button"},       {"tabindex", "0"},
      {"aria-pressed", "true"}, {"aria-label", "Show or hide " + series_label(data, role.series)}};
}

}  // namespace

FigureHtml figure_html(const FigureCell& figure, const DrawnFigure& drawn, size_t index) {
  const FigureData& data = figure.data;
  const HoverLayer layer = hover_layer(data, drawn.axes);
  const auto plots = svg_plots(data);
  SvgSanitizeOptions options;
  options.id_prefix = "f" + std::to_string(index);
  options.root_attributes = {{"xmlns", "http://www.w3.org/2000/svg"},
                             {"xmlns:xlink", "http://www.w3.org/1999/xlink"},
                             {"class", "plot-svg"},
                             {"role", "img"},
                             {"aria-label", figure.caption}};
  options.annotate_group = [&](const std::string& id) {
    return plot_group_attributes(data, plots, id);
  };
  FigureHtml out;
  out.standalone =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n" + sanitize_svg(drawn.svg, options) + "\n";
  options.append = layer.markup;
  const std::string hint(data.declaration.type->interaction.hint);
  out.html = "<figure class=\"plot" + std::string(data.panels.size() > 1 ? " wide" : "") +
             "\" id=\"figure-" + html_id(data.declaration.name) +
             "\">\n<div class=\"plot-frame\">" + sanitize_svg(drawn.svg, options) +
             "<div class=\"tooltip\" role=\"tooltip\" hidden=\"hidden\"></div></div>\n" +
             figure_caption(figure, index, hint) +
             "</figure>\n<script type=\"application/json\" class=\"figure-data\">" +
             script_json(figure_json(data, layer)) + "</script>\n";
  return out;
}

}  // namespace convlab
