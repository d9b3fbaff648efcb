#include "history/history_series.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>

#include "measure/stats.hpp"
#include "query/record_fields.hpp"
#include "query/record_queries.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

// A run of the history whose results were read, with the calibration its points go by.
struct ReadRun {
  const CommitRun* run = nullptr;
  const ResultsDocument* results = nullptr;
  std::optional<CpuCalibration> calibration;
  std::size_t panel = 0;
};

// The calibration of a run: its own run block's (a convlab that measures one), else the one
// `history run` measured before starting it.
std::optional<CpuCalibration> calibration_of(const CommitRun& run, const ResultsDocument& results) {
  const std::vector<RunBlock> runs = results.measuring_runs();
  for (auto it = runs.rbegin(); it != runs.rend(); ++it)
    if (it->cpu_calibration) return it->cpu_calibration;
  return run.calibration;
}

CpuCalibration median_calibration(const std::vector<const CpuCalibration*>& calibrations) {
  std::vector<double> copy, fma;
  for (const CpuCalibration* c : calibrations) {
    copy.push_back(c->copy_bytes_per_s);
    fma.push_back(c->fma_per_s);
  }
  CpuCalibration median;
  median.threads = calibrations.front()->threads;
  median.copy_bytes_per_s = summarize(copy).median;
  median.fma_per_s = summarize(fma).median;
  return median;
}

// Groups of one machine's runs whose calibrations chain within the limit of each other (single
// linkage): a gap wider than the limit between two groups separates them. Uncalibrated runs join
// the one group when there is one, and are a group of their own otherwise.
std::vector<std::vector<ReadRun*>> calibration_groups(const std::vector<ReadRun*>& runs) {
  std::vector<std::size_t> group(runs.size());
  std::iota(group.begin(), group.end(), 0);
  const auto root = [&](std::size_t i) {
    while (group[i] != i) i = group[i] = group[group[i]];
    return i;
  };
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (std::size_t j = i + 1; j < runs.size(); ++j) {
      if (!runs[i]->calibration || !runs[j]->calibration) continue;
      const auto gap = calibration_gap(*runs[i]->calibration, *runs[j]->calibration);
      if (gap && !gap->apart()) group[root(j)] = root(i);
    }
  std::map<std::size_t, std::vector<ReadRun*>> calibrated;
  std::vector<ReadRun*> uncalibrated;
  for (std::size_t i = 0; i < runs.size(); ++i)
    (runs[i]->calibration ? calibrated[root(i)] : uncalibrated).push_back(runs[i]);
  std::vector<std::vector<ReadRun*>> groups;
  for (auto& [first, members] : calibrated) groups.push_back(std::move(members));
  if (groups.size() == 1)
    groups.front().insert(groups.front().end(), uncalibrated.begin(), uncalibrated.end());
  else if (!uncalibrated.empty())
    groups.push_back(std::move(uncalibrated));
  return groups;
}

// The panels of one machine: a group each, labelled by its calibration when there are several.
void add_panels(History& history, const std::vector<ReadRun*>& runs) {
  const std::vector<std::vector<ReadRun*>> groups = calibration_groups(runs);
  for (const auto& members : groups) {
    HistoryPanel panel;
    panel.machine_folder = members.front()->run->machine.folder;
    panel.label = members.front()->run->machine.label.empty() ? panel.machine_folder
                                                              : members.front()->run->machine.label;
    std::vector<const CpuCalibration*> calibrations;
    for (const ReadRun* run : members)
      if (run->calibration) calibrations.push_back(&*run->calibration);
    if (!calibrations.empty()) panel.calibration = median_calibration(calibrations);
    if (groups.size() > 1)
      panel.label += panel.calibration ? ", " + calibration_words(*panel.calibration)
                                       : ", calibration not recorded";
    for (ReadRun* run : members) run->panel = history.panels.size();
    history.panels.push_back(std::move(panel));
  }
}

std::string problem_words(const Record& record) {
  return record.image.name + " (" + std::to_string(record.image.width) + "x" +
         std::to_string(record.image.height) + ", " + std::to_string(record.image.channels) +
         " ch), " + record.kernel.name + ", " + record.border + ", " + record.output;
}

CommitPoint commit_point(std::size_t commit, const Record& record, const std::string& metric,
                         const std::optional<CpuCalibration>& calibration) {
  CommitPoint point;
  point.commit = commit;
  point.record = &record;
  point.samples = field_samples(record, metric);
  point.value = field_value(record, metric)->number;
  const auto quartiles = field_quartiles(record, metric);
  point.q1 = quartiles ? quartiles->first : point.value;
  point.q3 = quartiles ? quartiles->second : point.value;
  point.calibration = calibration;
  return point;
}

// Median across commits and the median absolute deviation from it, relative.
void summarize_across_commits(PointHistory& point) {
  std::vector<double> values;
  for (const CommitPoint& commit : point.commits) values.push_back(commit.value);
  point.median = summarize(values).median;
  std::vector<double> deviations;
  for (double value : values) deviations.push_back(std::fabs(value - point.median));
  point.spread = point.median > 0 ? summarize(deviations).median / point.median : 0.0;
}

void add_points(History& history, const std::vector<ReadRun>& runs) {
  std::map<std::string, std::size_t> found;  // panel, machine and definition -> points index
  for (const ReadRun& run : runs) {
    const std::size_t commit = *history.index.commit_index(run.run->commit);
    for (const Record* record : latest_ok_points(*run.results)) {
      if (!field_value(*record, history.metric)) continue;
      const std::string key = std::to_string(run.panel) + '\x1f' + machine_key(*record) + '\x1f' +
                              point_definition(*record);
      auto [it, added] = found.emplace(key, history.points.size());
      if (added) {
        PointHistory point;
        point.panel = run.panel;
        point.definition = point_definition(*record);
        point.point = describe_point(*record);
        point.problem = problem_words(*record);
        point.configuration = configuration_words(*record);
        point.implementation = record->implementation;
        history.points.push_back(std::move(point));
      }
      history.points[it->second].commits.push_back(
          commit_point(commit, *record, history.metric, run.calibration));
    }
  }
  for (PointHistory& point : history.points) {
    std::stable_sort(point.commits.begin(), point.commits.end(),
                     [](const CommitPoint& a, const CommitPoint& b) { return a.commit < b.commit; });
    summarize_across_commits(point);
  }
  std::stable_sort(history.points.begin(), history.points.end(),
                   [](const PointHistory& a, const PointHistory& b) {
                     return std::tie(a.panel, a.problem, a.configuration) <
                            std::tie(b.panel, b.problem, b.configuration);
                   });
}

bool left_results(CommitOutcome outcome) {
  return outcome == CommitOutcome::ok || outcome == CommitOutcome::points_failed ||
         outcome == CommitOutcome::interrupted;
}

}  // namespace

History load_history(const std::string& dir, const std::string& metric) {
  History history;
  history.directory = dir;
  history.metric = metric;
  history.index = read_history_index(dir);
  std::vector<ReadRun> runs;
  for (const CommitRun& run : history.index.runs) {
    if (!left_results(run.outcome)) continue;
    const std::string path = (std::filesystem::path(dir) / run.results()).string();
    try {
      history.documents.push_back(
          std::make_unique<ResultsDocument>(load_results_document(path)));
    } catch (const std::exception& error) {
      history.notes.push_back(run.commit.substr(0, 12) + " on " + run.machine.folder +
                              ": results not read: " + error.what());
      continue;
    }
    const ResultsDocument& results = *history.documents.back();
    runs.push_back({&run, &results, calibration_of(run, results), 0});
  }
  std::map<std::string, std::vector<ReadRun*>> by_machine;
  for (ReadRun& run : runs) by_machine[run.run->machine.folder].push_back(&run);
  for (const auto& [folder, machine_runs] : by_machine) add_panels(history, machine_runs);
  add_points(history, runs);
  return history;
}

}  // namespace convlab
