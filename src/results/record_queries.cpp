#include "results/record_queries.hpp"

#include <map>

#include "core/point_filter.hpp"
#include "results/machine.hpp"
#include "results/record_fields.hpp"

namespace convlab {
namespace {

// Fields that together define a point, in the order messages name them.
const std::vector<std::string> kDefinitionFields = {
    "implementation", "params",      "image.name",  "image.width", "image.height",
    "image.channels", "kernel.name", "kernel.size", "border",      "output"};

std::string definition_part(const Record& record, const std::string& field) {
  if (field == "params") return record.params.dump();
  const auto value = field_value(record, field);
  return value ? value->text : "";
}

}  // namespace

// The fields of the point definition in which two records differ, for "several points" errors.
std::string differing_point_fields(const Record& a, const Record& b) {
  std::string fields;
  for (const auto& field : kDefinitionFields)
    if (definition_part(a, field) != definition_part(b, field))
      fields += (fields.empty() ? "" : ", ") + field;
  return fields.empty() ? "nothing" : fields;
}

std::string point_definition(const Record& record) {
  std::string definition;
  for (const auto& field : kDefinitionFields) definition += definition_part(record, field) + "\x1f";
  return definition;
}

std::string describe_point(const Record& record) {
  std::string text = definition_part(record, "configuration");
  text += " | " + definition_part(record, "image.name") + " (" +
          definition_part(record, "image.size") + ", " + definition_part(record, "image.channels") +
          " ch) | " + definition_part(record, "kernel.name") + " | " +
          definition_part(record, "border") + " | " + definition_part(record, "output");
  return text;
}

std::vector<const Record*> latest_ok_points(const ResultsDocument& results) {
  std::map<std::string, size_t> run_order;
  for (size_t i = 0; i < results.file.runs.size(); ++i) run_order[results.file.runs[i].id] = i;
  const auto order = [&](const Record* r) {
    const auto it = run_order.find(r->run_id);
    return it == run_order.end() ? size_t{0} : it->second;
  };
  std::vector<const Record*> points;
  std::map<std::string, size_t> position_of_definition;
  for (const Record& record : results.file.records) {
    if (record.status != Status::ok) continue;
    // The same point measured on two machines is two points.
    const std::string definition = point_definition(record) + machine_key(record);
    const auto existing = position_of_definition.find(definition);
    if (existing == position_of_definition.end()) {
      position_of_definition[definition] = points.size();
      points.push_back(&record);
    } else if (order(&record) >= order(points[existing->second])) {
      points[existing->second] = &record;
    }
  }
  return points;
}

std::vector<const Record*> filter_points(const std::vector<const Record*>& points,
                                         const std::string& expression,
                                         const std::string& context) {
  if (expression.empty()) return points;
  std::string error;
  const auto filter = parse_point_filter(expression, &error);
  if (!filter) throw ExportError(context + ": invalid point filter '" + expression + "': " + error);
  std::vector<const Record*> kept;
  for (const Record* record : points)
    if (record_matches(*filter, *record)) kept.push_back(record);
  return kept;
}

}  // namespace convlab
