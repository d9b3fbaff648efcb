#include "query/winners.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "filters/filter_descriptor.hpp"
#include "query/record_fields.hpp"
#include "query/speedup_gap.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

using nlohmann::json;

// The fields that name a problem, in the order tables show them.
const std::vector<std::string> kProblemFields = {"image.name", "kernel.name", "border", "output",
                                                 "machine"};

std::string text_of(const Record& record, const std::string& field) {
  const auto value = field_value(record, field);
  return value ? value->text : "";
}

bool faster(const Record* a, const Record* b) {
  return a->median_ms() < b->median_ms();
}

// Problems in the order their first point appears, each with its points fastest first.
std::vector<std::vector<const Record*>> points_by_problem(
    const std::vector<const Record*>& points) {
  std::vector<std::vector<const Record*>> problems;
  std::map<std::string, size_t> index;
  for (const Record* record : points) {
    if (!record->usable() || record->median_ms() <= 0) continue;
    const auto [at, added] = index.emplace(problem_of(*record), problems.size());
    if (added) problems.emplace_back();
    problems[at->second].push_back(record);
  }
  for (auto& contenders : problems) std::stable_sort(contenders.begin(), contenders.end(), faster);
  return problems;
}

// The fastest point of another implementation than the first; else the second fastest.
const Record* runner_up_of(const std::vector<const Record*>& fastest_first) {
  for (size_t i = 1; i < fastest_first.size(); ++i)
    if (fastest_first[i]->implementation != fastest_first[0]->implementation)
      return fastest_first[i];
  return fastest_first.size() > 1 ? fastest_first[1] : nullptr;
}

struct Margin {
  WinMargin margin = WinMargin::alone;
  MannWhitney test;
};

Margin margin_between(const Record& winner, const Record* runner_up, double alpha) {
  Margin result;
  if (runner_up == nullptr) return result;
  const auto& a = winner.timing->compute.samples_ms;
  const auto& b = runner_up->timing->compute.samples_ms;
  result.test = mann_whitney_u(a, b);
  if (result.test.p_value < alpha)
    result.margin = WinMargin::significant;
  else if (mann_whitney_smallest_p(a.size(), b.size()) >= alpha)
    result.margin = WinMargin::too_few_samples;
  else
    result.margin = WinMargin::within_noise;
  return result;
}

// Whether the view left points out: then a missing baseline may be one it filtered away.
bool fewer_than_all(const ResultsDocument& results, const std::vector<const Record*>& points) {
  size_t ok = 0;
  for (const Record& record : results.file.records) ok += record.status == Status::ok;
  return points.size() < ok;
}

std::vector<std::string> constant_fields(const std::vector<ProblemWinner>& rows) {
  std::vector<std::string> constant;
  if (rows.empty()) return constant;
  for (const auto& field : kProblemFields) {
    const std::string first = text_of(*rows.front().winner, field);
    const bool same = std::all_of(rows.begin(), rows.end(), [&](const ProblemWinner& row) {
      return text_of(*row.winner, field) == first;
    });
    if (same) constant.push_back(field);
  }
  return constant;
}

}  // namespace

std::string problem_of(const Record& record) {
  return record.image.name + "\x1f" + record.image.sha256 + "\x1f" + record.kernel.name + "\x1f" +
         record.border + "\x1f" + record.output + "\x1f" + machine_key(record);
}

const char* to_string(WinMargin margin) {
  switch (margin) {
    case WinMargin::significant:
      return "significant";
    case WinMargin::within_noise:
      return "within noise";
    case WinMargin::too_few_samples:
      return "too few samples";
    case WinMargin::alone:
      return "alone";
  }
  return "";
}

SweptParams swept_params(const std::vector<const Record*>& points) {
  std::map<std::string, std::map<std::string, std::set<std::string>>> values;
  for (const Record* record : points)
    for (const auto& [key, value] : record->params.items())
      values[record->implementation][key].insert(value.dump());
  SweptParams swept;
  for (const auto& [implementation, keys] : values) {
    auto& names = swept[implementation];
    for (const auto& [key, seen] : keys)
      if (seen.size() > 1) names.push_back(key);
  }
  return swept;
}

WinnersTable find_winners(const ResultsDocument& results, const std::vector<const Record*>& points,
                          const WinnersOptions& options) {
  WinnersTable table;
  table.swept = swept_params(points);
  const json& experiment = results.file.experiment;
  const json baseline =
      experiment.is_object() ? experiment.value("baseline", json::object()) : json::object();
  table.baseline = baseline_words(baseline);
  table.alpha = options.alpha;
  const bool filtered = fewer_than_all(results, points);
  std::map<std::string, const Record*> by_key;
  for (const Record& record : results.file.records) by_key[record.key] = &record;
  std::set<std::string> machines;
  std::vector<const Record*> shown;
  for (const auto& contenders : points_by_problem(points)) {
    ProblemWinner row;
    row.winner = contenders.front();
    row.runner_up = runner_up_of(contenders);
    row.contenders = contenders.size();
    if (row.runner_up) row.runner_up_ratio = row.runner_up->median_ms() / row.winner->median_ms();
    const Margin margin = margin_between(*row.winner, row.runner_up, options.alpha);
    row.margin = margin.margin;
    row.test = margin.test;
    row.baseline_ratio = row.winner->derived.speedup;
    row.baseline_gap =
        missing_speedup_reason(*row.winner, results.file.records, baseline, filtered);
    std::vector<const Record*> related{row.winner};
    if (row.runner_up) related.push_back(row.runner_up);
    if (const auto& key = row.winner->derived.baseline_key; key && by_key.count(*key))
      related.push_back(by_key.at(*key));
    row.conditions_differ = mixed_runs(related, results.file.runs).mixed();
    shown.insert(shown.end(), related.begin(), related.end());
    machines.insert(machine_key(*row.winner));
    table.rows.push_back(row);
  }
  table.runs = mixed_runs(shown, results.file.runs);
  table.several_machines = machines.size() > 1;
  table.constant = constant_fields(table.rows);
  return table;
}

// --- Pivot -----------------------------------------------------------------------------------

namespace {

// What is left of a problem once the pivot field is taken out: the group its rows share.
struct GroupPart {
  std::string field;  // the field labelling this part of the group
  std::string key;    // what tells groups apart
};

// The kernel without its size: its type, its name where the type is told apart by one (a custom
// kernel's) and the parameters the config gave (the default sigma follows the size, so it is left
// out).
std::string kernel_family(const Record& record) {
  json parameters = record.kernel.parameters;
  if (parameters.is_object()) parameters.erase("default_sigma");
  const FilterDescriptor* type = find_filter_type(record.kernel.type);
  const std::string name = type && type->takes("name") ? record.kernel.name : "";
  return record.kernel.type + "|" + name + "|" + parameters.dump();
}

std::string image_without(const Record& record, const std::string& field) {
  const RecordImage& image = record.image;
  const std::string size = std::to_string(image.width) + "x" + std::to_string(image.height);
  std::string key = field == "image.source" ? "" : image.source;
  if (field == "image.width") key += "|h" + std::to_string(image.height);
  if (field == "image.height") key += "|w" + std::to_string(image.width);
  if (field == "image.channels" || field == "image.source") key += "|" + size;
  if (field != "image.channels") key += "|c" + std::to_string(image.channels);
  return key;
}

bool is_image_part(const std::string& field) {
  return field == "image.size" || field == "image.width" || field == "image.height" ||
         field == "image.pixels" || field == "image.channels" || field == "image.source";
}

// The parts of a record's problem that its group keeps, given the pivot field. `whole`: the
// field is not allowed to merge problems (see pivot_winners).
std::vector<GroupPart> group_parts(const Record& record, const std::string& field, bool whole) {
  std::vector<GroupPart> parts;
  if (whole || (field != "image.name" && !is_image_part(field)))
    parts.push_back({"image.name", record.image.name + "|" + record.image.sha256});
  else if (is_image_part(field))
    parts.push_back(
        {field == "image.channels" ? "image.size" : "image.source", image_without(record, field)});
  if (whole || (field != "kernel.name" && field != "kernel.size" && field != "kernel.type"))
    parts.push_back({"kernel.name", record.kernel.name});
  else if (field == "kernel.size")
    parts.push_back({"kernel.type", kernel_family(record)});
  else if (field == "kernel.type")
    parts.push_back({"kernel.size", std::to_string(record.kernel.size)});
  for (const char* plain : {"border", "output"})
    if (whole || field != plain) parts.push_back({plain, text_of(record, plain)});
  parts.push_back({"machine", machine_key(record)});
  return parts;
}

struct PivotCellPoints {
  std::map<std::string, const Record*> best;  // implementation -> fastest point
  std::set<std::string> problems;             // problem keys of the points in the row
  FieldValue value;
};

struct GroupPoints {
  std::vector<GroupPart> parts;
  const Record* first = nullptr;
  std::vector<std::string> row_order;  // row keys in order of first appearance
  std::map<std::string, PivotCellPoints> rows;
};

std::string group_key(const std::vector<GroupPart>& parts) {
  std::string key;
  for (const auto& part : parts) key += part.key + "\x1e";
  return key;
}

std::vector<GroupPoints> gather_groups(const std::vector<const Record*>& points,
                                       const std::string& field, bool whole) {
  std::vector<GroupPoints> groups;
  std::map<std::string, size_t> index;
  for (const Record* record : points) {
    if (!record->usable() || record->median_ms() <= 0) continue;
    const auto parts = group_parts(*record, field, whole);
    const auto [at, added] = index.emplace(group_key(parts), groups.size());
    if (added) groups.push_back({parts, record, {}, {}});
    GroupPoints& group = groups[at->second];
    FieldValue value;
    if (const auto found = field_value(*record, field))
      value = *found;
    else
      value.text = "-";
    const std::string row_key = value.text;
    auto [row, new_row] = group.rows.try_emplace(row_key);
    if (new_row) {
      group.row_order.push_back(row_key);
      row->second.value = value;
    }
    row->second.problems.insert(problem_of(*record));
    const Record*& best = row->second.best[record->implementation];
    if (best == nullptr || faster(record, best)) best = record;
  }
  return groups;
}

bool rows_merge_problems(const std::vector<GroupPoints>& groups) {
  for (const auto& group : groups)
    for (const auto& [key, row] : group.rows)
      if (row.problems.size() > 1) return true;
  return false;
}

// Rows in the field's order (field_sorts_before).
std::vector<std::string> ordered_rows(const GroupPoints& group) {
  return sorted_by_field_value(group.row_order, group.rows);
}

PivotRow pivot_row(const PivotCellPoints& points, const std::vector<std::string>& implementations,
                   double alpha, const std::vector<RunBlock>& runs) {
  PivotRow row;
  row.value = points.value.text;
  std::vector<std::pair<const Record*, size_t>> present;
  for (size_t i = 0; i < implementations.size(); ++i) {
    const auto found = points.best.find(implementations[i]);
    row.cells.push_back({found == points.best.end() ? nullptr : found->second});
    if (row.cells.back().best) present.emplace_back(row.cells.back().best, i);
  }
  std::stable_sort(present.begin(), present.end(),
                   [](const auto& a, const auto& b) { return faster(a.first, b.first); });
  if (present.empty()) return row;
  row.winner = present[0].second;
  if (present.size() < 2) return row;
  row.runner_up = present[1].second;
  row.runner_up_ratio = present[1].first->median_ms() / present[0].first->median_ms();
  const Margin margin = margin_between(*present[0].first, present[1].first, alpha);
  row.margin = margin.margin;
  row.p_value = margin.test.p_value;
  row.conditions_differ = mixed_runs({present[0].first, present[1].first}, runs).mixed();
  return row;
}

// Every part of each group in words, and as labels those that differ between groups; the
// machine by its label.
void label_groups(const std::vector<GroupPoints>& gathered, WinnersPivot& pivot) {
  if (gathered.empty()) return;
  const size_t parts = gathered.front().parts.size();
  for (size_t p = 0; p < parts; ++p) {
    const bool varies = std::any_of(gathered.begin(), gathered.end(), [&](const GroupPoints& g) {
      return g.parts[p].key != gathered.front().parts[p].key;
    });
    for (size_t g = 0; g < gathered.size(); ++g) {
      const std::string& field = gathered[g].parts[p].field;
      const std::string text = field == "machine" ? machine_label(*gathered[g].first, true)
                                                  : text_of(*gathered[g].first, field);
      pivot.groups[g].parts.emplace_back(field, text);
      if (varies) pivot.groups[g].labels.emplace_back(field, text);
    }
  }
}

}  // namespace

WinnersPivot pivot_winners(const std::vector<const Record*>& points, const std::string& field,
                           const WinnersOptions& options, const std::vector<RunBlock>& runs) {
  std::string suggestion;
  if (!is_known_field(field, &suggestion))
    throw ResultsError("--by: unknown field '" + field + "'" +
                       (suggestion.empty() ? "" : " (did you mean '" + suggestion + "'?)") +
                       "; docs/report.md lists the fields");
  if (field == "implementation" || field == "configuration")
    throw ResultsError(
        "--by: the implementations are the columns already; give a field such as "
        "kernel.size, image.size or params.threads");
  const bool any = std::any_of(points.begin(), points.end(), [&](const Record* record) {
    return record->usable() && field_value(*record, field).has_value();
  });
  if (!any) throw ResultsError("--by: no ok point has the field '" + field + "'");

  WinnersPivot pivot;
  pivot.field = field;
  pivot.swept = swept_params(points);
  pivot.alpha = options.alpha;
  for (const Record* record : points)
    if (record->usable() && std::find(pivot.implementations.begin(), pivot.implementations.end(),
                                      record->implementation) == pivot.implementations.end())
      pivot.implementations.push_back(record->implementation);
  // A row must hold one problem: gaussian5 and gaussian5-s1 share kernel.type and kernel.size,
  // so where taking the field out would merge problems, every problem keeps its own group.
  std::vector<GroupPoints> gathered = gather_groups(points, field, false);
  if (rows_merge_problems(gathered)) gathered = gather_groups(points, field, true);
  std::vector<const Record*> shown;
  for (const auto& group : gathered) {
    PivotGroup out;
    for (const auto& key : ordered_rows(group)) {
      out.rows.push_back(pivot_row(group.rows.at(key), pivot.implementations, options.alpha, runs));
      for (const auto& cell : out.rows.back().cells)
        if (cell.best) shown.push_back(cell.best);
    }
    pivot.groups.push_back(out);
  }
  pivot.runs = mixed_runs(shown, runs);
  label_groups(gathered, pivot);
  return pivot;
}

}  // namespace convlab
