// Progress of `convlab run` on stderr.
//
// On a terminal: one bar line, redrawn twice a second by a ticker thread so that elapsed time and
// ETA keep moving during a long point: "[=====>    ] 12/81  elapsed 0m32s  ETA 1m05s  <point>".
// Piped (CI logs, files): a plain "convlab: 12/81 points, elapsed 0m32s, ETA 1m05s" line at most
// every `plain_interval_seconds`. Quiet prints only failed points; verbose adds a line per point
// with its outcome. The last line compares the run's time with the estimate made before it; a run
// that measured nothing (every point kept from earlier runs) has none.
//
// The ETA starts from the nominal estimates of the points still to run (run/plan_report.hpp) and
// is corrected by how long the points measured so far took against their own estimates.
//
// A `--devices` run shows one line for all its workers (HandOutProgress): problem groups and
// points done, and the ETA of the hand-out (HandOutEta), which forecasts the groups left as the
// queue hands them out.
#pragma once

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/stopwatch.hpp"
#include "run/hand_out.hpp"

namespace convlab {

struct ProgressStyle {
  bool terminal = false;  // redraw a bar in place; otherwise plain lines
  bool quiet = false;
  bool verbose = false;
  double redraw_interval_seconds = 0.5;
  double plain_interval_seconds = 10.0;
  int width = 100;  // terminal columns; the bar line is cut to fit
  // Who speaks in plain lines ("convlab", or "convlab [device 1]" for a device worker); verbose
  // and failure lines of a worker start with "[device 1] ".
  std::string who = "convlab";
  std::string tag;
};

// Seconds left in a run. current_* describe the point being measured (0 when none); the estimates
// are scaled by measured_done / estimated_done, the ratio of actual to estimated time of the points
// measured so far (1 before the first one). The current point counts its remaining part only,
// never below zero.
double corrected_eta(double estimated_after_current, double current_estimate,
                     double current_elapsed, double measured_done, double estimated_done);

// Where a run stands: points dealt with (kept, run or skipped) of its total, and the seconds left.
struct ProgressSnapshot {
  size_t done = 0, total = 0;
  double eta_seconds = 0;
};

class Progress {
 public:
  // `estimated_seconds` is the nominal estimate of the points expected to run (not kept ones).
  Progress(size_t total, double estimated_seconds, ProgressStyle style, std::FILE* stream);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void kept(size_t index, const std::string& label);
  // A point starts: its own estimate and the estimate of the points after it still to run.
  void starting(size_t index, const std::string& label, double point_estimate,
                double estimated_after);
  // It ended; measured: it ran (not skipped), so its time corrects the ETA.
  void finished(size_t index, const std::string& label, const std::string& outcome, bool failed,
                bool measured);
  void done();
  ProgressSnapshot snapshot();

  static ProgressStyle style_for_stderr(bool quiet, bool verbose);

 private:
  void tick();
  void draw_locked();
  void plain_line_locked();
  double eta_locked() const;

  size_t total_;
  double estimated_total_;
  ProgressStyle style_;
  std::FILE* stream_;
  Stopwatch clock_, point_clock_, since_plain_line_;

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false, drawn_ = false, in_point_ = false;
  bool any_started_ = false;  // a point ran: the closing line has a time worth saying
  size_t position_ = 0;       // points dealt with (kept, run or skipped)
  std::string label_;
  double point_estimate_ = 0, estimated_after_ = 0;
  double measured_done_ = 0, estimated_done_ = 0;
  std::thread ticker_;
};

std::string format_duration(double seconds);

// The time left of a run whose problem groups are handed out (run/hand_out.hpp): the groups not
// yet done, forecast as the queue would hand them out (forecast_hand_out), every estimate scaled by
// how long the groups done so far took against their own estimates (1 before the first). A group
// being measured counts the rest of its scaled estimate, never below zero. Times are seconds since
// the run started.
class HandOutEta {
 public:
  // `item_seconds`: each item's estimate on one worker; `image_setup`: a worker's cost of changing
  // to each image (run/plan_report.hpp).
  HandOutEta(std::vector<double> item_seconds, std::vector<double> image_setup, int workers);
  // Worker `worker` took `item` at `now` (it starts on it when the items it holds before are done).
  void taken(int worker, std::size_t item, std::size_t image, double now);
  void done(int worker, double now);
  // The worker ended: what it held is the queue's again.
  void lost(int worker);
  // Measured over estimated seconds of the items done; 1 before the first.
  double scale() const;
  double seconds_left(const HandOut& queue, double now) const;

 private:
  std::vector<double> item_seconds_, image_setup_;
  std::vector<std::optional<std::size_t>> image_;  // per worker: the image it holds
  std::vector<std::deque<double>> held_;           // per worker: estimates of its items
  std::vector<double> began_;                      // per worker: its first item's start
  double measured_ = 0.0, estimated_ = 0.0;
};

// The one progress line of a `--devices` run, drawn by the run as it serves its workers (no thread
// of its own): "[=====>     ] 5/12 problem groups, 155/372 points, 2 workers  elapsed 0m32s  ETA
// 0m25s" on a terminal, a plain line every plain_interval_seconds otherwise, nothing when quiet.
class HandOutProgress {
 public:
  HandOutProgress(std::size_t groups, std::size_t points, int workers, double estimated_seconds,
                  ProgressStyle style, std::FILE* stream);
  // Where the run stands; draws when a line is due, asking `eta_seconds` then only.
  void update(std::size_t groups_done, std::size_t points_done,
              const std::function<double()>& eta_seconds);
  void done();

 private:
  void draw();
  std::size_t groups_, points_, groups_done_ = 0, points_done_ = 0;
  int workers_;
  double estimated_seconds_, eta_seconds_ = 0.0;
  ProgressStyle style_;
  std::FILE* stream_;
  Stopwatch clock_, since_line_;
  bool drawn_ = false;
};

}  // namespace convlab
