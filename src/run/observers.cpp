#include "run/observers.hpp"

#include "core/number_text.hpp"
#include "run/measured_points.hpp"
#include "run/plan_report.hpp"

namespace convlab {

void ObserverList::kept(const IdentifiedPoint& point) {
  for (auto* observer : observers_) observer->kept(point);
}

void ObserverList::starting(const std::vector<IdentifiedPoint>& group) {
  for (auto* observer : observers_) observer->starting(group);
}

void ObserverList::finished(const IdentifiedPoint& point, const Record& record, bool first) {
  for (auto* observer : observers_) observer->finished(point, record, first);
}

void ObserverList::recorded(const std::vector<IdentifiedPoint>& group,
                            const ProgressSnapshot& where) {
  for (auto* observer : observers_) observer->recorded(group, where);
}

void ObserverList::done() {
  for (auto* observer : observers_) observer->done();
}

ProgressObserver::ProgressObserver(const Config& config, const std::vector<Point>& plan,
                                   const std::vector<std::size_t>& order,
                                   const std::vector<std::optional<PlannedSkip>>& skips,
                                   const ResultsFile& results, bool force, ProgressStyle style)
    : position_(plan.size(), 0), estimate_(estimated_plan_seconds(config, plan, skips)) {
  const MeasuredPoints measured = force ? MeasuredPoints() : MeasuredPoints(results);
  // A search's point stands in `order` once per place its steps take, from its first.
  places_.assign(plan.size(), 0);
  for (std::size_t p = order.size(); p-- > 0;) {
    position_[order[p]] = p;
    ++places_[order[p]];
  }
  // A guess: the record key, which decides, needs the image bytes.
  cost_after_.assign(order.size() + 1, 0.0);
  for (std::size_t p = order.size(); p-- > 0;) {
    const bool expected_kept = measured.has(config, plan[order[p]]);
    cost_after_[p] = cost_after_[p + 1] + (expected_kept ? 0.0 : estimate_[order[p]]);
  }
  progress_ = std::make_unique<Progress>(order.size(), cost_after_[0], style, stderr);
}

std::size_t ProgressObserver::position_of(const IdentifiedPoint& point) const {
  if (point.search_step == 0) return position_[point.index];
  // A search bounded by time alone may take more steps than its places: they share its last.
  const std::size_t place =
      std::min(point.search_step, std::max<std::size_t>(1, places_[point.index]));
  return position_[point.index] + place - 1;
}

void ProgressObserver::kept(const IdentifiedPoint& point) {
  progress_->kept(position_of(point), point.label);
}

void ProgressObserver::starting(const std::vector<IdentifiedPoint>& group) {
  if (group.empty()) return;
  if (group.size() == 1) {
    const std::size_t p = position_of(group.front());
    progress_->starting(p, group.front().label, estimate_[group.front().index], cost_after_[p + 1]);
    return;
  }
  double group_estimate = 0.0;
  for (const auto& point : group) group_estimate += estimate_[point.index];
  progress_->starting(
      position_of(group.front()),
      std::to_string(group.size()) + " points interleaved, from " + group.front().label,
      group_estimate, cost_after_[position_of(group.back()) + 1]);
}

void ProgressObserver::finished(const IdentifiedPoint& point, const Record& record, bool first) {
  progress_->finished(position_of(point), point.label, outcome_text(record),
                      record.status == Status::failed, first && record.status != Status::skipped);
}

void ProgressObserver::done() {
  progress_->done();
}

void RunCounter::finished(const IdentifiedPoint&, const Record& record, bool) {
  if (record.status == Status::ok)
    ++counts_.ran;
  else if (record.status == Status::skipped)
    ++counts_.skipped;
  else
    ++counts_.failed;
}

std::string outcome_text(const Record& record) {
  if (record.status != Status::ok)
    return std::string(to_string(record.status)) + " (" + record.reason + ")";
  const SampleStats& stats = record.timing->compute.stats;
  return "median " + format_number(stats.median, 4) + " ms, CV " +
         format_number(stats.cv * 100, 2) + " %, " + std::to_string(record.timing->repetitions) +
         " repetitions, verified";
}

}  // namespace convlab
