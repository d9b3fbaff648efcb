#include "figures/figure_data.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "core/number_text.hpp"
#include "core/point_filter.hpp"
#include "figures/versus_table.hpp"
#include "query/record_fields.hpp"
#include "query/record_queries.hpp"
#include "query/results_document.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

// The key a series or row takes for a point that lacks one of its fields (cuda_global has no
// tile): such points stay in the figure, that part of their label left out.
const char* const kMissingValue = "\u2013";

// The key of a LeadRow, which no field's text can be: it starts with a control character.
const char* const kLeadRowKey =
    "\x1f"
    "lead";

struct Grouping {
  std::vector<std::string> fields;
  // Per field: value text -> rank used for ordering.
  std::vector<std::map<std::string, double>> ranks;
};

// Text compared as a reader orders it: runs of digits by their number, so that gaussian15 comes
// before gaussian21 and both before sobel_y3.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t ei = i, ej = j;
      while (ei < a.size() && digit(a[ei])) ++ei;
      while (ej < b.size() && digit(b[ej])) ++ej;
      const std::string x = a.substr(i, ei - i), y = b.substr(j, ej - j);
      const std::string tx = x.substr(std::min(x.find_first_not_of('0'), x.size() - 1));
      const std::string ty = y.substr(std::min(y.find_first_not_of('0'), y.size() - 1));
      if (tx.size() != ty.size()) return tx.size() < ty.size();
      if (tx != ty) return tx < ty;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

// A name with its numbers left out: gaussian3 and gaussian21 are of one family, sobel_y3 of
// another.
std::string family_of(const std::string& text) {
  std::string family;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      family += c;
    else if (family.empty() || family.back() != '#')
      family += '#';
  return family;
}

// Names in the order a reader counts them: the names of one family by their numbers (gaussian3,
// gaussian15, gaussian21, whichever was measured first), the families in the order they first
// appear (the config's: gaussians before sobel_y3 when the config lists them so). A missing value
// goes last.
void order_families(std::vector<FieldValue>& values) {
  std::map<std::string, size_t> first;
  for (size_t i = 0; i < values.size(); ++i) first.emplace(family_of(values[i].text), i);
  std::stable_sort(values.begin(), values.end(), [&](const FieldValue& a, const FieldValue& b) {
    if (a.sort_key.has_value() != b.sort_key.has_value()) return b.sort_key.has_value();
    const size_t family_a = first.at(family_of(a.text)), family_b = first.at(family_of(b.text));
    if (family_a != family_b) return family_a < family_b;
    return natural_less(a.text, b.text);
  });
}

// Fields whose order is the config's: the implementations and their configurations go from the
// baseline up the ladder as the config lists them, machines and searches as they were run.
bool keeps_config_order(const std::string& field) {
  for (const char* ordered : {"implementation", "configuration", "family", "machine"})
    if (field == ordered) return true;
  return field.rfind("machine.", 0) == 0 || field.rfind("search.", 0) == 0;
}

// Ranks each field's values: by sort key when every value has one (numbers, image sizes, block
// shapes); names (kernels, images, borders, schedules) by family and number (order_families);
// implementations and configurations in order of first appearance (plan order, as the config
// lists them).
Grouping make_grouping(const std::vector<std::string>& fields,
                       const std::vector<const Record*>& records) {
  Grouping grouping{fields, {}};
  for (const auto& field : fields) {
    std::vector<FieldValue> seen;
    for (const Record* record : records) {
      auto value = field_value(*record, field);
      if (!value) value = FieldValue{false, 0.0, kMissingValue, std::numeric_limits<double>::max()};
      if (std::none_of(seen.begin(), seen.end(),
                       [&](const FieldValue& v) { return v.text == value->text; }))
        seen.push_back(*value);
    }
    const bool sortable = std::all_of(seen.begin(), seen.end(),
                                      [](const FieldValue& v) { return v.sort_key.has_value(); });
    if (!sortable && !keeps_config_order(field)) order_families(seen);
    std::map<std::string, double> rank;
    for (size_t i = 0; i < seen.size(); ++i)
      rank[seen[i].text] = sortable ? *seen[i].sort_key : static_cast<double>(i);
    grouping.ranks.push_back(rank);
  }
  return grouping;
}

std::optional<Category> category_of(const Record& record, const Grouping& grouping,
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
    // A lone parameter on an axis already named after it needs no "block" or "tile" on every tic.
    const bool bare =
        value->numeric || (grouping.fields.size() == 1 && field.rfind("params.", 0) == 0);
    const std::string tic = size   ? size->text
                            : bare ? value->text
                                   : field_value_words(field, *value);
    category.tic += (category.tic.empty() ? "" : ", ") + tic;
    category.numeric = grouping.fields.size() == 1 && value->numeric;
    category.number = value->number;
    if (field == "implementation" || field == "configuration")
      if (const auto implementation = field_value(record, "implementation"))
        category.implementation = implementation->text;
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
  const Record* record;
  double value;
  std::optional<std::pair<double, double>> quartiles;
};

// The images of a cell's points, added to `merged` when there are several: a reader of the cell
// sees one point, not that it stands for several images.
void note_merged_images(const std::vector<const Entry*>& entries,
                        std::vector<std::string>& merged) {
  std::vector<std::string> images;
  for (const Entry* entry : entries)
    if (std::find(images.begin(), images.end(), entry->record->image.name) == images.end())
      images.push_back(entry->record->image.name);
  if (images.size() < 2) return;
  for (const auto& image : images)
    if (std::find(merged.begin(), merged.end(), image) == merged.end()) merged.push_back(image);
}

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
        throw ResultsError(
            context + ": " + std::to_string(cell_entries.size()) + " points fall on '" +
            rows[r].label + "' at '" + columns[c].label + "' (they differ in " +
            differing_point_fields(*cell_entries[0]->record, *cell_entries[1]->record) +
            "); narrow it with where, split it with series or panel, or set reduce: min, max or "
            "mean");
      if (cell_entries.size() > 1) note_merged_images(cell_entries, grid.merged_images);
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
      if (chosen->record != nullptr) cell.point_id = chosen->record->point_id;
      grid.cells[r][c] = cell;
    }
  }
  grid.rows = std::move(rows);
  grid.columns = std::move(columns);
  return grid;
}

}  // namespace

Grid value_grid(const std::vector<const Record*>& records,
                const std::vector<std::string>& row_fields,
                const std::vector<std::string>& value_fields,
                const std::vector<std::string>& column_fields, bool quartiles, CellReduce reduce,
                const std::string& context, const LeadRow* lead) {
  const bool rows_are_values = value_fields.size() > 1 || row_fields.empty();
  if (lead && rows_are_values) lead = nullptr;  // documented: a lead row needs row fields
  std::vector<const Record*> every = records;
  if (lead) every.insert(every.end(), lead->records.begin(), lead->records.end());
  Grouping row_grouping = make_grouping(row_fields, records);
  const Grouping column_grouping = make_grouping(column_fields, every);
  std::vector<Category> rows, columns;
  std::vector<Entry> entries;
  for (size_t i = 0; i < every.size(); ++i) {
    const Record* record = every[i];
    const auto column = category_of(*record, column_grouping);
    if (!column) continue;
    for (size_t v = 0; v < value_fields.size(); ++v) {
      const auto value = field_value(*record, value_fields[v]);
      if (!value || !value->numeric) continue;
      std::optional<Category> row;
      if (i >= records.size()) {
        row = Category{{kLeadRowKey}, lead->label, lead->label, false, 0.0, ""};
      } else if (value_fields.size() > 1) {
        row = Category{{value_fields[v]}, stack_part_words(value_fields[v]), "", false, 0.0, ""};
      } else if (row_fields.empty()) {
        row = Category{{value_fields[v]}, field_title(value_fields[v]), "", false, 0.0, ""};
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
  // The lead row goes before every other.
  if (lead) row_grouping.ranks[0][kLeadRowKey] = -std::numeric_limits<double>::infinity();
  return assemble(rows, rows_are_values ? value_order : row_grouping, columns, column_grouping,
                  entries, reduce, context);
}

namespace {

std::vector<std::string> panel_keys_in_order(const std::vector<const Record*>& records,
                                             const Grouping& grouping,
                                             std::vector<Category>& panels) {
  std::vector<std::string> keys;
  for (const Record* record : records)
    if (const auto category = category_of(*record, grouping)) find_or_add(panels, *category);
  sort_categories(panels, grouping);
  for (const auto& panel : panels) keys.push_back(panel.label);
  return keys;
}

bool mentions(const std::vector<std::string>& fields, const std::string& field) {
  return std::find(fields.begin(), fields.end(), field) != fields.end();
}

bool spans_machines(const std::vector<const Record*>& points) {
  return field_varies(points, "machine");
}

// A figure type that draws one problem's points per panel (FigureTypeRules::panel_per_problem):
// a panel per value of each problem field the points span, unless the declaration places it.
void add_problem_panels(const std::vector<const Record*>& points, FigureDeclaration& declaration) {
  if (!declaration.type->rules.panel_per_problem) return;
  for (const char* field : {"image.name", "kernel.name", "border", "output"})
    if (field_varies(points, field) && !mentions(declaration.panel, field) &&
        !mentions(declaration.series, field) && declaration.x != field)
      declaration.panel.push_back(field);
}

}  // namespace

bool Grid::empty() const {
  for (const auto& row : cells)
    for (const auto& cell : row)
      if (cell) return false;
  return true;
}

bool Grid::row_has_values(size_t row) const {
  if (row >= cells.size()) return false;
  for (const auto& cell : cells[row])
    if (cell) return true;
  return false;
}

namespace {

// --- Labels a reader needs: no parameter that is constant in the figure or at its default -------

// The words of one parameter value, booleans as the axis itself ("streams") or its absence.
std::string param_words(const std::string& axis, const FieldValue& value) {
  if (value.text == "yes") return axis;
  if (value.text == "no") return "no " + axis;
  return field_value_words("params." + axis, value);
}

// Per implementation, the parameter axes whose value differs between the points.
std::map<std::string, std::set<std::string>> varying_params(
    const std::vector<const Record*>& points) {
  std::map<std::string, std::map<std::string, std::set<std::string>>> seen;
  for (const Record* record : points) {
    if (!record->params.is_object()) continue;
    for (const auto& [axis, value] : record->params.items())
      seen[record->implementation][axis].insert(value.dump());
  }
  std::map<std::string, std::set<std::string>> varying;
  for (const auto& [implementation, axes] : seen)
    for (const auto& [axis, values] : axes)
      if (values.size() > 1) varying[implementation].insert(axis);
  return varying;
}

// "CUDA shared memory, block 32x8, tile 32" without the parameters all points share or that sit at
// their default.
std::string configuration_label(const Record& record,
                                const std::map<std::string, std::set<std::string>>& varying) {
  std::string label = field_value_words("implementation", *field_value(record, "implementation"));
  const auto axes = varying.find(record.implementation);
  const nlohmann::json& params = record.params;
  if (axes == varying.end() || !params.is_object()) return label;
  // The axes a reader compares first lead, the rest follow alphabetically.
  std::vector<std::string> order = {"threads", "block", "tile"};
  for (const auto& [axis, value] : params.items())
    if (std::find(order.begin(), order.end(), axis) == order.end()) order.push_back(axis);
  for (const auto& axis : order) {
    if (!axes->second.count(axis) || !params.contains(axis)) continue;
    if (const auto value = field_value(record, "params." + axis))
      label += ", " + param_words(axis, *value);
  }
  return label;
}

// A category's label rebuilt from one of its records with concise configuration and parameter
// words; categories of other fields keep theirs.
std::string concise_label(const std::vector<std::string>& fields, const Record& record,
                          const std::map<std::string, std::set<std::string>>& varying) {
  std::string label;
  for (const auto& field : fields) {
    std::string words;
    const auto value = field_value(record, field);
    if (field == "configuration") {
      words = configuration_label(record, varying);
    } else if (!value) {
      continue;
    } else if (field.rfind("params.", 0) == 0 && field.find('.', 7) == std::string::npos) {
      const std::string axis = field.substr(7);
      words = param_words(axis, *value);
    } else {
      words = field_value_words(field, *value);
    }
    if (!words.empty()) label += (label.empty() ? "" : ", ") + words;
  }
  return label;
}

bool names_parameters(const std::vector<std::string>& fields) {
  return std::any_of(fields.begin(), fields.end(), [](const std::string& field) {
    return field == "configuration" || field.rfind("params.", 0) == 0;
  });
}

// Rows (or columns) of `grids` relabelled concisely, when their fields name parameters.
void relabel(std::vector<Grid*> grids, const std::vector<std::string>& fields, bool rows,
             const std::vector<const Record*>& points) {
  if (!names_parameters(fields)) return;
  const auto varying = varying_params(points);
  for (Grid* grid : grids) {
    auto& categories = rows ? grid->rows : grid->columns;
    for (size_t i = 0; i < categories.size(); ++i) {
      if (is_lead_row(categories[i])) continue;
      const Record* record = nullptr;
      for (size_t j = 0; record == nullptr && j < (rows ? grid->columns.size() : grid->rows.size());
           ++j) {
        const auto& cell = rows ? grid->cells[i][j] : grid->cells[j][i];
        if (cell) record = cell->record;
      }
      if (record != nullptr) categories[i].label = concise_label(fields, *record, varying);
    }
  }
}

// --- Panels -------------------------------------------------------------------------------------

// Every panel gets the rows of all panels, in one order, so one legend and one style per series
// serve the whole figure.
void unify_rows(std::vector<FigurePanel>& panels) {
  std::vector<Category> rows;
  for (const auto& panel : panels)
    for (const auto& row : panel.grid.rows)
      if (std::none_of(rows.begin(), rows.end(),
                       [&](const Category& known) { return known.key == row.key; }))
        rows.push_back(row);
  // Keep the panels' own order: a row missing from the first panel goes after its predecessor.
  for (auto& panel : panels) {
    Grid unified;
    unified.rows = rows;
    unified.columns = panel.grid.columns;
    unified.merged_images = panel.grid.merged_images;
    unified.cells.assign(rows.size(), std::vector<std::optional<Cell>>(panel.grid.columns.size()));
    for (size_t r = 0; r < panel.grid.rows.size(); ++r)
      for (size_t u = 0; u < rows.size(); ++u)
        if (rows[u].key == panel.grid.rows[r].key) unified.cells[u] = panel.grid.cells[r];
    panel.grid = std::move(unified);
  }
}

bool is_image_size(const std::string& field) {
  return field == "image.size" || field == "image.pixels";
}

// Image sizes lie on a logarithmic axis in megapixels, labelled with their shape.
void place_image_sizes(FigureData& data) {
  for (auto& panel : data.panels)
    for (auto& column : panel.grid.columns) {
      const size_t times = column.tic.find('x');
      if (times == std::string::npos) continue;
      const double width = std::atof(column.tic.c_str());
      const double height = std::atof(column.tic.c_str() + times + 1);
      column.numeric = true;
      column.number = width * height / 1e6;
      column.tic += ", " + format_number(column.number, 2) + " MP";
    }
  data.numeric_x = true;
  data.log_x = true;
}

std::vector<const Record*> panel_members(const std::vector<const Record*>& points,
                                         const Grouping& grouping, const Category& panel,
                                         bool has_panels) {
  if (!has_panels) return points;
  std::vector<const Record*> members;
  for (const Record* record : points) {
    const auto category = category_of(*record, grouping);
    if (category && category->key == panel.key) members.push_back(record);
  }
  return members;
}

std::optional<double> reduce_values(const std::vector<double>& values, CellReduce reduce) {
  if (values.empty()) return std::nullopt;
  if (reduce == CellReduce::max) return *std::max_element(values.begin(), values.end());
  if (reduce == CellReduce::mean)
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  return *std::min_element(values.begin(), values.end());
}

OverlayLine overlay_line(const OverlayDeclaration& overlay,
                         const std::vector<const Record*>& records, const std::string& x_field,
                         const Grid& grid, const std::string& context) {
  OverlayLine line{overlay.label, {}, false};
  if (overlay.value) {
    line.values.assign(grid.columns.size(), *overlay.value);
    return line;
  }
  const auto selected = filter_points(records, overlay.where, context + ": overlay");
  for (const auto& column : grid.columns) {
    std::vector<double> values;
    for (const Record* record : selected) {
      const auto x = field_value(*record, x_field);
      const auto y = field_value(*record, overlay.y);
      if (x && y && y->numeric && !column.key.empty() && x->text == column.key[0])
        values.push_back(y->number);
    }
    line.values.push_back(reduce_values(values, overlay.reduce));
  }
  return line;
}

// y = P for a speedup over one thread, y = 1 for an efficiency, against threads.
std::optional<OverlayLine> ideal_line(const FigureDeclaration& declaration, const Grid& grid) {
  if (declaration.x != "params.threads" || declaration.y.size() != 1) return std::nullopt;
  const std::string& y = declaration.y[0];
  if (y != "speedup_vs_threads1" && y != "efficiency") return std::nullopt;
  OverlayLine line{"Ideal scaling", {}, true};
  for (const auto& column : grid.columns)
    line.values.push_back(y == "efficiency" ? 1.0 : column.number);
  return line;
}

void add_overlays(FigureData& data, const std::vector<const Record*>& all_points,
                  const std::vector<std::vector<const Record*>>& panel_points,
                  const std::string& context) {
  for (size_t p = 0; p < data.panels.size(); ++p) {
    FigurePanel& panel = data.panels[p];
    for (const auto& overlay : data.declaration.overlays) {
      // The overlay's points are those of the panel's machine and panel fields, whatever the
      // figure's own where selects.
      std::vector<const Record*> candidates;
      for (const Record* record : all_points)
        if (panel_points[p].empty() || same_machine(*record, *panel_points[p].front()))
          candidates.push_back(record);
      panel.overlays.push_back(
          overlay_line(overlay, candidates, data.declaration.x, panel.grid, context));
    }
    if (const auto ideal = ideal_line(data.declaration, panel.grid))
      panel.overlays.push_back(*ideal);
  }
}

std::string default_y_label(const FigureDeclaration& declaration) {
  if (declaration.y.size() > 1) return "Time [ms]";
  return field_axis_label(declaration.y[0]);
}

// The ok points a declaration's `where` keeps; NoDataError when it keeps none.
std::vector<const Record*> points_where(const std::vector<const Record*>& all_points,
                                        const std::string& where, const std::string& context) {
  auto points = filter_points(all_points, where, context);
  if (points.empty())
    throw NoDataError(context + ": no ok point matches" +
                      (where.empty() ? "" : " where '" + where + "'"));
  return points;
}

}  // namespace

FigureData extract_figure(const FigureDeclaration& declared,
                          const std::vector<const Record*>& all_points,
                          const std::string& context) {
  const auto points = points_where(all_points, declared.where, context);
  // Points of several machines are never drawn against each other: one panel per machine.
  FigureDeclaration declaration = declared;
  if (spans_machines(points) && !mentions(declared.panel, "machine") &&
      !mentions(declared.series, "machine") && declared.x != "machine")
    declaration.panel.insert(declaration.panel.begin(), "machine");
  add_problem_panels(points, declaration);
  FigureData data;
  data.declaration = declaration;
  data.log_x = declaration.log_x;
  data.log_y = declaration.log_y;

  const Grouping panel_grouping = make_grouping(declaration.panel, points);
  std::vector<Category> panels;
  if (declaration.panel.empty())
    panels.push_back(Category{});
  else
    panel_keys_in_order(points, panel_grouping, panels);

  std::vector<std::vector<const Record*>> panel_points;
  for (const auto& panel : panels) {
    const auto members = panel_members(points, panel_grouping, panel, !declaration.panel.empty());
    const std::string panel_context =
        context + (panel.label.empty() ? "" : " (panel '" + panel.label + "')");
    FigurePanel figure_panel;
    figure_panel.title = panel.label;
    figure_panel.grid = declaration.type->panel_grid(declaration, members, panel_context);
    if (figure_panel.grid.empty()) continue;
    data.panels.push_back(std::move(figure_panel));
    panel_points.push_back(members);
  }
  if (data.panels.empty())
    throw NoDataError(context + ": the " + std::to_string(points.size()) +
                      " matching points have no value for '" +
                      (declaration.type->rules.value ? declaration.value : declaration.y[0]) + "'");
  unify_rows(data.panels);
  std::vector<Grid*> grids;
  for (auto& panel : data.panels) grids.push_back(&panel.grid);
  relabel(grids, declaration.type->rules.value ? declaration.y : declaration.series, true, points);

  data.numeric_x = declaration.type->rules.numeric_x;
  for (const auto& panel : data.panels)
    for (const auto& column : panel.grid.columns) data.numeric_x &= column.numeric;
  if (declaration.type->rules.numeric_x && is_image_size(declaration.x)) place_image_sizes(data);
  if (declaration.type->rules.overlays) add_overlays(data, all_points, panel_points, context);
  for (const auto& panel : data.panels)
    for (const auto& image : panel.grid.merged_images)
      if (std::find(data.merged_images.begin(), data.merged_images.end(), image) ==
          data.merged_images.end())
        data.merged_images.push_back(image);

  data.x_label = !declaration.x_label.empty()                     ? declaration.x_label
                 : data.numeric_x && is_image_size(declaration.x) ? "Image size [Mpixel]"
                                                                  : field_axis_label(declaration.x);
  data.y_label = declaration.y_label.empty() ? default_y_label(declaration) : declaration.y_label;
  if (declaration.type->rules.value) data.value_label = field_axis_label(declaration.value);
  return data;
}

TableData extract_table(const TableDeclaration& declared,
                        const std::vector<const Record*>& all_points, const std::string& context) {
  const auto points = points_where(all_points, declared.where, context);
  if (!declared.vs.empty()) return versus_table_data(declared, points, context);
  // Points of several machines are never put side by side unlabelled: the machine leads the
  // column headers (so a table of each machine's own implementations has no empty cells).
  TableDeclaration declaration = declared;
  if (spans_machines(points) && !mentions(declared.rows, "machine") &&
      !mentions(declared.columns, "machine"))
    declaration.columns.insert(declaration.columns.begin(), "machine");
  TableData data;
  data.declaration = declaration;
  data.grid = value_grid(points, declaration.rows, {declaration.value}, declaration.columns, false,
                         declaration.reduce, context);
  if (data.grid.empty())
    throw NoDataError(context + ": the matching points have no value for '" + declaration.value +
                      "'");
  relabel({&data.grid}, declaration.rows, true, points);
  relabel({&data.grid}, declaration.columns, false, points);
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

namespace {

// "Each point is the <how> over 3 images (a, b and c), which it does not tell apart."
std::string images_reduced_words(const std::vector<std::string>& images, const std::string& how,
                                 const std::string& what) {
  const size_t shown = std::min<size_t>(images.size(), 4);
  std::string names;
  for (size_t i = 0; i < shown; ++i)
    names += (i == 0 ? "" : i + 1 == images.size() ? " and " : ", ") + images[i];
  if (shown < images.size()) names += " and " + std::to_string(images.size() - shown) + " more";
  return "Each " + what + " is the " + how + " over " + std::to_string(images.size()) +
         " images (" + names + "), which it does not tell apart.";
}

}  // namespace

std::string merged_images_words(const std::vector<std::string>& images, CellReduce reduce,
                                const std::string& what) {
  if (images.empty()) return "";
  static const char* const kReduce[] = {"single", "min", "max", "mean"};
  return images_reduced_words(images, kReduce[static_cast<int>(reduce)], what);
}

std::string merged_images_words(const FigureData& figure) {
  const FigureDeclaration& declaration = figure.declaration;
  if (figure.merged_images.empty() || !declaration.best || declaration.reduce != CellReduce::single)
    return merged_images_words(figure.merged_images, declaration.reduce, "point");
  return images_reduced_words(figure.merged_images, "fastest", "point");
}

bool is_lead_row(const Category& row) {
  return row.key.size() == 1 && row.key[0] == kLeadRowKey;
}

std::string TableData::cell_text(size_t column, const Cell& cell) const {
  return cell.words.empty() ? value_text(column, cell.value) : cell.words;
}

std::string TableData::value_text(size_t column, double value) const {
  if (column < count_columns.size() && count_columns[column]) return format_fixed(value, 0);
  return format_number(value, declaration.digits);
}

Category text_category(const std::string& label) {
  Category category;
  category.key = {label};
  category.label = label;
  category.tic = label;
  return category;
}

}  // namespace convlab
