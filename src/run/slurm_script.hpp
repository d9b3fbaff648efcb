// `convlab slurm`: the scripts that hand a sweep to SLURM, and their submission.
//
//   DIR/slurm/shards.sbatch  an array job --array=0-(N-1); task I runs
//                            `convlab run CONFIG --shard I/N --out DIR`
//   DIR/slurm/merge.sbatch   `convlab merge DIR`, submitted with --dependency=afterok on the array
//   DIR/slurm/submit.sh      submits both and prints their ids (what --submit does)
//   DIR/slurm/logs/          the jobs' output
//
// Values from the command line and the config reach the scripts only quoted for the shell
// (paths, the filter) or checked to be plain words (#SBATCH values, which sbatch reads without a
// shell); anything else is refused with the option named.
#pragma once

#include <string>

#include "core/shell_quote.hpp"
#include "run/run_options.hpp"

namespace convlab {

struct SlurmJobFacts {
  std::string convlab;             // absolute path of the convlab executable
  std::string config;              // absolute path of the config
  std::string out_dir;             // absolute path of the results folder
  std::string workdir;             // where the tasks start (the current directory)
  std::string name;                // the experiment's name
  std::string filter;              // --filter text, empty for none
  std::size_t problem_groups = 1;  // of the plan: the most shards that have work to do
  SlurmSettings settings;
};

struct SlurmScripts {
  std::string folder, shards, merge, submit, logs;
};

// Writes the three scripts (created executable); throws RunArgumentError naming the option whose
// value cannot go into an #SBATCH line, or --shards when it is above the plan's problem groups
// (a group is never split: more shards would be array tasks with nothing to do), and
// ResultsFileError when the folder cannot be written.
SlurmScripts write_slurm_scripts(const SlurmJobFacts& facts);

struct SubmittedJobs {
  std::string array_id, merge_id;
};

// The path of `program` in a folder of PATH, or empty.
std::string find_on_path(const std::string& program);

// Submits the array job and the merge job after it with sbatch --parsable; throws
// std::runtime_error with sbatch's own message when it refuses.
SubmittedJobs submit_slurm_jobs(const SlurmScripts& scripts, const std::string& sbatch);

}  // namespace convlab
