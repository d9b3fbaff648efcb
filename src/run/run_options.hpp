// The options of `convlab run` (and of `slurm` and `watch`, which run too), shared by the folder:
// what the command line asks for, how much the terminal is told, the SLURM settings, and the error
// of an argument that cannot work with the config. run/runner.hpp runs them.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/point_filter.hpp"
#include "run/devices.hpp"
#include "run/run_end.hpp"
#include "store/part_block.hpp"

namespace convlab {

class RunObserver;  // run/observers.hpp

// A command-line argument that cannot work with this config (exit 2, nothing written).
class RunArgumentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// quiet: no progress and no table (failed points are still named); verbose: a line per point
// with its repetitions, median and CV, on a terminal too.
enum class Verbosity { quiet, normal, verbose };

// `convlab slurm`: the array job and its merge job.
struct SlurmSettings {
  int shards = 0;
  std::string partition, account, time;
  int gpus_per_task = 0, cpus_per_task = 0;  // 0: not asked
  bool submit = false;
};

struct RunOptions {
  std::string config_path;
  std::string out_dir;  // default outputs/<name>
  std::optional<PointFilter> filter;
  bool force = false;
  bool dry_run = false;
  int cuda_device = 0;
  long max_points = -1;  // stop after running this many points (-1: no limit)
  Verbosity verbosity = Verbosity::normal;
  bool phases = false;  // --phases: print where the time went (also with --verbose)
  bool table = false;   // the summary lists every point, not the fastest of each problem
  std::vector<std::string> argv;
  std::optional<ShardIndex> shard;      // --shard I/N
  std::optional<DeviceChoice> devices;  // --devices
  int worker = -1;                      // --worker K: the K-th device worker of --devices
  int hand_out_fd = -1;                 // --hand-out FD: a worker's socket to the hand-out
  std::optional<SlurmSettings> slurm;   // convlab slurm
  // Told of the run's points besides the progress and the counts (convlab watch re-renders its
  // page after each); in-process runs only.
  std::vector<RunObserver*> observers;
  // Prints the summary at the end of a run that is not quiet (app/run_end_summary.hpp); none: no
  // summary.
  RunEndReport summary;
};

}  // namespace convlab
