#include "app/table_choice.hpp"

#include "query/record_queries.hpp"

namespace convlab {

std::vector<const Record*> TableChoice::chosen_records(const ResultsDocument& document,
                                                       const std::string& file) const {
  std::vector<const Record*> records;
  for (const Record& record : document.file.records) records.push_back(&record);
  if (filter) records = select_records(records, *filter, file);
  return records;
}

std::vector<const Record*> TableChoice::chosen_points(const ResultsDocument& document) const {
  std::vector<const Record*> points = latest_ok_points(document);
  if (filter) points = select_records(points, *filter, document.path);
  return points;
}

ParamComparisonOptions TableChoice::comparison_options() const {
  ParamComparisonOptions options;
  options.against = against;
  return options;
}

VersusOptions TableChoice::versus_options() const {
  VersusOptions options;
  options.against = vs.value_or("");
  options.by = by;
  return options;
}

}  // namespace convlab
