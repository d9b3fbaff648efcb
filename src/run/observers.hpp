// Observers of a run: what is shown while points are measured (progress on stderr) and counted
// for the summary. The run tells them what happens; they neither measure nor write results.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "plan/skips.hpp"
#include "run/identified_point.hpp"
#include "run/progress.hpp"
#include "store/record.hpp"
#include "store/results_file.hpp"
#include "store/run_counts.hpp"

namespace convlab {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void kept(const IdentifiedPoint& /*point*/) {}
  // One point, or the points of one problem timed together, start.
  virtual void starting(const std::vector<IdentifiedPoint>& /*group*/) {}
  // `first_of_group`: the point that carries the time of its group.
  virtual void finished(const IdentifiedPoint& /*point*/, const Record& /*record*/,
                        bool /*first_of_group*/) {}
  // The records of a group are in the results file's journal; `where`: the run's progress.
  virtual void recorded(const std::vector<IdentifiedPoint>& /*group*/,
                        const ProgressSnapshot& /*where*/) {}
  virtual void done() {}
};

// Hands every event to each observer in turn.
class ObserverList : public RunObserver {
 public:
  void add(RunObserver& observer) { observers_.push_back(&observer); }
  void kept(const IdentifiedPoint& point) override;
  void starting(const std::vector<IdentifiedPoint>& group) override;
  void finished(const IdentifiedPoint& point, const Record& record, bool first) override;
  void recorded(const std::vector<IdentifiedPoint>& group, const ProgressSnapshot& where) override;
  void done() override;

 private:
  std::vector<RunObserver*> observers_;
};

// Progress (run/progress.hpp) over the points of `order` (plan indices, in the order they will
// be walked). The ETA starts from the estimates of the points expected to run: a point with an ok
// record of this build on this host in `results` is expected to be kept (measured_points.hpp).
class ProgressObserver : public RunObserver {
 public:
  ProgressObserver(const Config& config, const std::vector<Point>& plan,
                   const std::vector<std::size_t>& order,
                   const std::vector<std::optional<PlannedSkip>>& skips, const ResultsFile& results,
                   bool force, ProgressStyle style);
  void kept(const IdentifiedPoint& point) override;
  void starting(const std::vector<IdentifiedPoint>& group) override;
  void finished(const IdentifiedPoint& point, const Record& record, bool first) override;
  void done() override;
  ProgressSnapshot snapshot() { return progress_->snapshot(); }

 private:
  std::size_t position_of(const IdentifiedPoint& point) const;

  std::vector<std::size_t> position_;  // by plan index: its (first) place in the order
  std::vector<std::size_t> places_;    // by plan index: its places (a search: one per step)
  std::vector<double> estimate_;       // by plan index
  std::vector<double> cost_after_;     // by position: estimate of the points from there on
  std::unique_ptr<Progress> progress_;
};

// How the points ended, for the counts line.
class RunCounter : public RunObserver {
 public:
  void kept(const IdentifiedPoint&) override { ++counts_.kept; }
  void finished(const IdentifiedPoint&, const Record& record, bool) override;
  const RunCounts& counts() const { return counts_; }
  RunCounts& counts() { return counts_; }

 private:
  RunCounts counts_;
};

// "median 0.12 ms, CV 1.3 %, 12 repetitions, verified", or the status and its reason.
std::string outcome_text(const Record& record);

}  // namespace convlab
