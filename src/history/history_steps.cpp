#include "history/history_steps.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"
#include "history/change_points.hpp"
#include "measure/stats.hpp"

namespace convlab {
namespace {

// A median's own standard error, in logarithms: its samples' spread (the interquartile range
// over 1.349 for a normal one) times 1.2533 over the root of their count.
double median_noise(const CommitPoint& commit) {
  if (commit.samples.size() < 2 || commit.q1 <= 0 || commit.q3 <= 0) return 0.0;
  const double spread = (std::log(commit.q3) - std::log(commit.q1)) / 1.349;
  return 1.2533 * spread / std::sqrt(static_cast<double>(commit.samples.size()));
}

// Below this the series is taken as exact to a tenth of a percent: the penalty stays positive.
constexpr double kLeastNoise = 1e-3;

double series_noise(const PointHistory& point, const std::vector<double>& logs) {
  std::vector<double> within;
  for (const CommitPoint& commit : point.commits) within.push_back(median_noise(commit));
  return std::max({neighbour_noise(logs), summarize(within).median, kLeastNoise});
}

// The commits [begin, end) of a point: their values' median and their samples pooled.
struct Piece {
  double value = 0;
  std::vector<double> samples;
};

Piece piece_of(const PointHistory& point, std::size_t begin, std::size_t end) {
  Piece piece;
  std::vector<double> values;
  for (std::size_t i = begin; i < end; ++i) {
    values.push_back(point.commits[i].value);
    piece.samples.insert(piece.samples.end(), point.commits[i].samples.begin(),
                         point.commits[i].samples.end());
  }
  piece.value = summarize(values).median;
  return piece;
}

void add_steps(const History& history, std::size_t index, const StepSettings& settings,
               std::vector<HistoryStep>& steps) {
  const PointHistory& point = history.points[index];
  const std::size_t n = point.commits.size();
  if (n < 2) return;
  std::vector<double> logs;
  for (const CommitPoint& commit : point.commits) logs.push_back(std::log(commit.value));
  const double sigma = series_noise(point, logs);
  const std::vector<std::size_t> starts =
      change_points(logs, change_penalty(sigma, n, settings.penalty_factor));
  for (std::size_t c = 0; c < starts.size(); ++c) {
    const std::size_t begin = c == 0 ? 0 : starts[c - 1];
    const std::size_t end = c + 1 < starts.size() ? starts[c + 1] : n;
    const Piece before = piece_of(point, begin, starts[c]);
    const Piece after = piece_of(point, starts[c], end);
    HistoryStep step;
    step.point = index;
    step.at = point.commits[starts[c]].commit;
    step.before = point.commits[starts[c] - 1].commit;
    step.before_value = before.value;
    step.after_value = after.value;
    step.ratio = before.value > 0 ? after.value / before.value : 1.0;
    step.before_samples = before.samples.size();
    step.after_samples = after.samples.size();
    step.test = mann_whitney_u(before.samples, after.samples);
    step.verdict = change_verdict(step.ratio, step.test, before.samples.size(),
                                  after.samples.size(), settings.threshold, settings.alpha);
    const auto& earlier = point.commits[starts[c] - 1].calibration;
    const auto& later = point.commits[starts[c]].calibration;
    if (earlier && later) step.calibration_gap = calibration_gap(*earlier, *later);
    steps.push_back(step);
  }
}

}  // namespace

std::vector<HistoryStep> find_steps(const History& history, const StepSettings& settings) {
  std::vector<HistoryStep> steps;
  for (std::size_t i = 0; i < history.points.size(); ++i) add_steps(history, i, settings, steps);
  return steps;
}

std::string step_words(const History& history, const HistoryStep& step) {
  const PointHistory& point = history.points[step.point];
  const HistoryCommit& commit = history.index.commits[step.at];
  const double factor = step.ratio >= 1 ? step.ratio : 1 / step.ratio;
  std::string words = point.point + ": " + format_number(factor, 3) + "x " +
                      (step.ratio >= 1 ? "slower" : "faster") + " at " + commit.id.substr(0, 12) +
                      " (" + commit.subject + "), " + format_number(step.before_value, 4) + " -> " +
                      format_number(step.after_value, 4) + " (" + history.metric +
                      "), Mann-Whitney p = " + format_number(step.test.p_value, 2) + " (" +
                      std::to_string(step.before_samples) + " and " +
                      std::to_string(step.after_samples) + " samples): " + to_string(step.verdict);
  if (history.panels.size() > 1) words += "; on " + history.panels[point.panel].label;
  if (step.calibration_gap && step.calibration_gap->apart())
    words += "; the CPU calibration moved at the same commit (" + gap_words(*step.calibration_gap) +
             "): another machine or machine state, perhaps not the code";
  return words;
}

}  // namespace convlab
