#include <iostream>

#include "app/commands.hpp"
#include "core/point_filter.hpp"
#include "run/interrupt.hpp"

namespace convlab {
namespace {

const char* kSlurmUsage = R"(usage: convlab slurm CONFIG --shards N [options]

Writes a commented SLURM batch script that runs CONFIG as an array job of N shards (task I runs
`convlab run CONFIG --shard I/N --out DIR`), a merge job that runs `convlab merge DIR` after every
task succeeded, and submit.sh, which submits both: DIR/slurm/{shards.sbatch,merge.sbatch,submit.sh}.
Every shard writes its own file, so nothing depends on file locks of the cluster's file system.

options:
  --shards N           number of array tasks (shards), at least 1
  --partition P        #SBATCH --partition
  --gpus-per-task G    #SBATCH --gpus-per-task (with G > 1 each task runs --devices all)
  --cpus-per-task C    #SBATCH --cpus-per-task
  --time T             #SBATCH --time (minutes, HH:MM:SS, D-HH:MM, ...)
  --account A          #SBATCH --account
  --out DIR            results folder (default outputs/<name>); must be on a file system every
                       node sees
  --filter EXPR        run only matching points (as convlab run --filter)
  --submit             submit both jobs with sbatch and print their ids
  -q, --quiet          print only the job ids

exit status: 0 written (and submitted), 2 bad config or arguments, or --submit without sbatch
)";

bool positive(const std::string& option, const std::string& text, int& value) {
  try {
    size_t used = 0;
    const long number = std::stol(text, &used);
    if (used == text.size() && number >= 1 && number <= 1000000) {
      value = static_cast<int>(number);
      return true;
    }
  } catch (const std::exception&) {
  }
  std::cerr << "convlab slurm: " << option << " needs a positive integer, got '" << text << "'\n";
  return false;
}

}  // namespace

int slurm_command(const Arguments& args, const Arguments& full_argv) {
  RunOptions options;
  options.argv = full_argv;
  SlurmSettings slurm;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) {
        std::cerr << "convlab slurm: " << arg << " needs a value\n";
        return false;
      }
      into = args[++i];
      return true;
    };
    std::string text;
    if (arg == "--help" || arg == "-h") {
      std::cout << kSlurmUsage;
      return 0;
    } else if (arg == "--shards") {
      if (!value(text) || !positive(arg, text, slurm.shards)) return 2;
    } else if (arg == "--gpus-per-task") {
      if (!value(text) || !positive(arg, text, slurm.gpus_per_task)) return 2;
    } else if (arg == "--cpus-per-task") {
      if (!value(text) || !positive(arg, text, slurm.cpus_per_task)) return 2;
    } else if (arg == "--partition") {
      if (!value(slurm.partition)) return 2;
    } else if (arg == "--time") {
      if (!value(slurm.time)) return 2;
    } else if (arg == "--account") {
      if (!value(slurm.account)) return 2;
    } else if (arg == "--out") {
      if (!value(options.out_dir)) return 2;
      if (options.out_dir.empty()) {
        std::cerr << "convlab slurm: --out needs a folder, got ''\n";
        return 2;
      }
    } else if (arg == "--filter") {
      if (!value(text)) return 2;
      std::string error;
      options.filter = parse_point_filter(text, &error);
      if (!options.filter) {
        std::cerr << "convlab slurm: --filter: " << error << "\n";
        return 2;
      }
    } else if (arg == "--submit") {
      slurm.submit = true;
    } else if (arg == "--quiet" || arg == "-q") {
      options.verbosity = Verbosity::quiet;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "convlab slurm: unknown option '" << arg << "'\n" << kSlurmUsage;
      return 2;
    } else if (options.config_path.empty()) {
      options.config_path = arg;
    } else {
      std::cerr << "convlab slurm: only one CONFIG, got '" << options.config_path << "' and '"
                << arg << "'\n";
      return 2;
    }
  }
  if (options.config_path.empty()) {
    std::cerr << kSlurmUsage;
    return 2;
  }
  if (slurm.shards < 1) {
    std::cerr << "convlab slurm: --shards N is needed (the number of array tasks)\n";
    return 2;
  }
  options.slurm = slurm;
  watch_for_interrupts();
  return run_loaded_config(options, "slurm");
}

}  // namespace convlab
