#include "query/record_queries.hpp"

#include <algorithm>
#include <map>

#include "core/closest_name.hpp"
#include "core/message_text.hpp"
#include "core/point_filter.hpp"
#include "query/record_fields.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

// Fields that together define a point, in the order messages name them. Two searches that
// measure one variant measure two points, each a step of its own search.
const std::vector<std::string> kDefinitionFields = {
    "implementation", "params",      "image.name", "image.width", "image.height", "image.channels",
    "kernel.name",    "kernel.size", "border",     "output",      "search.run"};

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

std::string point_in_words(const Record& record) {
  std::string text = definition_part(record, "configuration");
  text += " | " + definition_part(record, "image.name") + " (" +
          definition_part(record, "image.size") + ", " + definition_part(record, "image.channels") +
          " ch) | " + definition_part(record, "kernel.name") + " | " +
          definition_part(record, "border") + " | " + definition_part(record, "output");
  return text;
}

namespace {

// One record per point definition and machine: the latest run's (by order in "runs", then by
// position in "records") of those `counts` keeps.
template <typename Counts>
std::vector<const Record*> latest_records(const ResultsDocument& results, Counts counts) {
  std::map<std::string, size_t> run_order;
  for (size_t i = 0; i < results.file.runs.size(); ++i) run_order[results.file.runs[i].id] = i;
  const auto order = [&](const Record* r) {
    const auto it = run_order.find(r->run_id);
    return it == run_order.end() ? size_t{0} : it->second;
  };
  std::vector<const Record*> points;
  std::map<std::string, size_t> position_of_definition;
  for (const Record& record : results.file.records) {
    if (!counts(record)) continue;
    // The same point measured on two machines is two points, and so are two versions of a
    // user's kernel (where a document holds both: ResultsDocument::other_versions).
    const std::string definition =
        point_definition(record) + machine_key(record) + "\x1f" + record.source_version();
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

}  // namespace

std::vector<const Record*> latest_ok_points(const ResultsDocument& results) {
  return latest_records(results, [](const Record& record) { return record.status == Status::ok; });
}

std::vector<const Record*> latest_points(const ResultsDocument& results) {
  return latest_records(results, [](const Record&) { return true; });
}

namespace {

// The free-form fields (params.X, kernel.parameters.X) the records have, for suggestions.
std::vector<std::string> free_form_fields(const std::vector<const Record*>& records) {
  std::vector<std::string> fields;
  const auto add = [&](const std::string& prefix, const nlohmann::json& part) {
    if (!part.is_object()) return;
    for (const auto& [key, value] : part.items())
      if (std::find(fields.begin(), fields.end(), prefix + key) == fields.end())
        fields.push_back(prefix + key);
  };
  for (const Record* record : records) {
    add("params.", record->params);
    add("kernel.parameters.", record->kernel.parameters);
  }
  return fields;
}

std::string unknown_field_message(const std::string& field, const std::string& suggestion) {
  return "--filter: unknown field '" + field + "'" +
         (suggestion.empty() ? "" : " (did you mean '" + suggestion + "'?)");
}

void check_filter_fields(const std::vector<const Record*>& records, const PointFilter& filter) {
  for (const auto& clause : filter.clauses) {
    std::string suggestion;
    if (!is_known_field(clause.field, &suggestion))
      throw ResultsError(unknown_field_message(clause.field, suggestion));
    const bool free_form =
        clause.field.rfind("params.", 0) == 0 || clause.field.rfind("kernel.parameters.", 0) == 0;
    const bool present = std::any_of(records.begin(), records.end(), [&](const Record* record) {
      return field_value(*record, clause.field).has_value();
    });
    if (free_form && !present && !records.empty())
      throw ResultsError(unknown_field_message(
          clause.field, closest_name(clause.field, free_form_fields(records))));
  }
}

}  // namespace

std::vector<const Record*> select_records(const std::vector<const Record*>& records,
                                          const PointFilter& filter, const std::string& file) {
  check_filter_fields(records, filter);
  std::vector<const Record*> kept;
  for (const Record* record : records)
    if (record_matches(filter, *record)) kept.push_back(record);
  if (kept.empty()) throw ResultsError("no point of " + file + " matches --filter " + filter.text);
  return kept;
}

std::vector<const Record*> filter_points(const std::vector<const Record*>& points,
                                         const std::string& expression,
                                         const std::string& context) {
  if (expression.empty()) return points;
  std::string error;
  const auto filter = parse_point_filter(expression, &error);
  if (!filter)
    throw ResultsError(context + ": invalid point filter '" + clipped(expression) +
                       "': " + clipped(error, 2 * kQuotedValueBytes));
  std::vector<const Record*> kept;
  for (const Record* record : points)
    if (record_matches(*filter, *record)) kept.push_back(record);
  return kept;
}

}  // namespace convlab
