#include "query/param_comparison.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/point_filter.hpp"
#include "query/record_fields.hpp"
#include "query/results_document.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

using nlohmann::json;

const char* const kParamsPrefix = "params.";

struct ValuePoint {
  FieldValue value;
  const Record* point = nullptr;
};

// The points of one group as gathered: by the field's value as text, the fastest point.
struct GroupPoints {
  std::string implementation;
  std::vector<std::pair<std::string, std::string>> parts;
  std::vector<std::string> order;  // values in order of first appearance
  std::map<std::string, ValuePoint> values;
};

std::string text_of(const Record& record, const std::string& field) {
  const auto value = field_value(record, field);
  return value ? value->text : "";
}

// "schedule=static block=16x16": the params of the implementation's configurations that vary,
// the field's own one left out.
std::string other_params_words(const Record& record, const std::string& param,
                               const SweptParams& swept) {
  std::string words;
  const auto found = swept.find(record.implementation);
  if (found == swept.end()) return words;
  for (const auto& key : found->second)
    if (key != param && record.params.contains(key))
      words += (words.empty() ? "" : " ") + key + "=" + field_text(record.params[key]);
  return words;
}

std::string group_key(const Record& record, const std::string& param) {
  json others = record.params;
  others.erase(param);
  std::string key = problem_of(record) + "\x1e" + record.implementation + "\x1e" + others.dump();
  // A search's variants are other points than the grid's with the same params.
  if (record.search) key += "\x1e" + record.search->strategy + std::to_string(record.search->seed);
  return key;
}

std::vector<GroupPoints> gather_groups(const std::vector<const Record*>& points,
                                       const std::string& field, const SweptParams& swept) {
  const std::string param = field.substr(std::string(kParamsPrefix).size());
  std::vector<GroupPoints> groups;
  std::map<std::string, size_t> index;
  for (const Record* record : points) {
    if (!record->usable() || record->median_ms() <= 0) continue;
    const auto value = field_value(*record, field);
    if (!value) continue;
    const auto [at, added] = index.emplace(group_key(*record, param), groups.size());
    if (added) {
      GroupPoints group;
      group.implementation = record->implementation;
      for (const char* part : {"image.name", "kernel.name", "border", "output"})
        group.parts.emplace_back(part, text_of(*record, part));
      group.parts.emplace_back("machine", machine_label(*record, true));
      group.parts.emplace_back("implementation", record->implementation);
      group.parts.emplace_back("configuration", other_params_words(*record, param, swept));
      groups.push_back(std::move(group));
    }
    GroupPoints& group = groups[at->second];
    auto [entry, new_value] = group.values.try_emplace(value->text, ValuePoint{*value, record});
    if (new_value)
      group.order.push_back(value->text);
    else if (record->median_ms() < entry->second.point->median_ms())
      entry->second.point = record;
  }
  return groups;
}

std::vector<std::string> ordered_values(const GroupPoints& group) {
  return sorted_by_field_value(group.order, group.values);
}

// The row against the reference: ratio, test and verdict.
void compare_with_reference(ParamRow& row, const Record& reference,
                            const ParamComparisonOptions& options) {
  const auto& a = reference.timing->compute.samples_ms;
  const auto& b = row.point->timing->compute.samples_ms;
  row.ratio = row.point->median_ms() / reference.median_ms();
  row.test = mann_whitney_u(a, b);
  row.verdict =
      change_verdict(*row.ratio, row.test, a.size(), b.size(), options.threshold, options.alpha);
}

const Record* one_thread_point(const GroupPoints& group) {
  for (const auto& [text, entry] : group.values)
    if (entry.value.numeric && entry.value.number == 1) return entry.point;
  return nullptr;
}

ParamGroup compare_group(const GroupPoints& gathered, const std::vector<RunBlock>& runs,
                         bool threads, const ParamComparisonOptions& options) {
  ParamGroup group;
  group.parts = gathered.parts;
  const std::vector<std::string> order = ordered_values(gathered);
  if (!options.against)
    group.reference_value = order.front();
  else if (gathered.values.count(*options.against))
    group.reference_value = options.against;
  const Record* reference =
      group.reference_value ? gathered.values.at(*group.reference_value).point : nullptr;
  const Record* one_thread = threads ? one_thread_point(gathered) : nullptr;
  for (const auto& value : order) {
    ParamRow row;
    row.value = value;
    row.point = gathered.values.at(value).point;
    row.reference = row.point == reference;
    if (reference && !row.reference) compare_with_reference(row, *reference, options);
    if (threads) {
      row.speedup = row.point->derived.speedup_vs_threads1;
      row.efficiency = row.point->derived.efficiency;
    }
    row.flags = point_flags(*row.point);
    std::vector<const Record*> related{row.point};
    if (reference) related.push_back(reference);
    if (one_thread) related.push_back(one_thread);
    row.conditions_differ = mixed_runs(related, runs).mixed();
    group.rows.push_back(std::move(row));
  }
  return group;
}

std::string joined(const std::set<std::string>& words) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : ", ") + word;
  return text;
}

void check_field(const std::vector<const Record*>& points, const std::string& field) {
  if (field.rfind(kParamsPrefix, 0) != 0 || field.size() == std::string(kParamsPrefix).size())
    throw ResultsError("--compare: '" + field +
                       "' is not a params field; the configurations of an implementation differ "
                       "in their params: give params.threads, params.schedule, params.tile, ...");
  std::set<std::string> params;
  for (const Record* record : points) {
    if (!record->usable()) continue;
    if (field_value(*record, field)) return;
    for (const auto& [key, value] : record->params.items()) params.insert(key);
  }
  throw ResultsError("--compare: no ok point has the field '" + field + "'" +
                     (params.empty() ? " (no point has params)"
                                     : " (the points' params: " + joined(params) + ")"));
}

// An --against value no point has is a mistake, as a filter that matches nothing is.
void check_against(const std::vector<GroupPoints>& groups, const std::string& field,
                   const std::string& against) {
  std::set<std::string> values;
  for (const auto& group : groups) {
    if (group.values.count(against)) return;
    for (const auto& [text, entry] : group.values) values.insert(text);
  }
  throw ResultsError("--against " + against + ": no point has " + field + " = " + against +
                     " (its values: " + joined(values) + ")");
}

}  // namespace

ParamComparison compare_param_values(const std::vector<const Record*>& points,
                                     const std::vector<RunBlock>& runs, const std::string& field,
                                     const ParamComparisonOptions& options) {
  check_field(points, field);
  ParamComparison comparison;
  comparison.field = field;
  comparison.against = options.against;
  comparison.threads = field == "params.threads";
  comparison.threshold = options.threshold;
  comparison.alpha = options.alpha;
  comparison.swept = swept_params(points);
  const std::vector<GroupPoints> gathered = gather_groups(points, field, comparison.swept);
  if (options.against) check_against(gathered, field, *options.against);

  std::map<std::string, std::set<std::string>> single;  // implementation -> its values
  std::set<std::string> compared;
  std::vector<const Record*> shown;
  for (const auto& group : gathered) {
    const std::string& implementation = group.implementation;
    if (group.values.size() < 2) {
      single[implementation].insert(group.order.front());
      continue;
    }
    compared.insert(implementation);
    comparison.groups.push_back(compare_group(group, runs, comparison.threads, options));
    for (const auto& row : comparison.groups.back().rows) shown.push_back(row.point);
  }
  for (const auto& [implementation, values] : single)
    if (!compared.count(implementation))
      comparison.single_valued.emplace_back(implementation, joined(values));
  if (comparison.groups.empty()) {
    std::string only;
    for (const auto& [implementation, values] : comparison.single_valued)
      only += (only.empty() ? "" : "; ") + implementation + ": " + values;
    throw ResultsError("--compare: no implementation has two values of " + field +
                       " on one problem (" + only + ")");
  }
  comparison.runs = mixed_runs(shown, runs);
  return comparison;
}

}  // namespace convlab
