#include "figures/declaration_keys.hpp"

#include <algorithm>

#include "figures/figure_types.hpp"

namespace convlab {
namespace {

using nlohmann::json;

const json kStringSchema = {{"type", "string"}};
const json kField = {{"type", "string"},
                     {"description",
                      "a record field (docs/report.md lists them), e.g. "
                      "kernel.size, params.threads, time.median_ms"}};
const json kStem = {{"type", "string"}, {"pattern", "^[A-Za-z0-9_-]+$"}};

json fields() {
  return {
      {"anyOf", json::array({kField, {{"type", "array"}, {"minItems", 1}, {"items", kField}}})}};
}

// A point filter expression, or a map {field: value | [values]}.
json where() {
  const json value = {{"type", json::array({"string", "number", "boolean"})}};
  const json values = {
      {"anyOf", json::array({value, {{"type", "array"}, {"minItems", 1}, {"items", value}}})}};
  return {{"anyOf",
           json::array({kStringSchema, {{"type", "object"}, {"additionalProperties", values}}})}};
}

json reduce() {
  return schema::string_enum(cell_reduce_names());
}

// Every type as words, the default (listed first) marked: "line (default), bars, ... or ...".
std::string figure_type_choices() {
  const std::string_view first = figure_types().front()->name;
  return std::string(first) + " (default)" + figure_type_names(nullptr, "or").substr(first.size());
}

json log_axes() {
  return {
      {"anyOf", json::array({schema::string_enum({"x", "y", "xy", "none"}),
                             {{"type", "array"}, {"items", schema::string_enum({"x", "y"})}}})}};
}

// An object of exactly these keys (the schema's rows).
json declaration_object(const ConfigKeys& keys) {
  json properties = json::object(), required = json::array();
  for (const auto& key : keys) {
    properties[key.name] = schema::described(key.value, key.description);
    if (key.required) required.push_back(key.name);
  }
  json object = {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
  if (!required.empty()) object["required"] = required;
  return object;
}

// An overlay: y (with where and reduce), or value.
json overlay_object() {
  json object = declaration_object(overlay_keys());
  object["oneOf"] =
      json::array({{{"required", json::array({"y"})}}, {{"required", json::array({"value"})}}});
  return object;
}

// best: true, or a map of its label and the implementations it leaves out.
json best_schema() {
  return {{"anyOf", json::array({{{"type", "boolean"}}, declaration_object(best_keys())})}};
}

// A table: rows, columns and value, or vs (every implementation against one).
json table_object() {
  json object = declaration_object(table_keys());
  object["anyOf"] = json::array({{{"required", json::array({"vs"})}},
                                 {{"required", json::array({"rows", "columns", "value"})}}});
  return object;
}

}  // namespace

const std::vector<std::string>& cell_reduce_names() {
  static const std::vector<std::string> names{"single", "min", "max", "mean"};
  return names;
}

const ConfigKeys& overlay_keys() {
  static const ConfigKeys keys{
      {"label", "the line's name in the legend", true, kStringSchema},
      {"y", "the field drawn (required without value)", false, kField},
      {"where", "which points it draws", false, where()},
      {"reduce", "how the points of one x are reduced (default min)", false, reduce()},
      {"value",
       "instead of y, where and reduce: this number at every x (a goal)",
       false,
       {{"type", "number"}}},
  };
  return keys;
}

const ConfigKeys& best_keys() {
  static const ConfigKeys keys{
      {"label", "the series' name in the legend (default Fastest)", false, kStringSchema},
      {"except",
       "implementations left out of the fastest, each drawn as series of its own (a vendor "
       "library beside the fastest of the others)",
       false,
       {{"anyOf", json::array({kStringSchema,
                               {{"type", "array"}, {"minItems", 1}, {"items", kStringSchema}}})}}},
  };
  return keys;
}

const ConfigKeys& figure_keys() {
  static const ConfigKeys keys{
      {"name", "file name stem (default figure-N)", false, kStem},
      {"title", "the figure's title (default from y and x)", false, kStringSchema},
      {"type", figure_type_choices(), false, schema::string_enum(figure_type_words())},
      {"x", "the field along the horizontal axis", true, kField},
      {"y",
       "the field plotted; a list only for type: " +
           figure_type_names(&FigureTypeRules::y_list, "or"),
       true, fields()},
      {"value", "the colour of a " + figure_type_names(&FigureTypeRules::value, "or"), false,
       kField},
      {"series", "one line or bar per value combination of these fields", false, fields()},
      {"panel", "one plot per value combination of these fields", false, fields()},
      {"where", "which points are drawn: a point filter or {field: value | [values]}", false,
       where()},
      {"error_bars",
       "draw q1..q3 of the timing samples (" +
           figure_type_names(&FigureTypeRules::error_bars, "and") + ")",
       false,
       {{"type", "boolean"}}},
      {"x_label", "the x axis label (default from the field)", false, kStringSchema},
      {"y_label", "the y axis label (default from the field)", false, kStringSchema},
      {"reduce", "how several points of one cell are reduced (default single: refuse)", false,
       reduce()},
      {"log", "logarithmic axes: x, y, xy, none or a list of x and y", false, log_axes()},
      {"overlay",
       "reference lines over a figure of type " +
           figure_type_names(&FigureTypeRules::overlays, "or"),
       false,
       {{"type", "array"}, {"items", overlay_object()}}},
      {"best",
       "one series of the fastest point (lowest median_ms) per x, for " +
           figure_type_names(&FigureTypeRules::best, "and") +
           ": true, or {label, except}; series then parts the implementations of except",
       false, best_schema()},
  };
  return keys;
}

const ConfigKeys& table_keys() {
  static const ConfigKeys keys{
      {"name", "file name stem (default table-N)", false, kStem},
      {"title", "the table's title", false, kStringSchema},
      {"rows", "one row per value combination of these fields (required without vs)", false,
       fields()},
      {"columns", "one column per value combination of these fields (required without vs)", false,
       fields()},
      {"value", "the field in the cells (required without vs)", false, kField},
      {"vs",
       "instead of rows, columns and value: every other implementation against this one, per "
       "problem, its ratio and Mann-Whitney verdict (as convlab show --vs)",
       false, kStringSchema},
      {"by", "with vs: one row per value of this field instead of per problem", false, kField},
      {"where", "which points are shown", false, where()},
      {"digits", "significant digits (default 3)", false, schema::integer(1, 17)},
      {"reduce", "how several points of one cell are reduced (default single: refuse)", false,
       reduce()},
  };
  return keys;
}

namespace {

// A figure: x and y are required but by the types that default them (a convergence figure's
// are the search's step and best so far): one branch of `anyOf` per set of axes given.
json figure_object() {
  json figure = declaration_object(figure_keys());
  auto& required = figure["required"];
  for (const char* axis : {"x", "y"})
    required.erase(std::remove(required.begin(), required.end(), json(axis)), required.end());
  json branches = json::array({{{"required", json::array({"x", "y"})}}});
  // Types by which of x and y they default: both, x only, y only.
  for (const auto& [defaults_x, defaults_y] :
       {std::pair{true, true}, {true, false}, {false, true}}) {
    json types = json::array();
    for (const FigureTypeDescriptor* type : figure_types())
      if (!type->rules.default_x.empty() == defaults_x &&
          !type->rules.default_y.empty() == defaults_y)
        types.push_back(std::string(type->name));
    if (types.empty()) continue;
    json given = json::array({"type"});
    if (!defaults_x) given.push_back("x");
    if (!defaults_y) given.push_back("y");
    branches.push_back({{"properties", {{"type", {{"enum", types}}}}}, {"required", given}});
  }
  figure["anyOf"] = branches;
  return figure;
}

}  // namespace

std::map<std::string, json> declarations_schema() {
  return {{"figures", {{"type", "array"}, {"items", figure_object()}}},
          {"tables", {{"type", "array"}, {"items", table_object()}}}};
}

}  // namespace convlab
