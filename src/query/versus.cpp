#include "query/versus.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/closest_name.hpp"
#include "core/number_text.hpp"
#include "query/record_fields.hpp"
#include "query/results_document.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

// The parts of a problem, in the order tables show them. The machine is the host: a CUDA point
// and a CPU point of one host answer the same problem (is my kernel faster than openmp?), where
// the winners' table keeps the GPU apart.
const std::vector<std::string> kProblemParts = {"image.name", "kernel.name", "border", "output",
                                                "machine"};

// The fastest point of each implementation in one row, and the row's parts.
struct RowPoints {
  std::vector<std::pair<std::string, std::string>> parts;
  std::map<std::string, const Record*> best;
  std::set<std::string> problems;  // of the points in the row
  FieldValue value;                // --by: the field's value
};

std::string part_text(const Record& record, const std::string& field) {
  if (field == "machine") return machine_label(record, false);
  const auto value = field_value(record, field);
  return value ? value->text : "";
}

std::string problem_key(const Record& record) {
  return record.image.name + "\x1f" + record.image.sha256 + "\x1f" + record.kernel.name + "\x1f" +
         record.border + "\x1f" + record.output + "\x1f" + host_key(record);
}

bool usable(const Record* record) {
  return record->usable() && record->median_ms() > 0;
}

// Whether --by FIELD stands for problem part `part`: the image's facets for its name, the
// kernel's for its name.
bool field_replaces(const std::string& field, const std::string& part) {
  if (part == "image.name") return field.rfind("image.", 0) == 0;
  if (part == "kernel.name") return field.rfind("kernel.", 0) == 0;
  return field == part;
}

// The rows: one per problem, or with --by one per value of the field among the points that share
// the rest of their problem. Where that would put two problems in one row (gaussian5 and box5 at
// kernel.size 5), every problem keeps its own rows (`whole`).
std::vector<RowPoints> gather_rows(const std::vector<const Record*>& points,
                                   const std::optional<std::string>& by, bool whole) {
  std::vector<RowPoints> rows;
  std::map<std::string, size_t> index;
  for (const Record* record : points) {
    if (!usable(record)) continue;
    std::vector<std::pair<std::string, std::string>> parts;
    for (const auto& part : kProblemParts)
      if (!by || whole || !field_replaces(*by, part))
        parts.emplace_back(part, part_text(*record, part));
    FieldValue value;
    if (by) {
      const auto found = field_value(*record, *by);
      if (!found) continue;
      value = *found;
      parts.emplace_back(*by, value.text);
    }
    std::string key;
    for (const auto& part : parts) key += part.second + "\x1e";
    key += host_key(*record);
    const auto [at, added] = index.emplace(key, rows.size());
    if (added) rows.push_back({parts, {}, {}, value});
    RowPoints& row = rows[at->second];
    row.problems.insert(problem_key(*record));
    const Record*& best = row.best[record->implementation];
    if (best == nullptr || record->median_ms() < best->median_ms()) best = record;
  }
  return rows;
}

std::vector<RowPoints> rows_of(const std::vector<const Record*>& points,
                               const std::optional<std::string>& by) {
  if (!by) return gather_rows(points, by, true);
  std::string suggestion;
  if (!is_known_field(*by, &suggestion))
    throw ResultsError("--by: unknown field '" + *by + "'" +
                       (suggestion.empty() ? "" : " (did you mean '" + suggestion + "'?)") +
                       "; docs/report.md lists the fields");
  if (*by == "implementation" || *by == "configuration")
    throw ResultsError(
        "--by: the implementations are compared already; give a field such as "
        "kernel.size, image.size or params.threads");
  std::vector<RowPoints> rows = gather_rows(points, by, false);
  if (rows.empty()) throw ResultsError("--by: no ok point has the field '" + *by + "'");
  const bool merges = std::any_of(rows.begin(), rows.end(),
                                  [](const RowPoints& row) { return row.problems.size() > 1; });
  if (merges) rows = gather_rows(points, by, true);
  // Groups (the same parts but the field's value) in the order they were met, each in the field's
  // order.
  std::map<std::string, size_t> group_of;
  std::vector<size_t> group(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string key;
    for (size_t p = 0; p + 1 < rows[r].parts.size(); ++p) key += rows[r].parts[p].second + "\x1e";
    group[r] = group_of.emplace(key, group_of.size()).first->second;
  }
  std::vector<size_t> order(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) order[r] = r;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (group[a] != group[b]) return group[a] < group[b];
    return field_sorts_before(rows[a].value, rows[b].value);
  });
  std::vector<RowPoints> sorted;
  for (size_t r : order) sorted.push_back(std::move(rows[r]));
  return sorted;
}

VersusCell compare_cell(const Record* reference, const Record* point, const VersusOptions& options,
                        const std::vector<RunBlock>& runs) {
  VersusCell cell;
  cell.point = point;
  if (!reference || !point) return cell;
  const auto& a = reference->timing->compute.samples_ms;
  const auto& b = point->timing->compute.samples_ms;
  cell.ratio = point->median_ms() / reference->median_ms();
  cell.test = mann_whitney_u(a, b);
  cell.verdict =
      change_verdict(*cell.ratio, cell.test, a.size(), b.size(), options.threshold, options.alpha);
  cell.conditions_differ = mixed_runs({reference, point}, runs).mixed();
  return cell;
}

std::vector<std::string> implementations_of(const std::vector<const Record*>& points) {
  std::vector<std::string> names;
  for (const Record* record : points)
    if (usable(record) &&
        std::find(names.begin(), names.end(), record->implementation) == names.end())
      names.push_back(record->implementation);
  return names;
}

void check_against(const std::vector<std::string>& implementations, const std::string& against) {
  if (std::find(implementations.begin(), implementations.end(), against) != implementations.end()) {
    if (implementations.size() < 2)
      throw ResultsError("--vs " + against +
                         ": it is the only implementation with ok points; "
                         "there is nothing to compare it with");
    return;
  }
  std::string listed;
  for (const auto& name : implementations) listed += (listed.empty() ? "" : ", ") + name;
  const std::string close = closest_name(against, implementations);
  throw ResultsError("--vs " + against + ": no ok point of that implementation" +
                     (close.empty() ? "" : " (did you mean '" + close + "'?)") +
                     (listed.empty() ? "" : "; the implementations: " + listed));
}

// The parts equal in every row are said once; the others label the rows.
void split_parts(const std::vector<RowPoints>& gathered, VersusTable& table) {
  if (gathered.empty()) return;
  const auto& first = gathered.front().parts;
  for (size_t p = 0; p < first.size(); ++p) {
    const bool varies = std::any_of(gathered.begin(), gathered.end(), [&](const RowPoints& row) {
      return row.parts[p].second != first[p].second;
    });
    const bool is_field = table.by && first[p].first == *table.by;
    if (!varies && !is_field) table.constant.push_back(first[p]);
    for (size_t r = 0; r < gathered.size(); ++r) {
      table.rows[r].parts.push_back(gathered[r].parts[p]);
      if (varies || is_field) table.rows[r].labels.push_back(gathered[r].parts[p]);
    }
  }
}

}  // namespace

VersusTable compare_with_implementation(const std::vector<const Record*>& points,
                                        const std::vector<RunBlock>& runs,
                                        const VersusOptions& options) {
  VersusTable table;
  table.against = options.against;
  table.by = options.by;
  table.threshold = options.threshold;
  table.alpha = options.alpha;
  table.swept = swept_params(points);
  const std::vector<std::string> all = implementations_of(points);
  check_against(all, options.against);
  for (const auto& name : all)
    if (name != options.against) table.implementations.push_back(name);
  const std::vector<RowPoints> gathered = rows_of(points, options.by);
  std::vector<const Record*> shown;
  for (const RowPoints& row_points : gathered) {
    VersusRow row;
    const auto reference = row_points.best.find(options.against);
    row.reference = reference == row_points.best.end() ? nullptr : reference->second;
    if (row.reference) shown.push_back(row.reference);
    for (const auto& name : table.implementations) {
      const auto found = row_points.best.find(name);
      const Record* point = found == row_points.best.end() ? nullptr : found->second;
      row.cells.push_back(compare_cell(row.reference, point, options, runs));
      if (point) shown.push_back(point);
    }
    table.rows.push_back(std::move(row));
  }
  split_parts(gathered, table);
  table.runs = mixed_runs(shown, runs);
  return table;
}

std::string versus_row_words(const VersusRow& row) {
  std::string words;
  for (const auto& [field, value] : row.labels) words += (words.empty() ? "" : ", ") + value;
  return words;
}

std::string versus_cell_words(const VersusCell& cell) {
  if (!cell.ratio || !cell.verdict) return "no point";
  return format_number(*cell.ratio, 3) + "x, " + verdict_words(*cell.verdict, cell.test.p_value);
}

std::string versus_legend(const VersusTable& table) {
  return "each implementation's fastest configuration: its median over " + table.against +
         "'s fastest, below 1 is faster; the verdict as convlab compare gives it, the two-sided "
         "Mann-Whitney U test on the raw samples of the two: faster or slower when the ratio is "
         "beyond " +
         format_exact(table.threshold * 100) + " % and p < " + format_exact(table.alpha);
}

}  // namespace convlab
