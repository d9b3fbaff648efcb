#include "query/derived_columns.hpp"

#include <map>
#include <optional>

#include "query/record_fields.hpp"
#include "query/record_queries.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

// What a derived column's queries range over: the image, kernel, border and output of a record,
// on its host (same_machine then tells a GPU point's device apart).
std::string problem_key(const Record& r) {
  const char separator = '\x1f';
  return r.image.name + separator + std::to_string(r.image.width) + "x" +
         std::to_string(r.image.height) + "x" + std::to_string(r.image.channels) + separator +
         r.kernel.name + separator + std::to_string(r.kernel.size) + separator + r.border +
         separator + r.output + separator + host_key(r);
}

std::vector<const Record*> of_machine(const std::vector<const Record*>& points,
                                      const Record& record) {
  std::vector<const Record*> kept;
  for (const Record* point : points)
    if (same_machine(*point, record)) kept.push_back(point);
  return kept;
}

// The points an ambiguous query selected, for the message.
std::string listed_points(const DerivedColumn& column, const ExpressionError& error,
                          const QueryRecords& records) {
  const ExpressionNode* query = query_at(column.expression, error.position());
  if (!query) return "";
  const auto points = query_points(records, query->filter);
  std::string text;
  for (size_t i = 0; i < points.size() && i < 5; ++i) text += "\n  " + point_in_words(*points[i]);
  if (points.size() > 5) text += "\n  ...";
  if (points.size() > 1)
    text += "\n  (they differ in " + differing_point_fields(*points[0], *points[1]) + ")";
  return text;
}

std::optional<double> value_for(const DerivedColumn& column, const Record& record,
                                const QueryRecords& problem) {
  const QueryRecords records{of_machine(problem.ok, record), of_machine(problem.latest, record)};
  try {
    return evaluate_over_records(column.expression, records, &record);
  } catch (const ExpressionError& error) {
    using Kind = ExpressionError::Kind;
    if (error.kind() == Kind::no_value || error.kind() == Kind::arithmetic) return std::nullopt;
    throw ResultsError(
        std::string(kDerivedColumnPrefix) + column.name + ": for the point " +
        point_in_words(record) + ": " + error.what() +
        (error.kind() == Kind::several ? listed_points(column, error, records) : ""));
  }
}

}  // namespace

ExpressionRules derived_column_rules(const std::vector<DerivedColumn>& columns, size_t index) {
  ExpressionRules rules;
  rules.record_names = true;
  for (size_t i = 0; i < index && i < columns.size(); ++i)
    rules.derived.emplace_back(columns[i].name, columns[i].unit);
  return rules;
}

ExpressionRules value_rules(const std::vector<DerivedColumn>& columns) {
  ExpressionRules rules = derived_column_rules(columns, columns.size());
  rules.record_names = false;
  return rules;
}

void compute_derived_columns(ResultsDocument& results, const std::vector<DerivedColumn>& columns) {
  if (columns.empty()) return;
  std::map<std::string, QueryRecords> problems;
  for (const Record* point : latest_ok_points(results))
    problems[problem_key(*point)].ok.push_back(point);
  for (const Record* point : latest_points(results))
    problems[problem_key(*point)].latest.push_back(point);
  auto& records = results.file.records;
  for (const DerivedColumn& column : columns) {
    // A column reads the values of the ones before it, never its own half-computed ones.
    std::vector<std::optional<double>> values;
    values.reserve(records.size());
    for (const Record& record : records)
      values.push_back(value_for(column, record, problems[problem_key(record)]));
    for (size_t i = 0; i < records.size(); ++i)
      if (values[i]) records[i].computed.emplace_back(column.name, *values[i]);
  }
}

}  // namespace convlab
