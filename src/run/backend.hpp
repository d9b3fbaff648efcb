// Where the points of a run are measured. Every backend hands its points to the same execution
// path (run/local_run.hpp: schedule units -> point executor -> recorder, watched by observers);
// they differ in which process, on which machine, runs it:
//
//   in-process      this process measures its schedule (a plain run, one shard, one device
//                   worker);
//   device workers  one worker process per CUDA device measures the CUDA units it is given,
//                   then this process measures the CPU units alone (`--devices`);
//   slurm           an sbatch array job of shards and a merge job that waits for it are written
//                   (and submitted): SLURM schedules, each task runs in-process (`convlab slurm`).
//
// Each declares what it does, as Snakemake's executor plugins declare theirs, so that the command
// line and the docs can say what a combination means.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "run/run_options.hpp"
#include "run/schedule.hpp"
#include "run/unit_feed.hpp"
#include "store/part_block.hpp"
#include "store/results_store.hpp"
#include "store/run_block.hpp"
#include "user_kernels/kernel_compiler.hpp"

namespace convlab {

struct BackendTraits {
  const char* name = "";
  bool measures_here = true;   // points are measured on this machine, by this command
  bool waits = true;           // returns once every point has a record (not: queued elsewhere)
  bool parallel = false;       // several processes measure at once
  bool shared_folder = false;  // processes on other machines write into the results folder
  bool folder_lock = true;     // correctness relies on flock on the results file
};

// "device workers: measures on this machine, several processes at once, each process writes a
// file of its own": what a backend declares, in words (--dry-run and convlab slurm print it).
std::string describe(const BackendTraits& traits);

// The path of the running convlab executable (what workers and SLURM tasks run).
std::string own_executable();

// The results file a command writes, in the results folder DIR.
struct RunTarget {
  std::string out_dir;    // DIR: saved outputs and gallery pictures go here
  std::string folder;     // where the file is: DIR, DIR/shards, DIR/workers, ...
  std::string file_name;  // results.json, shard-3-of-8.json, results.device-1.json
  LockUse lock_use = LockUse::required;
  std::string path() const { return folder + "/" + file_name; }
  ResultsStore store() const { return ResultsStore(folder, file_name, lock_use); }
};

// What one command measures and where it goes.
struct RunJob {
  const RunOptions* options = nullptr;
  const Config* config = nullptr;
  const std::vector<Point>* plan = nullptr;
  Schedule schedule;  // the units this command is responsible for
  RunTarget target;
  std::optional<PartBlock> part;       // written into the target (shards and device workers)
  std::vector<std::string> read_only;  // files whose ok records count as measured (workers)
  int cuda_device = 0;
  std::vector<int> devices;  // --devices, resolved
  bool worker = false;       // a device worker: plain progress lines, no table, keys in part
  UnitFeed* feed = nullptr;  // where the units come from; null: the schedule, in order
  // The first variant of each user's kernel, compiled before the run (run/plan_compiles.hpp).
  CompileSummary compiled_first;
};

// What the device workers' files of a target held, once folded into it.
struct WorkerFiles {
  std::map<std::string, std::string> key_of_digest;  // the points the workers named
  std::set<std::string> run_ids;                     // of the workers' runs
  std::vector<RunBlock> runs;
};

// Folds every device worker's file of `target` into it and removes them. Runs call it before
// anything else, so that what a stopped `--devices` run left is kept whatever runs next.
WorkerFiles fold_worker_files(const RunTarget& target);

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendTraits traits() const = 0;
  // Measures the job's units or hands them over; returns convlab run's exit status.
  virtual int execute(const RunJob& job) = 0;
};

class InProcessBackend : public Backend {
 public:
  BackendTraits traits() const override;
  int execute(const RunJob& job) override;
};

class DeviceWorkersBackend : public Backend {
 public:
  BackendTraits traits() const override;
  int execute(const RunJob& job) override;
};

class SlurmBackend : public Backend {
 public:
  BackendTraits traits() const override;
  int execute(const RunJob& job) override;
};

}  // namespace convlab
