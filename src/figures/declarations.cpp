#include "figures/declarations.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>

#include "config/yaml_read.hpp"
#include "core/point_filter.hpp"
#include "figures/declaration_keys.hpp"
#include "query/record_fields.hpp"

namespace convlab {
namespace {

using nlohmann::json;

std::string quoted_list(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

void reject_unknown_keys(const YAML::Node& map, const YamlLocation& where,
                         const std::vector<std::string>& allowed) {
  for (const auto& entry : map) {
    const std::string key = entry.first.as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    const std::string suggestion = closest_name(key, allowed);
    where.child(key).fail(entry.first,
                          "unknown key " + quoted_value(key) +
                              (suggestion.empty() ? "" : " (did you mean '" + suggestion + "'?)") +
                              "; allowed: " + quoted_list(allowed));
  }
}

std::string scalar(const YAML::Node& node, const YamlLocation& where) {
  if (!node.IsScalar()) where.fail(node, "expected a single value");
  return node.Scalar();
}

std::string field_name(const YAML::Node& node, const YamlLocation& where) {
  const std::string field = scalar(node, where);
  std::string suggestion;
  if (!is_known_field(field, &suggestion))
    where.fail(node, "unknown field " + quoted_value(field) +
                         (suggestion.empty() ? "" : " (did you mean '" + suggestion + "'?)") +
                         "; docs/report.md lists the fields");
  return field;
}

// A field or a list of fields, as series and panel take.
std::vector<std::string> field_names(const YAML::Node& node, const YamlLocation& where) {
  std::vector<std::string> fields;
  if (node.IsSequence()) {
    if (node.size() == 0) where.fail(node, "expected at least one field");
    for (size_t i = 0; i < node.size(); ++i) fields.push_back(field_name(node[i], where.index(i)));
  } else {
    fields.push_back(field_name(node, where));
  }
  return fields;
}

// A name or a list of names that are not record fields (experiment names).
std::vector<std::string> field_free_names(const YAML::Node& node, const YamlLocation& where) {
  std::vector<std::string> names;
  if (!node.IsSequence()) return {scalar(node, where)};
  if (node.size() == 0) where.fail(node, "expected at least one name");
  for (size_t i = 0; i < node.size(); ++i) names.push_back(scalar(node[i], where.index(i)));
  return names;
}

bool mentions_field(const std::vector<std::string>& fields, const std::string& field) {
  return std::find(fields.begin(), fields.end(), field) != fields.end();
}

bool boolean(const YAML::Node& node, const YamlLocation& where) {
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value))
    where.fail(node, "expected true or false");
  return value;
}

std::string stem_name(const YAML::Node& node, const YamlLocation& where) {
  const std::string name = scalar(node, where);
  const bool valid = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
  if (!valid)
    where.fail(node, quoted_value(name) + " is not a file name: use letters, digits, - and _");
  return name;
}

CellReduce parse_reduce(const YAML::Node& node, const YamlLocation& where) {
  const std::string text = scalar(node, where);
  const auto& names = cell_reduce_names();
  const auto found = std::find(names.begin(), names.end(), text);
  if (found != names.end()) return static_cast<CellReduce>(found - names.begin());
  where.fail(node,
             "unknown reduce " + quoted_value(text) + " (allowed: " + quoted_list(names) + ")");
}

std::string parse_where(const YAML::Node& node, const YamlLocation& where) {
  std::string expression;
  if (node.IsMap()) {
    std::vector<std::pair<std::string, std::vector<std::string>>> clauses;
    for (const auto& entry : node) {
      const YamlLocation at = where.child(entry.first.Scalar());
      const std::string field = field_name(entry.first, at);
      std::vector<std::string> values;
      if (entry.second.IsSequence()) {
        for (size_t i = 0; i < entry.second.size(); ++i)
          values.push_back(scalar(entry.second[i], at.index(i)));
        if (values.empty()) at.fail(entry.second, "expected at least one value");
      } else {
        values.push_back(scalar(entry.second, at));
      }
      clauses.emplace_back(field, values);
    }
    expression = where_map_to_expression(clauses);
  } else {
    expression = scalar(node, where);
  }
  std::string error;
  if (!parse_point_filter(expression, &error))
    where.fail(node, "invalid point filter " + quoted_value(expression) + ": " + error);
  return expression;
}

void parse_log(const YAML::Node& node, const YamlLocation& where, FigureDeclaration& figure) {
  std::vector<std::string> axes;
  if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) axes.push_back(scalar(node[i], where.index(i)));
  } else {
    const std::string text = scalar(node, where);
    if (text == "xy")
      axes = {"x", "y"};
    else if (text != "none")
      axes = {text};
  }
  for (const auto& axis : axes) {
    if (axis == "x")
      figure.log_x = true;
    else if (axis == "y")
      figure.log_y = true;
    else
      where.fail(node, "log takes x, y, xy, none or a list of x and y; got " + quoted_value(axis));
  }
}

const FigureTypeDescriptor* parse_figure_type(const YAML::Node& node, const YamlLocation& where) {
  const std::string text = scalar(node, where);
  const FigureTypeDescriptor* type = find_figure_type(text);
  if (type && type->rules.declarable) return type;
  if (type)
    where.fail(node, "figure type " + quoted_value(text) +
                         " is drawn by convlab from a history folder (docs/history.md), not "
                         "declared in a config (allowed: " +
                         figure_type_names() + ")");
  where.fail(node, "unknown figure type " + quoted_value(text) +
                       " (allowed: " + figure_type_names() + ")");
}

std::string default_title(const std::string& y, const std::string& x) {
  std::string title = field_title(y);
  const size_t unit = title.find(" [");
  if (unit != std::string::npos) title.resize(unit);
  std::string against = field_title(x);
  const size_t x_unit = against.find(" [");
  if (x_unit != std::string::npos) against.resize(x_unit);
  for (auto& c : against) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return title + " by " + against;
}

std::string type_words(const FigureDeclaration& figure) {
  return "type: " + std::string(figure.type->name);
}

void parse_y(const YAML::Node& node, const YamlLocation& where, FigureDeclaration& figure) {
  const YAML::Node y = node["y"];
  if (!y && !figure.type->rules.default_y.empty()) {
    figure.y = {std::string(figure.type->rules.default_y)};
    return;
  }
  if (!y) where.fail(node, "missing key 'y'");
  if (!y.IsSequence()) {
    figure.y = {field_name(y, where.child("y"))};
    return;
  }
  if (!figure.type->rules.y_list)
    where.child("y").fail(
        y, "a list of y fields is for type: " + figure_type_names(&FigureTypeRules::y_list, "or") +
               " (the parts of each bar)");
  figure.y = field_names(y, where.child("y"));
}

void parse_value(const YAML::Node& node, const YamlLocation& where, FigureDeclaration& figure) {
  if (figure.type->rules.value) {
    if (!node["value"])
      where.fail(node, "a " + std::string(figure.type->name) +
                           " needs 'value' (the field shown as colour), e.g. value: median_ms");
    figure.value = field_name(node["value"], where.child("value"));
  } else if (node["value"]) {
    where.child("value").fail(
        node["value"],
        "'value' is for type: " + figure_type_names(&FigureTypeRules::value, "or") + "; use y");
  }
}

void parse_axes(const YAML::Node& node, const YamlLocation& where, FigureDeclaration& figure) {
  const FigureTypeRules& rules = figure.type->rules;
  if (!node["log"]) return;
  parse_log(node["log"], where.child("log"), figure);
  if (!rules.log_y && (figure.log_x || figure.log_y))
    where.child("log").fail(node["log"],
                            "a " + std::string(figure.type->name) + " has no logarithmic axes");
  if (!rules.log_x && figure.log_x)
    where.child("log").fail(node["log"], "a logarithmic x axis needs type: line");
}

void parse_error_bars(const YAML::Node& node, const YamlLocation& where,
                      FigureDeclaration& figure) {
  if (!node["error_bars"]) return;
  const YamlLocation at = where.child("error_bars");
  figure.error_bars = boolean(node["error_bars"], at);
  if (!figure.error_bars) return;
  if (!figure.type->rules.error_bars)
    at.fail(node["error_bars"],
            "error bars need type: " + figure_type_names(&FigureTypeRules::error_bars, "or"));
  if (!field_has_quartiles(figure.y[0]))
    at.fail(node["error_bars"],
            "error bars (q1..q3) exist for median_ms, h2d_ms, d2h_ms and end_to_end_ms, not for '" +
                figure.y[0] + "'");
}

// An overlay draws a field of some points (y, where, reduce) or one number at every x (value).
OverlayDeclaration parse_overlay(const YAML::Node& node, const YamlLocation& where) {
  if (!node.IsMap()) where.fail(node, "an overlay is a map with label, and y and where or value");
  reject_unknown_keys(node, where, key_names(overlay_keys()));
  if (!node["label"]) where.fail(node, "missing key 'label'");
  OverlayDeclaration overlay;
  overlay.label = scalar(node["label"], where.child("label"));
  if (node["value"]) {
    for (const char* drawn : {"y", "where", "reduce"})
      if (node[drawn])
        where.child(drawn).fail(node[drawn], std::string("an overlay with value is that number at "
                                                         "every x; it draws no field, so no ") +
                                                 drawn);
    overlay.value = read_number(node["value"], where.child("value"));
    return overlay;
  }
  if (!node["y"]) where.fail(node, "missing key 'y' (the field drawn) or 'value' (a number)");
  overlay.y = field_name(node["y"], where.child("y"));
  if (node["where"]) overlay.where = parse_where(node["where"], where.child("where"));
  if (node["reduce"]) overlay.reduce = parse_reduce(node["reduce"], where.child("reduce"));
  return overlay;
}

void parse_overlays(const YAML::Node& node, const YamlLocation& where, FigureDeclaration& figure) {
  const YAML::Node list = node["overlay"];
  if (!list) return;
  const YamlLocation at = where.child("overlay");
  if (!figure.type->rules.overlays)
    at.fail(list,
            "overlays are drawn on type: " + figure_type_names(&FigureTypeRules::overlays, "or") +
                ", not on " + type_words(figure));
  if (!list.IsSequence()) at.fail(list, "expected a list of overlays");
  for (size_t i = 0; i < list.size(); ++i)
    figure.overlays.push_back(parse_overlay(list[i], at.index(i)));
}

// best: true, or {label, except}: the fastest point per x as one series. The implementations of
// except keep the figure's series (implementation when it names none); those series may not part
// machines, since the fastest of one machine is never set against another's.
void parse_best(const YAML::Node& node, const YamlLocation& where, FigureDeclaration& figure) {
  const YAML::Node best = node["best"];
  if (!best) return;
  const YamlLocation at = where.child("best");
  if (!figure.type->rules.best)
    at.fail(best, "best is for type: " + figure_type_names(&FigureTypeRules::best, "or") +
                      ", not for " + type_words(figure));
  BestDeclaration declaration;
  if (best.IsMap()) {
    reject_unknown_keys(best, at, key_names(best_keys()));
    if (best["label"]) declaration.label = scalar(best["label"], at.child("label"));
    if (declaration.label.empty()) at.child("label").fail(best["label"], "expected a label");
    if (best["except"]) declaration.except = field_free_names(best["except"], at.child("except"));
  } else if (!boolean(best, at)) {
    return;
  }
  if (mentions_field(figure.series, "machine"))
    where.child("series").fail(node["series"],
                               "with best, series parts the implementations of best.except, and "
                               "never machines: the fastest of one machine is not set against "
                               "another's (leave machine to panel)");
  if (figure.series.empty()) figure.series = {"implementation"};
  figure.best = declaration;
}

FigureDeclaration parse_figure(const YAML::Node& node, const YamlLocation& where, size_t index,
                               bool summary) {
  if (!node.IsMap()) where.fail(node, "a figure is a map with at least x and y");
  std::vector<std::string> allowed = key_names(figure_keys());
  if (summary) allowed.emplace_back("from");
  reject_unknown_keys(node, where, allowed);
  FigureDeclaration figure;
  figure.name = node["name"] ? stem_name(node["name"], where.child("name"))
                             : "figure-" + std::to_string(index + 1);
  if (node["type"]) figure.type = parse_figure_type(node["type"], where.child("type"));
  const FigureTypeRules& rules = figure.type->rules;
  if (!node["x"] && rules.default_x.empty())
    where.fail(node, "missing key 'x' (the field along the horizontal axis)");
  figure.x = node["x"] ? field_name(node["x"], where.child("x")) : std::string(rules.default_x);
  parse_y(node, where, figure);
  parse_value(node, where, figure);
  if (node["series"]) {
    if (!figure.type->rules.series)
      where.child("series").fail(node["series"], type_words(figure) + " takes no series");
    figure.series = field_names(node["series"], where.child("series"));
  } else if (!rules.default_series.empty()) {
    figure.series = {std::string(rules.default_series)};
  }
  if (node["panel"]) figure.panel = field_names(node["panel"], where.child("panel"));
  if (node["where"]) figure.where = parse_where(node["where"], where.child("where"));
  parse_axes(node, where, figure);
  parse_error_bars(node, where, figure);
  if (node["x_label"]) figure.x_label = scalar(node["x_label"], where.child("x_label"));
  if (node["y_label"]) figure.y_label = scalar(node["y_label"], where.child("y_label"));
  if (node["reduce"]) figure.reduce = parse_reduce(node["reduce"], where.child("reduce"));
  parse_overlays(node, where, figure);
  parse_best(node, where, figure);
  if (summary) {
    if (!node["from"]) where.fail(node, "missing key 'from' (the experiments it draws)");
    figure.from = field_free_names(node["from"], where.child("from"));
  }
  figure.title =
      node["title"]
          ? scalar(node["title"], where.child("title"))
          : default_title(figure.type->rules.value ? figure.value : figure.y[0], figure.x);
  return figure;
}

// vs: an implementation every other one is compared with; its rows and columns are its own.
void parse_versus(const YAML::Node& node, const YamlLocation& where, TableDeclaration& table) {
  table.vs = scalar(node["vs"], where.child("vs"));
  if (table.vs.empty()) where.child("vs").fail(node["vs"], "name an implementation");
  for (const char* made : {"rows", "columns", "value", "reduce"})
    if (node[made])
      where.child(made).fail(node[made],
                             "a table with vs makes its own rows (problems, or the values of by), "
                             "columns (implementations) and cells (ratio and verdict)");
  if (node["by"]) table.by = field_name(node["by"], where.child("by"));
}

TableDeclaration parse_table(const YAML::Node& node, const YamlLocation& where, size_t index) {
  if (!node.IsMap()) where.fail(node, "a table is a map with rows, columns and value, or vs");
  reject_unknown_keys(node, where, key_names(table_keys()));
  TableDeclaration table;
  table.name = node["name"] ? stem_name(node["name"], where.child("name"))
                            : "table-" + std::to_string(index + 1);
  if (node["vs"]) {
    parse_versus(node, where, table);
    if (node["where"]) table.where = parse_where(node["where"], where.child("where"));
    table.title = node["title"] ? scalar(node["title"], where.child("title"))
                                : "Every implementation against " + table.vs;
    return table;
  }
  if (node["by"]) where.child("by").fail(node["by"], "by is the rows of a table with vs");
  for (const char* required : {"rows", "columns", "value"})
    if (!node[required]) where.fail(node, std::string("missing key '") + required + "'");
  table.rows = field_names(node["rows"], where.child("rows"));
  table.columns = field_names(node["columns"], where.child("columns"));
  table.value = field_name(node["value"], where.child("value"));
  if (node["where"]) table.where = parse_where(node["where"], where.child("where"));
  if (node["digits"]) {
    const YamlLocation at = where.child("digits");
    try {
      table.digits = node["digits"].as<int>();
    } catch (const YAML::Exception&) {
      at.fail(node["digits"], "expected a whole number of significant digits");
    }
    if (table.digits < 1 || table.digits > 17) at.fail(node["digits"], "expected 1 to 17");
  }
  if (node["reduce"]) table.reduce = parse_reduce(node["reduce"], where.child("reduce"));
  table.title = node["title"] ? scalar(node["title"], where.child("title"))
                              : default_title(table.value, table.columns[0]);
  return table;
}

template <typename Declaration>
void reject_duplicate_names(const YAML::Node& list, const YamlLocation& where,
                            const std::vector<Declaration>& declarations) {
  std::set<std::string> seen;
  for (size_t i = 0; i < declarations.size(); ++i)
    if (!seen.insert(declarations[i].name).second)
      where.index(i).fail(list[i], "name " + quoted_value(declarations[i].name) + " is used twice");
}

YAML::Node to_yaml(const json& value) {
  if (value.is_object()) {
    YAML::Node node(YAML::NodeType::Map);
    for (auto it = value.begin(); it != value.end(); ++it) node[it.key()] = to_yaml(it.value());
    return node;
  }
  if (value.is_array()) {
    YAML::Node node(YAML::NodeType::Sequence);
    for (const auto& item : value) node.push_back(to_yaml(item));
    return node;
  }
  if (value.is_string()) return YAML::Node(value.get<std::string>());
  if (value.is_boolean()) return YAML::Node(value.get<bool>());
  if (value.is_number_integer()) return YAML::Node(value.get<long long>());
  if (value.is_number()) return YAML::Node(format_exact(value.get<double>()));
  return YAML::Node(YAML::NodeType::Null);
}

bool any_search(const std::vector<const Record*>& records) {
  return std::any_of(records.begin(), records.end(),
                     [](const Record* record) { return record->search.has_value(); });
}

std::vector<std::string> distinct_texts(const std::vector<const Record*>& records,
                                        const std::string& field) {
  std::vector<std::string> values;
  for (const Record* record : records)
    if (const auto value = field_value(*record, field))
      if (std::find(values.begin(), values.end(), value->text) == values.end())
        values.push_back(value->text);
  return values;
}

// The image axis of a default figure: photographs by name (two of one size are two
// photographs), generated images by their size.
std::string image_axis(const std::vector<const Record*>& records) {
  const bool photographs = std::any_of(records.begin(), records.end(), [](const Record* record) {
    return record->image.source.rfind("generated:", 0) != 0;
  });
  return photographs ? "image.name" : "image.size";
}

// Whether a kernel's type and size tell it from the others (gaussian 3, 5, 7; sobel_y 3), so that
// kernel size can be an axis with one panel per type.
bool kernel_size_names_kernel(const std::vector<const Record*>& records) {
  std::map<std::pair<std::string, int>, std::set<std::string>> names;
  for (const Record* record : records)
    names[{record->kernel.type, record->kernel.size}].insert(record->kernel.name);
  return std::all_of(names.begin(), names.end(),
                     [](const auto& entry) { return entry.second.size() == 1; });
}

// Fields other than implementation and params that tell points of one x apart.
std::vector<std::string> configuration_fields(const std::vector<const Record*>& records) {
  std::vector<std::string> fields = {"configuration"};
  for (const char* extra : {"border", "output", "image.channels"})
    if (field_varies(records, extra)) fields.emplace_back(extra);
  return fields;
}

}  // namespace

std::string where_map_to_expression(
    const std::vector<std::pair<std::string, std::vector<std::string>>>& clauses) {
  std::string expression;
  for (const auto& [field, values] : clauses) {
    if (!expression.empty()) expression += ",";
    expression += field + "=";
    for (size_t i = 0; i < values.size(); ++i) expression += (i ? "|" : "") + values[i];
  }
  return expression;
}

namespace {

// derive: NAME: "expression" (query/derived_columns.hpp), each checked with the ones before.
std::vector<DerivedColumn> parse_derive(const YAML::Node& node, const YamlLocation& at) {
  if (!node.IsMap())
    at.fail(node,
            "expected names with expressions, e.g. derive: {eff_2t: \"median_ms[params.threads=1] "
            "/ (2 * median_ms)\"}");
  std::vector<DerivedColumn> columns;
  for (const auto& entry : node) {
    const std::string name = entry.first.as<std::string>();
    const YamlLocation column = at.child(name);
    const bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                       std::all_of(name.begin(), name.end(), [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                       });
    if (!plain || name.size() > 64)
      column.fail(entry.first,
                  "a derived column's name is up to 64 letters, digits and '_', not starting "
                  "with a digit: the column is the field derive." +
                      shown_text(name));
    const std::string text = scalar(entry.second, column);
    try {
      Expression expression = Expression::parse(text);
      const Unit unit =
          check_record_expression(expression, derived_column_rules(columns, columns.size()));
      columns.push_back({name, text, std::move(expression), unit});
    } catch (const ExpressionError& error) {
      column.fail(entry.second, expression_error_text(error, text));
    }
  }
  return columns;
}

// A figure's or table's fields that name a derived column the config does not derive.
void check_derived_fields(const YAML::Node& list, const YamlLocation& at,
                          const std::vector<DerivedColumn>& derive,
                          const std::vector<const char*>& keys) {
  std::vector<std::string> declared;
  for (const auto& column : derive) declared.push_back(kDerivedColumnPrefix.data() + column.name);
  const auto check = [&](const YAML::Node& node, const YamlLocation& place) {
    if (!node.IsScalar() || !is_derived_column(node.Scalar())) return;
    if (std::find(declared.begin(), declared.end(), node.Scalar()) != declared.end()) return;
    const std::string close = closest_name(node.Scalar(), declared);
    place.fail(node, "unknown field " + quoted_value(node.Scalar()) +
                         (declared.empty() ? ": the config derives no column (derive:)"
                          : close.empty()  ? ": the config derives " + quoted_list(declared)
                                           : " (did you mean '" + close + "'?)"));
  };
  for (size_t i = 0; list.IsSequence() && i < list.size(); ++i)
    for (const char* key : keys) {
      if (!list[i].IsMap()) continue;
      const YAML::Node value = list[i][key];
      if (!value) continue;
      const YamlLocation place = at.index(i).child(key);
      if (!value.IsSequence()) check(value, place);
      for (size_t j = 0; value.IsSequence() && j < value.size(); ++j)
        check(value[j], place.index(j));
    }
}

}  // namespace

ReportDeclarations parse_report_declarations(const YAML::Node& config_root,
                                             const YamlLocation& where) {
  ReportDeclarations declarations;
  if (const YAML::Node derive = config_root["derive"])
    declarations.derive = parse_derive(derive, where.child("derive"));
  if (const YAML::Node figures = config_root["figures"]) {
    declarations.has_figures_key = true;
    const YamlLocation at = where.child("figures");
    if (!figures.IsSequence()) at.fail(figures, "expected a list of figures");
    for (size_t i = 0; i < figures.size(); ++i)
      declarations.figures.push_back(parse_figure(figures[i], at.index(i), i, false));
    reject_duplicate_names(figures, at, declarations.figures);
  }
  if (const YAML::Node tables = config_root["tables"]) {
    declarations.has_tables_key = true;
    const YamlLocation at = where.child("tables");
    if (!tables.IsSequence()) at.fail(tables, "expected a list of tables");
    for (size_t i = 0; i < tables.size(); ++i)
      declarations.tables.push_back(parse_table(tables[i], at.index(i), i));
    reject_duplicate_names(tables, at, declarations.tables);
  }
  if (const YAML::Node figures = config_root["figures"])
    check_derived_fields(figures, where.child("figures"), declarations.derive,
                         {"x", "y", "value", "series", "panel"});
  if (const YAML::Node tables = config_root["tables"])
    check_derived_fields(tables, where.child("tables"), declarations.derive,
                         {"rows", "columns", "value"});
  return declarations;
}

std::vector<FigureDeclaration> parse_summary_figures(const YAML::Node& figures,
                                                     const YamlLocation& where) {
  std::vector<FigureDeclaration> declarations;
  if (!figures.IsSequence()) where.fail(figures, "expected a list of figures");
  for (size_t i = 0; i < figures.size(); ++i)
    declarations.push_back(parse_figure(figures[i], where.index(i), i, true));
  reject_duplicate_names(figures, where, declarations);
  return declarations;
}

ReportDeclarations parse_report_declarations(const json& resolved_config,
                                             const YamlLocation& where) {
  YAML::Node root(YAML::NodeType::Map);
  if (resolved_config.is_object()) {
    if (resolved_config.contains("figures")) {
      // Runs of earlier versions read `log: y` as YAML 1.1's boolean y and recorded true; only
      // that spelling passed validation, so true means y.
      json figures = resolved_config["figures"];
      if (figures.is_array())
        for (auto& figure : figures)
          if (figure.is_object() && figure.value("log", json()) == json(true)) figure["log"] = "y";
      root["figures"] = to_yaml(figures);
    }
    if (resolved_config.contains("tables")) root["tables"] = to_yaml(resolved_config["tables"]);
    if (resolved_config.contains("derive")) root["derive"] = to_yaml(resolved_config["derive"]);
  }
  return parse_report_declarations(root, where);
}

std::vector<FigureDeclaration> default_figures(const std::vector<const Record*>& records) {
  FigureDeclaration time;
  time.y = {"median_ms"};
  time.series = configuration_fields(records);
  time.log_y = true;
  time.error_bars = true;
  time.shade_variants = true;
  // A variant measured by several searches (or by a sweep and a search) is drawn at its fastest.
  if (any_search(records)) time.reduce = CellReduce::min;
  const std::string image = image_axis(records);
  const size_t sizes = distinct_texts(records, "kernel.size").size();
  if (sizes > 1 && sizes >= distinct_texts(records, image).size() &&
      kernel_size_names_kernel(records)) {
    time.name = "time-by-kernel-size";
    time.title = "Median time by kernel size";
    time.x = "kernel.size";
    for (const std::string& panel : {std::string("kernel.type"), image})
      if (field_varies(records, panel)) time.panel.push_back(panel);
  } else {
    time.name = image == "image.size" ? "time-by-size" : "time-by-image";
    time.title = image == "image.size" ? "Median time by image size" : "Median time by image";
    time.x = image;
    if (field_varies(records, "kernel.name")) time.panel = {"kernel.name"};
  }
  // A line a variant reads up to a few dozen; thousands (a tuning space measured whole) are a
  // smear that gnuplot takes minutes to draw. There, each implementation's fastest variant.
  if (distinct_texts(records, "configuration").size() > kMostDefaultSeries) {
    time.series.front() = "implementation";
    time.reduce = CellReduce::min;
    time.title += ", the fastest variant of each implementation";
  }
  std::vector<FigureDeclaration> figures = {time};

  const bool any_speedup = std::any_of(records.begin(), records.end(), [](const Record* record) {
    return field_value(*record, "speedup").has_value();
  });
  if (any_speedup) {
    FigureDeclaration speedup = time;
    speedup.name = "speedup-by-" + time.name.substr(std::string("time-by-").size());
    speedup.title =
        "Speedup over the baseline by " + time.title.substr(std::string("Median time by ").size());
    speedup.y = {"speedup"};
    speedup.error_bars = false;
    figures.push_back(speedup);
  }
  return figures;
}

std::vector<TableDeclaration> default_tables(const std::vector<const Record*>& records) {
  std::vector<TableDeclaration> tables;
  // Photographs by name, as the default figures draw them: two of one size are two columns.
  const std::string image = image_axis(records);
  for (const auto& kernel : distinct_texts(records, "kernel.name")) {
    TableDeclaration table;
    table.name = "time-" + kernel;
    std::replace_if(
        table.name.begin(), table.name.end(),
        [](char c) { return !std::isalnum(static_cast<unsigned char>(c)) && c != '-'; }, '-');
    table.title = std::string("Median time [ms] by configuration and ") +
                  (image == "image.size" ? "image size" : "image") + ", kernel " + kernel;
    table.rows = configuration_fields(records);
    table.columns = {image};
    table.value = "median_ms";
    table.where = "kernel.name=" + kernel;
    if (any_search(records)) table.reduce = CellReduce::min;  // as default_figures
    tables.push_back(table);
  }
  return tables;
}

}  // namespace convlab
