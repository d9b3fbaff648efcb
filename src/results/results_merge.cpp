#include "results/results_merge.hpp"

#include <algorithm>
#include <set>

#include "results/derive.hpp"
#include "results/machine.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

void add_or_replace(std::vector<json>& records, const json& record) {
  for (auto& existing : records)
    if (measures_same_point(existing, record)) {
      existing = record;
      return;
    }
  records.push_back(record);
}

void keep_referenced_runs(ResultsFile& results, const std::string& contributing_run) {
  std::set<std::string> referenced{contributing_run};
  for (const auto& record : results.records) referenced.insert(record.value("run_id", ""));
  std::vector<json> runs;
  for (auto& run : results.runs)
    if (referenced.count(run.value("id", "")) > 0) runs.push_back(std::move(run));
  results.runs = std::move(runs);
}

}  // namespace

bool measures_same_point(const json& earlier, const json& later) {
  if (earlier.value("key", "") == later.value("key", "")) return true;
  // Another machine's measurement of the point is another record: machines are kept apart.
  return earlier.value("point_id", "") == later.value("point_id", "") &&
         machine_key(earlier) == machine_key(later);
}

void merge_contribution(ResultsFile& results, const RunContribution& contribution,
                        const std::string& path) {
  const std::string name = contribution.experiment.value("name", "");
  const std::string earlier = results.experiment.value("name", "");
  if (!earlier.empty() && earlier != name)
    throw ResultsFileError(path + ": holds experiment '" + earlier + "', not '" + name +
                           "'; choose another --out");
  results.experiment = contribution.experiment;
  const std::string run_id = contribution.run.value("id", "");
  const auto run = std::find_if(results.runs.begin(), results.runs.end(),
                                [&](const json& r) { return r.value("id", "") == run_id; });
  if (run != results.runs.end())
    *run = contribution.run;
  else
    results.runs.push_back(contribution.run);
  for (const auto& record : contribution.records) add_or_replace(results.records, record);
  for (const auto& entry : contribution.gallery)
    if (std::find(results.gallery.begin(), results.gallery.end(), entry) == results.gallery.end())
      results.gallery.push_back(entry);
  keep_referenced_runs(results, run_id);
  derive_metrics(results);
}

}  // namespace convlab
