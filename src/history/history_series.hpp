// A history folder read for its numbers: every point measured by the convlab of each commit, as
// a series over the commits in order, per machine. Machines are kept apart: by host (as records
// are, store/machine.hpp) and, within one host, by CPU calibration, where the calibration moved
// beyond its limits for good (a host moved to other hardware mid-history): each stretch of
// commits is a panel of its own, and no step is looked for across two panels.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/history_index.hpp"
#include "query/results_document.hpp"

namespace convlab {

struct HistoryPanel {
  std::string machine_folder;
  std::string label;  // the machine in words, with its calibration when a host has several panels
  std::optional<CpuCalibration> calibration;  // the median figures of its runs
};

// One point as the convlab of one commit measured it.
struct CommitPoint {
  std::size_t commit = 0;  // in HistoryIndex::commits
  const Record* record = nullptr;
  std::vector<double> samples;  // the metric's raw samples
  double value = 0, q1 = 0, q3 = 0;
  std::optional<CpuCalibration> calibration;  // of the run that measured it
};

// One point (what it measures, on one panel) across the commits that measured it.
struct PointHistory {
  std::size_t panel = 0;
  std::string definition;     // point_definition: the same point whatever the build
  std::string point;          // point_in_words, for messages
  std::string problem;        // image, kernel, border and output in words: a figure each
  std::string configuration;  // implementation and params in words: a line each
  std::string implementation;
  std::vector<CommitPoint> commits;  // in commit order
  // Across the commits: the median of the commits' values and their spread, the median of the
  // absolute deviations from it relative to it (0.03: the commits' medians lie within 3 % of it
  // for half of them).
  double median = 0, spread = 0;
};

struct History {
  std::string directory;
  HistoryIndex index;
  std::string metric = "median_ms";
  std::vector<HistoryPanel> panels;
  std::vector<PointHistory> points;  // by panel, problem, configuration
  std::vector<std::string> notes;    // results that could not be read, in words
  // The results of each run that left some, kept for the records the points name.
  std::vector<std::unique_ptr<ResultsDocument>> documents;
};

// The panel of each of one host's runs, given their calibrations in commit order (0, 1, ...): a
// new panel starts at a run apart from the panel so far (its median calibration, beyond the
// limits of cpu_calibration.hpp) when the next calibrated run is apart from the panel too and
// not from it: the machine changed there. A lone calibration apart, under a moment's load, stays
// in its panel. Runs without a calibration stay in the panel of the run before them.
std::vector<std::size_t> calibration_panels(
    const std::vector<std::optional<CpuCalibration>>& in_commit_order);

// Reads DIR/history.json and the results of every run it lists. `metric` is a timed field
// (median_ms, end_to_end_ms, ...); a run whose results cannot be read is a note, not an error.
// Throws HistoryError for a folder that holds no history.
History load_history(const std::string& dir, const std::string& metric = "median_ms");

}  // namespace convlab
