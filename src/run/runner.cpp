#include "run/runner.hpp"

#include <iostream>
#include <memory>

#include "plan/plan.hpp"
#include "run/backend.hpp"
#include "run/hand_out_channel.hpp"
#include "run/kernel_compilation.hpp"
#include "run/measured_points.hpp"
#include "run/plan_report.hpp"
#include "run/problem_ahead.hpp"
#include "run/schedule.hpp"
#include "store/part_files.hpp"
#include "store/results_file.hpp"
#include "store/shard_merge.hpp"

namespace convlab {
namespace {

// A search chooses its variants' params as it runs (plan/search_points.hpp): a clause on one of
// them would pick by the search's stand-in, so it is refused with what to do instead.
void refuse_params_of_searches(const std::vector<Point>& plan, const PointFilter& filter) {
  for (const Point& point : plan) {
    if (!point.search) continue;
    for (const FilterClause& clause : filter.clauses)
      if (clause.field.rfind("params.", 0) == 0 && point.params.contains(clause.field.substr(7)))
        throw RunArgumentError("--filter: " + clause.field + " would pick among the variants of " +
                               point.implementation->name +
                               "'s search, which it chooses as it runs; give the search a "
                               "restriction instead (search.restrict, docs/search.md)");
  }
}

// Checked before anything is written: a misspelt field or a filter that selects nothing is a
// mistake, not an empty run.
std::vector<Point> filtered_plan(const Config& config, std::vector<Point> plan,
                                 const PointFilter& filter) {
  refuse_params_of_searches(plan, filter);
  if (auto unknown = unknown_plan_field(filter, plan))
    throw RunArgumentError("--filter: " + *unknown);
  std::vector<Point> kept;
  for (Point& point : plan)
    if (point_matches(filter, point)) kept.push_back(std::move(point));
  if (kept.empty())
    throw RunArgumentError("no point of " + config.path + " matches --filter " + filter.text);
  return kept;
}

std::vector<std::string> digests_of(const std::vector<Point>& plan, const Schedule& schedule) {
  std::vector<std::string> digests;
  for (const auto& unit : schedule.units)
    for (std::size_t i : unit.points) digests.push_back(plan[i].digest);
  return digests;
}

PartBlock part_for(const RunOptions& options, const Config& config) {
  PartBlock part;
  part.config_sha256 = config.sha256;
  part.filter = options.filter ? options.filter->text : "";
  return part;
}

// The shard's file names the plan it belongs to from the start, so that `convlab merge` can
// count its points as missing even when it is stopped before its first point.
void open_shard_file(const RunJob& job, const std::string& experiment) {
  const ResultsStore store = job.target.store();
  const std::string earlier = store.read().experiment.value("name", "");
  if (!earlier.empty() && earlier != experiment)
    throw ResultsFileError(job.target.path() + ": holds experiment '" + earlier + "', not '" +
                           experiment + "'; choose another --out");
  store.update([&](ResultsFile& results) { results.part = job.part; });
}

// After a shard's run: marks it done when every point it plans has a record, and merges all
// shards into DIR/results.json when it is the last one to be done.
void close_shard(const RunJob& job, const ShardIndex& shard, bool quiet) {
  const ResultsFile results = read_results(job.target.path());
  const bool complete = missing_points(results) == 0;
  mark_shard_done(job.target.out_dir, shard, complete);
  if (!complete || !every_shard_done(job.target.out_dir, shard.count)) return;
  const MergeSummary merged = merge_shards(job.target.out_dir);
  if (!quiet)
    std::cerr << "convlab: every shard of " << shard.count << " is done; merged into "
              << merged.results_path << " (" << merged.records_in_results << " records)\n";
  for (const auto& line : merge_report_lines(merged, job.target.out_dir))
    std::cerr << "convlab merge: " << line << "\n";
}

// The backend for the job, the one place it is chosen: SLURM array tasks for `convlab slurm`,
// device workers for several devices, otherwise this process (a plain run, one shard, one device
// worker).
std::unique_ptr<Backend> backend_for(const RunJob& job) {
  if (job.options->slurm) return std::make_unique<SlurmBackend>();
  if (job.devices.size() > 1 && job.options->worker < 0)
    return std::make_unique<DeviceWorkersBackend>();
  return std::make_unique<InProcessBackend>();
}

void print_dry_run(const RunJob& job, const std::optional<ShardCut>& cut,
                   const BackendTraits& backend) {
  const Config& config = *job.config;
  const std::vector<Point>& plan = *job.plan;
  std::vector<Point> points;
  for (const auto& unit : job.schedule.units) {
    for (std::size_t i : unit.points) points.push_back(plan[i]);
    for (const auto& search : unit.searches)  // summarised by print_plan
      points.push_back(plan[search.point]);
  }
  RunContext context;
  context.cuda_device = job.cuda_device;
  // What the results file holds already, as the run would keep it; --force measures everything.
  std::optional<MeasuredPoints> measured;
  if (!job.options->force) measured = measured_points_at(job.target.path());
  print_plan(config, points, planned_skips(config, points, context), std::cout,
             measured ? &*measured : nullptr);
  if (cut) print_shard_balance(*cut, job.options->shard->index, std::cout);
  if (!job.devices.empty())
    print_device_split(config, plan, job.schedule, job.devices,
                       !job.options->dry_run || job.options->devices->all, std::cout);
  std::cout << "\nbackend: " << describe(backend) << "\n";
}

}  // namespace

int run_experiment(const RunOptions& options, Config config, std::vector<Point> plan) {
  if (options.filter) plan = filtered_plan(config, std::move(plan), *options.filter);

  RunJob job;
  job.options = &options;
  job.config = &config;
  job.plan = &plan;
  const std::string out_dir = options.out_dir.empty() ? "outputs/" + config.name : options.out_dir;
  job.target = {out_dir, out_dir, "results.json", LockUse::required};
  job.cuda_device = options.cuda_device;
  job.schedule = make_schedule(config, plan);

  std::optional<ShardCut> cut;
  if (options.shard) {
    cut = cut_into_shards(job.schedule, options.shard->count);
    job.schedule = units_of_shard(job.schedule, *cut, options.shard->index);
    job.target = {out_dir, shards_folder(out_dir), shard_file_name(*options.shard),
                  LockUse::best_effort};
    job.part = part_for(options, config);
    job.part->shard = options.shard;
    job.part->partition = cut->digest;
    job.part->shard_points = cut->points;
    job.part->points = digests_of(plan, job.schedule);
  }

  if (options.devices) {
    job.devices = resolve_devices(*options.devices, !options.dry_run);
    if (job.devices.size() == 1) job.cuda_device = job.devices.front();
  }
  if (job.devices.size() > 1) job.schedule = split_by_family(config, plan, job.schedule);

  const std::unique_ptr<Backend> backend = backend_for(job);
  const BackendTraits traits = backend->traits();
  std::ostream* compile_log = options.verbosity == Verbosity::quiet ? nullptr : &std::cerr;
  if (options.worker < 0) {
    if (traits.parallel) {
      // The device workers and SLURM's tasks find every variant compiled (they compile nothing up
      // front); a compile error stops the run before its first point.
      compile_users_kernels(config, plan, options.cuda_device, compile_log);
    } else {
      // The first variant of each kernel now, the rest ahead of their measurements.
      job.compiled_first = compile_first_variants(config, plan, job.cuda_device);
      if (options.dry_run) say_compiled(job.compiled_first, compile_log);
    }
  }

  if (options.dry_run) {
    print_dry_run(job, cut, traits);
    return 0;
  }

  if (options.worker >= 0) {
    // One device worker of a --devices run: CUDA units, into a file of its own; handed out one
    // problem group at a time (run/hand_out.hpp), or its fixed part of them.
    if (job.devices.size() < 2 || options.worker >= static_cast<int>(job.devices.size()))
      throw RunArgumentError("--worker " + std::to_string(options.worker) +
                             " needs --devices with more than that many devices");
    const int device = job.devices[options.worker];
    std::unique_ptr<HandOutClient> hand_out;
    if (options.hand_out_fd >= 0) {
      Schedule cuda_units;
      for (const auto& unit : job.schedule.units)
        if (unit.gpu) cuda_units.units.push_back(unit);
      job.schedule = std::move(cuda_units);
      std::vector<HandOutItem> items = hand_out_items(job.schedule, plan);
      const std::string digest = hand_out_digest(plan, job.schedule, items);
      hand_out = std::make_unique<HandOutClient>(options.hand_out_fd, job.schedule,
                                                 std::move(items), digest, prepare_ahead_enabled());
      job.feed = hand_out.get();
    } else {
      const std::vector<int> worker_of_unit =
          spread_over_devices(job.schedule, static_cast<int>(job.devices.size()));
      job.schedule = units_of_worker(job.schedule, worker_of_unit, options.worker);
    }
    job.read_only = {job.target.path()};
    job.target = {out_dir, workers_folder(job.target.folder),
                  worker_file_name(job.target.file_name, device), LockUse::best_effort};
    job.part = part_for(options, config);
    job.part->device = device;
    // The points it reaches, named as it reaches them (run/local_run.hpp).
    job.part->points = hand_out ? std::vector<std::string>{} : digests_of(plan, job.schedule);
    job.cuda_device = device;
    job.worker = true;
    return backend->execute(job);
  }

  // Handed to a scheduler (SLURM): this process opens and folds no results file.
  if (!traits.measures_here) return backend->execute(job);
  if (options.shard) open_shard_file(job, config.name);
  fold_worker_files(job.target);
  const int status = backend->execute(job);
  if (options.shard) close_shard(job, *options.shard, options.verbosity == Verbosity::quiet);
  return status;
}

}  // namespace convlab
