#include <iostream>

#include "app/commands.hpp"
#include "run/interrupt.hpp"

namespace convlab {
namespace {

CommandLine slurm_command_line(RunOptions& options, SlurmSettings& slurm) {
  CommandLine line(
      "slurm",
      {{"CONFIG --shards N [options]"},
       R"(Writes a commented SLURM batch script that runs CONFIG as an array job of N shards (task I runs
`convlab run CONFIG --shard I/N --out DIR`), a merge job that runs `convlab merge DIR` after every
task succeeded, and submit.sh, which submits both: DIR/slurm/{shards.sbatch,merge.sbatch,submit.sh}.
Every shard writes its own file, so nothing depends on file locks of the cluster's file system.
)",
       "",
       "0 written (and submitted), 2 bad config or arguments, or --submit "
       "without sbatch"});
  const auto count = [](int& target) { return whole_number_into(target, 1, 1000000); };
  line.positional("CONFIG", options.config_path)
      .value("--shards", "N", "number of array tasks (shards), at least 1", count(slurm.shards))
      .value("--partition", "P", "#SBATCH --partition", slurm.partition)
      .value("--gpus-per-task", "G",
             "#SBATCH --gpus-per-task (with G > 1 each task runs --devices all)",
             count(slurm.gpus_per_task))
      .value("--cpus-per-task", "C", "#SBATCH --cpus-per-task", count(slurm.cpus_per_task))
      .value("--time", "T", "#SBATCH --time (minutes, HH:MM:SS, D-HH:MM, ...)", slurm.time)
      .value("--account", "A", "#SBATCH --account", slurm.account)
      .value("--out", "DIR",
             "results folder (default outputs/<name>); must be on a file system every node sees",
             non_empty_into(options.out_dir))
      .value("--filter", "EXPR", "run only matching points (as convlab run --filter)",
             filter_into(options.filter))
      .flag("--submit", "submit both jobs with sbatch and print their ids", slurm.submit)
      .flag("-q, --quiet", "print only the job ids",
            [&](const std::string&) { options.verbosity = Verbosity::quiet; });
  return line;
}

}  // namespace

int slurm_command(const Arguments& args, const Arguments& full_argv) {
  RunOptions options;
  options.argv = full_argv;
  SlurmSettings slurm;
  const CommandLine line = slurm_command_line(options, slurm);
  if (const auto status = line.parse(args)) return *status;
  if (const auto status = line.refuse_non_utf8(args)) return *status;
  if (slurm.shards < 1) return line.refuse("--shards N is needed (the number of array tasks)");
  options.slurm = slurm;
  watch_for_interrupts();
  return run_loaded_config(options, "slurm");
}

}  // namespace convlab
