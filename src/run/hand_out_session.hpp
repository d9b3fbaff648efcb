// The run's side of the hand-out of `convlab run --devices` (run/hand_out.hpp): the queue of the
// job's CUDA problem groups, a socket per worker (run/hand_out_channel.hpp), the one progress line
// with the ETA of all workers, and what is said when a worker ends holding a group. The device
// workers backend (run/device_workers.cpp) starts the workers and reaps them; this serves them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "run/backend.hpp"
#include "run/hand_out.hpp"
#include "run/hand_out_channel.hpp"
#include "run/progress.hpp"

namespace convlab {

class HandOutSession {
 public:
  // Groups with ok records of a device on this host (a stopped run's) are pinned to its worker.
  explicit HandOutSession(const RunJob& job);
  ~HandOutSession();
  HandOutSession(const HandOutSession&) = delete;
  HandOutSession& operator=(const HandOutSession&) = delete;

  // Whether any CUDA group is to be handed out.
  bool empty() const { return queue_.items().empty(); }
  // The socket end to give worker `worker` (close-on-exec here; the spawn gives it to the worker),
  // or -1 when no socket could be made.
  int worker_end(int worker);
  // Worker `worker` started (or could not be): this process closes its copy of the worker's end.
  void started(int worker);
  // Whether worker `worker` has anything to take: a group pinned to it, or fewer workers before it
  // than groups.
  bool worth_starting(int worker) const;
  // Worker `worker` is not started: nothing waits for it.
  void not_started(int worker);
  // Answers the workers, waiting up to `timeout_ms`, and draws the progress line when it is due.
  void serve(int timeout_ms);
  // Worker `worker` (of CUDA device `device`) ended with `status` (an exit status, or 128 + a
  // signal): what it held goes to another worker, or is named as not measured.
  void ended(int worker, int device, int status, bool interrupted);
  // The workers are all reaped: the closing progress line.
  void finish();

 private:
  std::string describe(std::size_t item) const;
  double now() const;

  const RunJob& job_;
  HandOut queue_;
  std::unique_ptr<HandOutServer> server_;
  std::unique_ptr<HandOutEta> eta_;
  std::unique_ptr<HandOutProgress> progress_;
  std::vector<int> worker_ends_;  // per worker: the end given to it, until it started
  std::size_t groups_done_ = 0, points_done_ = 0;
  Stopwatch clock_;
};

}  // namespace convlab
