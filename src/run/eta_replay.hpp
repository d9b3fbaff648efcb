// The ETA of a finished `--devices` (or one-device) run, replayed from what it recorded: each
// worker's problems in the order it measured them and the wall time of each (run.phases), fed to
// the ETA of the hand-out (run/progress.hpp HandOutEta) as the run would have fed it: before the
// run, the forecast of the cost model; at the end of each problem group, the elapsed time plus
// the ETA then. Each is set against the time the run took, so that the ETA can be checked on the
// committed GPU runs without a GPU (tests/test_eta_replay.cpp, convlab_device_scaling eta).
//
// A run split before it started (its workers without --hand-out) is replayed with every group
// pinned to the worker that measured it, as its workers were given them; a handed-out run with the
// queue choosing again. A worker's problems start after its setup, start and device phases and
// follow each other without gaps.
#pragma once

#include <string>
#include <vector>

#include "store/results_file.hpp"

namespace convlab {

struct EtaReplay {
  int workers = 0;
  std::size_t groups = 0, points = 0;
  std::size_t unmatched = 0;  // problems of the file that are not in the config's plan now
  double measured = 0.0;      // the slowest worker's wall time
  double estimate = 0.0;      // the ETA before the run
  // At the end of each problem group: the time since the start and elapsed + ETA then.
  struct Moment {
    double at = 0.0, predicted = 0.0;
  };
  std::vector<Moment> moments;

  // predicted / measured - 1 of the estimate before the run.
  double estimate_error() const;
  // Of the first moment at or after `fraction` of the measured time (0 when none).
  double error_at(double fraction) const;
  // The largest |predicted / measured - 1| of the estimate and every moment.
  double worst_error() const;
};

// Replays the runs of `results` that recorded phases on a CUDA device; their config is read at
// `config_root`/run.config_path. Throws std::runtime_error naming `results_path` when there is no
// such run, and ConfigError when the config cannot be read.
EtaReplay replay_eta(const ResultsFile& results, const std::string& results_path,
                     const std::string& config_root);

}  // namespace convlab
