// Steps in a history: for each point, the change points of the logarithms of its commits' values
// (change_points.hpp, PELT), each confirmed or not by the Mann-Whitney U test on the raw samples
// of the commits on either side of it, as `convlab compare` judges two results. A step that makes
// the point slower beyond the threshold, confirmed, is a regression: `convlab history check` exits
// 1 on one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "history/history_series.hpp"
#include "measure/mann_whitney.hpp"

namespace convlab {

struct StepSettings {
  double threshold = 0.10;      // the change that counts: 10 %
  double alpha = 0.05;          // the Mann-Whitney test's level
  double penalty_factor = 8.0;  // change_penalty's
};

struct HistoryStep {
  std::size_t point = 0;   // in History::points
  std::size_t at = 0;      // the first commit of the new level (HistoryIndex::commits)
  std::size_t before = 0;  // the last commit of the old level that measured the point
  double before_value = 0, after_value = 0;  // medians of the commits' values of either piece
  double ratio = 1;                          // after / before: above 1 slower for times
  std::size_t before_samples = 0, after_samples = 0;
  MannWhitney test;
  ChangeVerdict verdict = ChangeVerdict::same;
  // The calibrations of the two commits around the step, apart: a step that comes with another
  // machine state may be the machine's.
  std::optional<CalibrationGap> calibration_gap;

  bool regression() const { return verdict == ChangeVerdict::slower; }
  bool improvement() const { return verdict == ChangeVerdict::faster; }
};

// Every change point of every point of the history with its test and verdict, by point and
// commit. The noise of a point's series is the larger of its neighbour noise and the typical
// spread of one commit's median (its samples' interquartile range); a series of one commit has
// no step.
std::vector<HistoryStep> find_steps(const History& history, const StepSettings& settings);

// "sequential | noise (512x512, 3 ch) | gaussian7 | replicate | u8: 2.01x slower at 1a2b3c4d5e6f
// (Subject of the commit), 0.52 -> 1.05 ms, Mann-Whitney p = 0.0002 (30 and 20 samples)".
std::string step_words(const History& history, const HistoryStep& step);

}  // namespace convlab
