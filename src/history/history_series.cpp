#include "history/history_series.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <tuple>

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

// The panels of one machine: its runs in commit order, cut where the calibration moved (a
// panel each, labelled by its calibration when there are several).
void add_panels(History& history, std::vector<ReadRun*> runs) {
  std::stable_sort(runs.begin(), runs.end(), [&](const ReadRun* a, const ReadRun* b) {
    return *history.index.commit_index(a->run->commit) <
           *history.index.commit_index(b->run->commit);
  });
  std::vector<std::optional<CpuCalibration>> calibrations;
  for (const ReadRun* run : runs) calibrations.push_back(run->calibration);
  const std::vector<std::size_t> panel_of = calibration_panels(calibrations);
  const std::size_t panels = panel_of.empty() ? 0 : panel_of.back() + 1;
  const std::size_t first = history.panels.size();
  for (std::size_t p = 0; p < panels; ++p) {
    HistoryPanel panel;
    panel.machine_folder = runs.front()->run->machine.folder;
    panel.label = runs.front()->run->machine.label.empty() ? panel.machine_folder
                                                           : runs.front()->run->machine.label;
    std::vector<const CpuCalibration*> members;
    for (std::size_t i = 0; i < runs.size(); ++i)
      if (panel_of[i] == p && runs[i]->calibration) members.push_back(&*runs[i]->calibration);
    if (!members.empty()) panel.calibration = median_calibration(members);
    if (panels > 1)
      panel.label += panel.calibration ? ", " + calibration_words(*panel.calibration)
                                       : ", calibration not recorded";
    history.panels.push_back(std::move(panel));
  }
  for (std::size_t i = 0; i < runs.size(); ++i) runs[i]->panel = first + panel_of[i];
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
        point.point = point_in_words(*record);
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
    std::stable_sort(
        point.commits.begin(), point.commits.end(),
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

std::vector<std::size_t> calibration_panels(
    const std::vector<std::optional<CpuCalibration>>& in_commit_order) {
  std::vector<std::size_t> panel_of(in_commit_order.size(), 0);
  std::vector<const CpuCalibration*> panel;  // the calibrations of the panel so far
  std::size_t current = 0;
  const auto apart_from_panel = [&](const CpuCalibration& calibration) {
    if (panel.empty()) return false;
    const auto gap = calibration_gap(median_calibration(panel), calibration);
    return gap && gap->apart();
  };
  for (std::size_t i = 0; i < in_commit_order.size(); ++i) {
    panel_of[i] = current;
    if (!in_commit_order[i]) continue;
    const CpuCalibration& here = *in_commit_order[i];
    if (apart_from_panel(here)) {
      // The next calibrated run decides: apart from the panel too and close to this one, the
      // machine changed here; otherwise this calibration is an outlier of the panel.
      std::size_t next = i + 1;
      while (next < in_commit_order.size() && !in_commit_order[next]) ++next;
      const bool confirmed = next < in_commit_order.size() &&
                             apart_from_panel(*in_commit_order[next]) &&
                             !calibration_gap(here, *in_commit_order[next])->apart();
      if (confirmed) {
        panel.clear();
        panel_of[i] = ++current;
      }
    }
    panel.push_back(&here);
  }
  return panel_of;
}

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
      history.documents.push_back(std::make_unique<ResultsDocument>(load_results_document(path)));
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
