// The SLURM backend of `convlab slurm`: SLURM schedules, convlab does not. The plan is cut into
// shards as `convlab run --shard` cuts it, the scripts are written (run/slurm_script.hpp) and,
// with --submit, handed to sbatch; every array task then runs in-process on its node.
#include <filesystem>
#include <iostream>
#include <set>

#include "run/backend.hpp"
#include "run/plan_report.hpp"
#include "run/slurm_script.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

std::string absolute(const std::string& path) {
  std::error_code error;
  const fs::path full = fs::absolute(path, error);
  return (error ? fs::path(path) : full).lexically_normal().string();
}

}  // namespace

BackendTraits SlurmBackend::traits() const {
  BackendTraits traits;
  traits.name = "slurm";
  traits.measures_here = false;
  traits.waits = false;
  traits.parallel = true;
  traits.shared_folder = true;
  traits.folder_lock = false;  // each task writes its own shard file
  return traits;
}

int SlurmBackend::execute(const RunJob& job) {
  const RunOptions& options = *job.options;
  const SlurmSettings& settings = *options.slurm;
  SlurmJobFacts facts;
  facts.convlab = own_executable();
  facts.config = absolute(options.config_path);
  facts.out_dir = absolute(job.target.out_dir);
  facts.workdir = absolute(".");
  facts.name = job.config->name;
  facts.filter = options.filter ? options.filter->text : "";
  std::set<std::size_t> groups;
  for (const WorkUnit& unit : job.schedule.units) groups.insert(unit.bundle);
  facts.problem_groups = groups.size();
  facts.settings = settings;
  const SlurmScripts scripts = write_slurm_scripts(facts);

  const ShardCut cut = cut_into_shards(job.schedule, settings.shards);
  const bool quiet = options.verbosity == Verbosity::quiet;
  if (!quiet) {
    std::cout << "convlab slurm: wrote " << scripts.shards << " (array of " << settings.shards
              << " shards), " << scripts.merge << " and " << scripts.submit << "\n";
    print_shard_balance(cut, 0, std::cout);
    std::cout << "backend: " << describe(traits()) << "\n";
    std::size_t empty = 0;
    for (std::size_t points : cut.points) empty += points == 0;
    if (empty > 0)
      std::cout << "note: " << empty << " of the " << settings.shards
                << " shards have no point: the plan has fewer problem groups than shards\n";
  }
  if (!settings.submit) {
    if (!quiet)
      std::cout << "submit with: sh " << shell_quoted(scripts.submit)
                << "   (or convlab slurm ... --submit)\n";
    return 0;
  }
  const std::string sbatch = find_on_path("sbatch");
  if (sbatch.empty()) {
    std::cerr << "convlab slurm: --submit: sbatch not found on this machine; install slurm-client "
                 "(apt-get install slurm-client) or run "
              << scripts.submit << " on the cluster's login node\n";
    return 2;
  }
  SubmittedJobs jobs;
  try {
    jobs = submit_slurm_jobs(scripts, sbatch);
  } catch (const std::runtime_error& error) {
    std::cerr << "convlab slurm: " << error.what() << "\n";
    return 2;
  }
  std::cout << "convlab slurm: submitted array job " << jobs.array_id << " (" << settings.shards
            << " shards) and merge job " << jobs.merge_id << " (runs after every shard succeeded)\n"
            << "  follow:  squeue -j " << jobs.array_id << "," << jobs.merge_id << "\n"
            << "  logs:    " << scripts.logs << "/\n"
            << "  so far:  convlab merge " << shell_quoted(facts.out_dir)
            << "   (merges what is there and names the points still missing)\n";
  return 0;
}

}  // namespace convlab
