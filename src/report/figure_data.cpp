#include "report/figure_data.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "plan/point_filter.hpp"
#include "report/record_fields.hpp"
#include "results/machine.hpp"

namespace convlab {
namespace {

using nlohmann::json;

// Fields that together define a point, in the order messages name them.
const std::vector<std::string> kDefinitionFields = {
    "implementation", "params",      "image.name",  "image.width", "image.height",
    "image.channels", "kernel.name", "kernel.size", "border",      "output"};

std::string definition_part(const json& record, const std::string& field) {
  if (field == "params") return record.contains("params") ? record["params"].dump() : "{}";
  const auto value = field_value(record, field);
  return value ? value->text : "";
}

// The key a series or row takes for a point that lacks one of its fields (cuda_global has no
// tile): such points stay in the figure, that part of their label left out.
const char* const kMissingValue = "\u2013";

struct Grouping {
  std::vector<std::string> fields;
  // Per field: value text -> rank used for ordering.
  std::vector<std::map<std::string, double>> ranks;
};

// Ranks each field's values: by sort key when every value has one (numbers, image sizes, block
// shapes), otherwise in order of first appearance (plan order, as the config lists them).
Grouping make_grouping(const std::vector<std::string>& fields,
                       const std::vector<const json*>& records) {
  Grouping grouping{fields, {}};
  for (const auto& field : fields) {
    std::vector<FieldValue> seen;
    for (const json* record : records) {
      auto value = field_value(*record, field);
      if (!value) value = FieldValue{false, 0.0, kMissingValue, std::numeric_limits<double>::max()};
      if (std::none_of(seen.begin(), seen.end(),
                       [&](const FieldValue& v) { return v.text == value->text; }))
        seen.push_back(*value);
    }
    const bool sortable = std::all_of(seen.begin(), seen.end(),
                                      [](const FieldValue& v) { return v.sort_key.has_value(); });
    std::map<std::string, double> rank;
    for (size_t i = 0; i < seen.size(); ++i)
      rank[seen[i].text] = sortable ? *seen[i].sort_key : static_cast<double>(i);
    grouping.ranks.push_back(rank);
  }
  return grouping;
}

std::optional<Category> category_of(const json& record, const Grouping& grouping,
                                    bool missing_allowed = false) {
  Category category;
  for (const auto& field : grouping.fields) {
    const auto value = field_value(record, field);
    if (!value && missing_allowed) {
      category.key.push_back(kMissingValue);
      continue;
    }
    if (!value) return std::nullopt;
    category.key.push_back(value->text);
    category.label += (category.label.empty() ? "" : ", ") + field_value_words(field, *value);
    // A pixel count reads better as the image's shape.
    const auto size = field == "image.pixels" ? field_value(record, "image.size") : std::nullopt;
    const std::string tic = size             ? size->text
                            : value->numeric ? value->text
                                             : field_value_words(field, *value);
    category.tic += (category.tic.empty() ? "" : ", ") + tic;
    category.numeric = grouping.fields.size() == 1 && value->numeric;
    category.number = value->number;
  }
  return category;
}

void sort_categories(std::vector<Category>& categories, const Grouping& grouping) {
  const auto ranks_of = [&](const Category& category) {
    std::vector<double> ranks;
    for (size_t i = 0; i < category.key.size(); ++i)
      ranks.push_back(grouping.ranks[i].at(category.key[i]));
    return ranks;
  };
  std::stable_sort(categories.begin(), categories.end(),
                   [&](const Category& a, const Category& b) { return ranks_of(a) < ranks_of(b); });
}

size_t find_or_add(std::vector<Category>& categories, const Category& category) {
  for (size_t i = 0; i < categories.size(); ++i)
    if (categories[i].key == category.key) return i;
  categories.push_back(category);
  return categories.size() - 1;
}

// The fields of the point definition in which two records differ, for "several points" errors.
std::string differing_fields(const json& a, const json& b) {
  std::string fields;
  for (const auto& field : kDefinitionFields)
    if (definition_part(a, field) != definition_part(b, field))
      fields += (fields.empty() ? "" : ", ") + field;
  return fields.empty() ? "nothing" : fields;
}

// Legend words for the parts of a stacked bar: what the time was spent on.
std::string stack_part_words(const std::string& field) {
  if (field == "median_ms") return "Computation (timed region)";
  if (field == "h2d_ms") return "Host-to-device copy";
  if (field == "d2h_ms") return "Device-to-host copy";
  std::string title = field_title(field);
  const size_t unit = title.find(" [");
  return unit == std::string::npos ? title : title.substr(0, unit);
}

struct Entry {
  size_t row;
  size_t column;
  const json* record;
  double value;
  std::optional<std::pair<double, double>> quartiles;
};

// Places entries into a grid, reducing cells with several points as the declaration says.
Grid assemble(std::vector<Category> rows, const Grouping& row_grouping,
              std::vector<Category> columns, const Grouping& column_grouping,
              const std::vector<Entry>& entries, CellReduce reduce, const std::string& context) {
  std::vector<size_t> row_order(rows.size()), column_order(columns.size());
  {
    std::vector<Category> sorted_rows = rows, sorted_columns = columns;
    sort_categories(sorted_rows, row_grouping);
    sort_categories(sorted_columns, column_grouping);
    for (size_t i = 0; i < rows.size(); ++i) row_order[i] = find_or_add(sorted_rows, rows[i]);
    for (size_t i = 0; i < columns.size(); ++i)
      column_order[i] = find_or_add(sorted_columns, columns[i]);
    rows = std::move(sorted_rows);
    columns = std::move(sorted_columns);
  }
  Grid grid;
  grid.cells.assign(rows.size(), std::vector<std::optional<Cell>>(columns.size()));
  std::vector<std::vector<std::vector<const Entry*>>> members(
      rows.size(), std::vector<std::vector<const Entry*>>(columns.size()));
  for (const Entry& entry : entries)
    members[row_order[entry.row]][column_order[entry.column]].push_back(&entry);
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t c = 0; c < columns.size(); ++c) {
      const auto& cell_entries = members[r][c];
      if (cell_entries.empty()) continue;
      if (cell_entries.size() > 1 && reduce == CellReduce::single)
        throw ExportError(
            context + ": " + std::to_string(cell_entries.size()) + " points fall on '" +
            rows[r].label + "' at '" + columns[c].label + "' (they differ in " +
            differing_fields(*cell_entries[0]->record, *cell_entries[1]->record) +
            "); narrow it with where, split it with series or panel, or set reduce: min, max or "
            "mean");
      const Entry* chosen = cell_entries[0];
      Cell cell;
      if (reduce == CellReduce::mean) {
        double sum = 0;
        for (const Entry* e : cell_entries) sum += e->value;
        cell.value = sum / static_cast<double>(cell_entries.size());
      } else {
        for (const Entry* e : cell_entries)
          if ((reduce == CellReduce::min && e->value < chosen->value) ||
              (reduce == CellReduce::max && e->value > chosen->value))
            chosen = e;
        cell.value = chosen->value;
      }
      if (chosen->quartiles && reduce != CellReduce::mean) {
        cell.low = chosen->quartiles->first;
        cell.high = chosen->quartiles->second;
      }
      cell.record = chosen->record;
      grid.cells[r][c] = cell;
    }
  }
  grid.rows = std::move(rows);
  grid.columns = std::move(columns);
  return grid;
}

// Grid of `value_fields` (one row per value field, e.g. the parts of a stacked bar) or of a single
// value grouped by row fields, against column fields.
Grid build_grid(const std::vector<const json*>& records, const std::vector<std::string>& row_fields,
                const std::vector<std::string>& value_fields,
                const std::vector<std::string>& column_fields, bool quartiles, CellReduce reduce,
                const std::string& context) {
  const Grouping row_grouping = make_grouping(row_fields, records);
  const Grouping column_grouping = make_grouping(column_fields, records);
  std::vector<Category> rows, columns;
  std::vector<Entry> entries;
  for (const json* record : records) {
    const auto column = category_of(*record, column_grouping);
    if (!column) continue;
    for (size_t v = 0; v < value_fields.size(); ++v) {
      const auto value = field_value(*record, value_fields[v]);
      if (!value || !value->numeric) continue;
      std::optional<Category> row;
      if (value_fields.size() > 1) {
        row = Category{{value_fields[v]}, stack_part_words(value_fields[v]), "", false, 0.0};
      } else if (row_fields.empty()) {
        row = Category{{value_fields[v]}, field_title(value_fields[v]), "", false, 0.0};
      } else {
        row = category_of(*record, row_grouping, true);
      }
      if (!row) continue;
      Entry entry{find_or_add(rows, *row), find_or_add(columns, *column), record, value->number,
                  quartiles ? field_quartiles(*record, value_fields[v]) : std::nullopt};
      entries.push_back(entry);
    }
  }
  // Stack parts keep the declared order; make_grouping over no fields would rank nothing.
  Grouping value_order{{"value"}, {{}}};
  for (size_t v = 0; v < value_fields.size(); ++v) value_order.ranks[0][value_fields[v]] = v;
  const bool rows_are_values = value_fields.size() > 1 || row_fields.empty();
  return assemble(rows, rows_are_values ? value_order : row_grouping, columns, column_grouping,
                  entries, reduce, context);
}

std::vector<std::string> panel_keys_in_order(const std::vector<const json*>& records,
                                             const Grouping& grouping,
                                             std::vector<Category>& panels) {
  std::vector<std::string> keys;
  for (const json* record : records)
    if (const auto category = category_of(*record, grouping)) find_or_add(panels, *category);
  sort_categories(panels, grouping);
  for (const auto& panel : panels) keys.push_back(panel.label);
  return keys;
}

bool mentions(const std::vector<std::string>& fields, const std::string& field) {
  return std::find(fields.begin(), fields.end(), field) != fields.end();
}

bool spans_machines(const std::vector<const json*>& points) {
  std::set<std::string> machines;
  for (const json* record : points)
    if (const auto machine = field_value(*record, "machine")) machines.insert(machine->text);
  return machines.size() > 1;
}

}  // namespace

bool Grid::empty() const {
  for (const auto& row : cells)
    for (const auto& cell : row)
      if (cell) return false;
  return true;
}

std::string point_definition(const json& record) {
  std::string definition;
  for (const auto& field : kDefinitionFields) definition += definition_part(record, field) + "\x1f";
  return definition;
}

std::string describe_point(const json& record) {
  std::string text = definition_part(record, "configuration");
  text += " | " + definition_part(record, "image.name") + " (" +
          definition_part(record, "image.size") + ", " + definition_part(record, "image.channels") +
          " ch) | " + definition_part(record, "kernel.name") + " | " +
          definition_part(record, "border") + " | " + definition_part(record, "output");
  return text;
}

std::vector<const json*> latest_ok_points(const json& results) {
  std::map<std::string, size_t> run_order;
  if (results.contains("runs") && results["runs"].is_array())
    for (size_t i = 0; i < results["runs"].size(); ++i)
      run_order[results["runs"][i].value("id", std::string())] = i;
  std::vector<const json*> points;
  std::map<std::string, size_t> position_of_definition;
  if (!results.contains("records") || !results["records"].is_array()) return points;
  for (const json& record : results["records"]) {
    if (record.value("status", std::string()) != "ok") continue;
    // The same point measured on two machines is two points.
    const std::string definition = point_definition(record) + machine_key(record);
    const auto existing = position_of_definition.find(definition);
    if (existing == position_of_definition.end()) {
      position_of_definition[definition] = points.size();
      points.push_back(&record);
      continue;
    }
    const auto order = [&](const json* r) {
      const auto it = run_order.find(r->value("run_id", std::string()));
      return it == run_order.end() ? size_t{0} : it->second;
    };
    if (order(&record) >= order(points[existing->second])) points[existing->second] = &record;
  }
  return points;
}

std::vector<const json*> filter_points(const std::vector<const json*>& points,
                                       const std::string& expression, const std::string& context) {
  if (expression.empty()) return points;
  std::string error;
  const auto filter = parse_point_filter(expression, &error);
  if (!filter) throw ExportError(context + ": invalid point filter '" + expression + "': " + error);
  std::vector<const json*> kept;
  for (const json* record : points)
    if (matches(*filter, *record)) kept.push_back(record);
  return kept;
}

FigureData extract_figure(const FigureDeclaration& declared,
                          const std::vector<const json*>& all_points, const std::string& context) {
  const auto points = filter_points(all_points, declared.where, context);
  if (points.empty())
    throw NoDataError(context + ": no ok point matches" +
                      (declared.where.empty() ? "" : " where '" + declared.where + "'"));
  // Points of several machines are never drawn against each other: one panel per machine.
  FigureDeclaration declaration = declared;
  if (spans_machines(points) && !mentions(declared.panel, "machine") &&
      !mentions(declared.series, "machine") && declared.x != "machine")
    declaration.panel.insert(declaration.panel.begin(), "machine");
  FigureData data;
  data.declaration = declaration;

  const Grouping panel_grouping = make_grouping(declaration.panel, points);
  std::vector<Category> panels;
  if (declaration.panel.empty())
    panels.push_back(Category{});
  else
    panel_keys_in_order(points, panel_grouping, panels);

  const bool heatmap = declaration.type == FigureType::heatmap;
  for (const auto& panel : panels) {
    std::vector<const json*> members;
    for (const json* record : points) {
      if (declaration.panel.empty()) {
        members.push_back(record);
        continue;
      }
      const auto category = category_of(*record, panel_grouping);
      if (category && category->key == panel.key) members.push_back(record);
    }
    const std::string panel_context =
        context + (panel.label.empty() ? "" : " (panel '" + panel.label + "')");
    FigurePanel figure_panel;
    figure_panel.title = panel.label;
    if (heatmap)
      figure_panel.grid = build_grid(members, {declaration.y[0]}, {declaration.value},
                                     {declaration.x}, false, declaration.reduce, panel_context);
    else
      figure_panel.grid = build_grid(members, declaration.series, declaration.y, {declaration.x},
                                     declaration.error_bars, declaration.reduce, panel_context);
    if (figure_panel.grid.empty()) continue;
    data.panels.push_back(std::move(figure_panel));
  }
  if (data.panels.empty())
    throw NoDataError(context + ": the " + std::to_string(points.size()) +
                      " matching points have no value for '" +
                      (heatmap ? declaration.value : declaration.y[0]) + "'");

  data.numeric_x = declaration.type == FigureType::line;
  for (const auto& panel : data.panels)
    for (const auto& column : panel.grid.columns) data.numeric_x &= column.numeric;
  data.x_label =
      declaration.x_label.empty() ? field_axis_label(declaration.x) : declaration.x_label;
  if (!declaration.y_label.empty())
    data.y_label = declaration.y_label;
  else if (declaration.type == FigureType::stacked)
    data.y_label = "Time [ms]";
  else
    data.y_label = field_axis_label(declaration.y[0]);
  if (heatmap) data.value_label = field_axis_label(declaration.value);
  return data;
}

TableData extract_table(const TableDeclaration& declared,
                        const std::vector<const json*>& all_points, const std::string& context) {
  const auto points = filter_points(all_points, declared.where, context);
  if (points.empty())
    throw NoDataError(context + ": no ok point matches" +
                      (declared.where.empty() ? "" : " where '" + declared.where + "'"));
  // Points of several machines are never put side by side unlabelled: the machine leads the
  // column headers (so a table of each machine's own implementations has no empty cells).
  TableDeclaration declaration = declared;
  if (spans_machines(points) && !mentions(declared.rows, "machine") &&
      !mentions(declared.columns, "machine"))
    declaration.columns.insert(declaration.columns.begin(), "machine");
  TableData data;
  data.declaration = declaration;
  data.grid = build_grid(points, declaration.rows, {declaration.value}, declaration.columns, false,
                         declaration.reduce, context);
  if (data.grid.empty())
    throw NoDataError(context + ": the matching points have no value for '" + declaration.value +
                      "'");
  const auto titles = [](const std::vector<std::string>& fields) {
    std::string text;
    for (const auto& field : fields) text += (text.empty() ? "" : ", ") + field_title(field);
    return text;
  };
  data.row_header = titles(declaration.rows);
  data.column_header = titles(declaration.columns);
  data.value_label = field_axis_label(declaration.value);
  return data;
}

}  // namespace convlab
