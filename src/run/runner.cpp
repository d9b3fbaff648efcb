#include "run/runner.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <tuple>

#include "config/config.hpp"
#include "config/config_error.hpp"
#include "core/number_text.hpp"
#include "core/sha256.hpp"
#include "images/image_source.hpp"
#include "impl/cuda/device_facts.hpp"
#include "measure/gpu_clocks.hpp"
#include "measure/interleaved.hpp"
#include "measure/provenance.hpp"
#include "measure/repetitions.hpp"
#include "measure/run_conditions.hpp"
#include "measure/stopwatch.hpp"
#include "plan/plan.hpp"
#include "reference/reference.hpp"
#include "results/derive.hpp"
#include "results/gallery.hpp"
#include "results/machine.hpp"
#include "results/point_outputs.hpp"
#include "results/results_file.hpp"
#include "results/results_journal.hpp"
#include "results/results_store.hpp"
#include "results/summary_table.hpp"
#include "run/interrupt.hpp"
#include "run/plan_report.hpp"
#include "run/progress.hpp"
#include "verify/verify.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

std::string make_run_id(const std::string& started) {
  std::random_device entropy;
  char suffix[9];
  std::snprintf(suffix, sizeof suffix, "%08x", entropy());
  return started + "-" + suffix;
}

std::string point_label(const json& description) {
  std::string params;
  for (const auto& [key, value] : description["params"].items())
    params += " " + key + "=" + field_text(value);
  return description["implementation"].get<std::string>() + params + " | " +
         description["image"]["name"].get<std::string>() + " | " +
         description["kernel"]["name"].get<std::string>() + " | " +
         description["border"].get<std::string>() + " | " +
         description["output"].get<std::string>();
}

// What is measured, hashed: a newer measurement of the same point replaces the older record.
std::string point_id(const json& description, const Image& image, const Filter& filter,
                     const json& measure) {
  json defined = description;
  defined["image"]["sha256"] = image.sha256;
  defined["kernel"]["weights"] = filter.weights;
  defined["measure"] = measure;
  return sha256_hex(defined.dump());
}

// The point plus who measured it: results from another build or machine are never taken for a
// measurement of this one, so such points are run again.
std::string point_key(const std::string& id, const json& description,
                      const std::string& device_name) {
  json keyed{{"point", id}, {"build", build_id()}, {"cpu", cpu_model()}, {"host", host_id()}};
  if (description["family"] == "cuda") keyed["gpu"] = device_name;
  return sha256_hex(keyed.dump());
}

RecordImage record_image(const Image& image, const ImageSpec& spec) {
  return {spec.name, image.source, image.sha256, image.width, image.height, image.channels};
}

RecordKernel record_kernel(const Filter& filter) {
  return {filter.name, filter.type, filter.size, filter.separable, filter.parameters};
}

class Run {
 public:
  Run(const RunOptions& options, Config config)
      : options_(options),
        config_(std::move(config)),
        out_dir_(options.out_dir.empty() ? "outputs/" + config_.name : options.out_dir),
        store_(out_dir_),
        results_path_(store_.results_path()) {
    results_ = store_.read();
    const std::string earlier = results_.experiment.value("name", "");
    if (!earlier.empty() && earlier != config_.name)
      throw ResultsFileError(results_path_ + ": holds experiment '" + earlier + "', not '" +
                             config_.name + "'; choose another --out");
    plan_ = expand_plan(config_);
    if (options.filter) apply_filter(*options.filter);
    context_.cuda_device = options.cuda_device;
    context_.l2_flush = config_.measure.l2_flush;
  }

  int execute() {
    if (options_.dry_run) {
      print_plan(config_, plan_, planned_skips(config_, plan_, context_), std::cout);
      return 0;
    }
    // What a killed run left in the journal is folded into results.json before anything else.
    if (store_.has_journal()) results_ = store_.compact();
    start_run_block();
    const InterruptScope interrupts(*this);
    const std::vector<double> estimates =
        estimated_plan_seconds(config_, plan_, planned_skips(config_, plan_, context_));
    const std::vector<double> cost_after = estimated_costs_after(estimates);
    Progress progress(plan_.size(), cost_after[0],
                      Progress::style_for_stderr(options_.verbosity == Verbosity::quiet,
                                                 options_.verbosity == Verbosity::verbose),
                      stderr);
    std::vector<std::string> plan_keys;
    try {
      run_points(progress, estimates, cost_after, plan_keys);
    } catch (...) {
      // An image that cannot be made stops the run: what it measured goes into results.json.
      const std::lock_guard<std::mutex> lock(write_mutex_);
      try {
        if (written_) compact();
      } catch (const ResultsFileError&) {
        // the error that stopped the run is the one to report; the journal keeps the points
      }
      throw;
    }
    progress.done();
    if (config_.save_outputs) draw_gallery();
    counts_.not_run = plan_.size() - counts_.kept - counts_.ran - counts_.skipped - counts_.failed;
    const std::lock_guard<std::mutex> lock(write_mutex_);
    run_block_.finished = utc_timestamp();
    compact();
    return report(plan_keys);
  }

 private:
  // A point of the plan as this run names it.
  struct PlannedPoint {
    size_t index = 0;
    std::string label, id, key;
    json description;
  };

  PlannedPoint plan_point(size_t i) {
    const Point& point = plan_[i];
    PlannedPoint planned;
    planned.index = i;
    planned.description = describe_point(config_, point);
    planned.label = point_label(planned.description);
    planned.id = point_id(planned.description, image_for(point.image),
                          config_.filters[point.filter], measure_json_for(point));
    planned.key = point_key(planned.id, planned.description, device_name_);
    return planned;
  }

  // Runs or keeps every point of the plan, in order; the keys of the points reached go into
  // plan_keys. With measure.interleave, the points of one problem (consecutive in the plan) are
  // timed together.
  void run_points(Progress& progress, const std::vector<double>& estimates,
                  const std::vector<double>& cost_after, std::vector<std::string>& plan_keys) {
    size_t new_points = 0;
    for (size_t begin = 0; begin < plan_.size();) {
      const size_t end = config_.measure.interleave ? problem_end(begin) : begin + 1;
      std::vector<PlannedPoint> to_run;
      bool limit_reached = false;
      for (size_t i = begin; i < end && !limit_reached; ++i) {
        PlannedPoint planned = plan_point(i);
        plan_keys.push_back(planned.key);
        const Point& point = plan_[i];
        if (config_.save_outputs)
          note_gallery_item(point, image_for(point.image), config_.filters[point.filter]);
        if (!options_.force && has_ok_record(planned.key)) {
          progress.kept(i, planned.label);
          ++counts_.kept;
          ++points_done_;
          continue;
        }
        limit_reached = options_.max_points >= 0 &&
                        static_cast<long>(new_points + to_run.size()) >= options_.max_points;
        if (!limit_reached) to_run.push_back(std::move(planned));
      }
      if (to_run.size() > 1)
        run_interleaved(to_run, progress, estimates, cost_after);
      else if (to_run.size() == 1)
        run_alone(to_run.front(), progress, estimates, cost_after);
      new_points += to_run.size();
      if (limit_reached) break;
      begin = end;
    }
  }

  // The end of the run of plan points from `begin` that share its problem (image, kernel, border,
  // output); the plan lists implementations innermost, so they are consecutive.
  size_t problem_end(size_t begin) const {
    const Point& first = plan_[begin];
    size_t end = begin + 1;
    while (end < plan_.size() && plan_[end].image == first.image &&
           plan_[end].filter == first.filter && plan_[end].border == first.border &&
           plan_[end].output == first.output)
      ++end;
    return end;
  }

  void run_alone(const PlannedPoint& planned, Progress& progress,
                 const std::vector<double>& estimates, const std::vector<double>& cost_after) {
    const size_t i = planned.index;
    progress.starting(i, planned.label, estimates[i], cost_after[i + 1]);
    Record record = run_point(plan_[i], planned.description, planned.key);
    finish_point(planned, std::move(record), progress, true);
  }

  // Prepares every point of one problem, times them in shuffled rounds (measure/interleaved.hpp),
  // then verifies and stores each in plan order. All of them hold their buffers until the end.
  void run_interleaved(const std::vector<PlannedPoint>& group, Progress& progress,
                       const std::vector<double>& estimates,
                       const std::vector<double>& cost_after) {
    double group_estimate = 0.0;
    for (const auto& planned : group) group_estimate += estimates[planned.index];
    progress.starting(
        group.front().index,
        std::to_string(group.size()) + " points interleaved, from " + group.front().label,
        group_estimate, cost_after[group.back().index + 1]);
    std::vector<Record> records;
    std::vector<std::unique_ptr<PreparedPoint>> prepared;
    std::vector<InterleavedPoint> timed;
    std::vector<size_t> timed_index;  // into group, per entry of timed
    for (size_t g = 0; g < group.size(); ++g) {
      const Point& point = plan_[group[g].index];
      records.push_back(new_record(point, group[g].key));
      prepared.push_back(prepare_point(point, records.back()));
      if (!prepared.back()) continue;
      timed.emplace_back();
      timed.back().point = prepared.back().get();
      timed.back().measure = measure_for(config_, point.implementation->name);
      timed_index.push_back(g);
    }
    std::vector<std::optional<GpuClockSample>> clocks_at_start;
    for (size_t t = 0; t < timed.size(); ++t)
      clocks_at_start.push_back(clock_sample(plan_[group[timed_index[t]].index]));
    time_interleaved(timed, interleave_seed(group.front().id));
    for (size_t t = 0; t < timed.size(); ++t) {
      const size_t g = timed_index[t];
      Record& record = records[g];
      if (timed[t].error) {
        record.status = Status::failed;
        record.reason = "error: " + *timed[t].error;
        continue;
      }
      const Point& point = plan_[group[g].index];
      record.timing = timing_from(timed[t].samples);
      if (clocks_at_start[t])
        record.gpu_clocks = gpu_clocks_json(clocks_at_start[t], clock_sample(point));
      verify_record(point, group[g].description, *prepared[g], record);
    }
    prepared.clear();
    for (size_t g = 0; g < group.size(); ++g)
      finish_point(group[g], std::move(records[g]), progress, g == 0);
  }

  // The shuffles of a problem's rounds follow from its first point's identity: the same plan
  // is timed in the same order again.
  static std::uint32_t interleave_seed(const std::string& point_id) {
    return static_cast<std::uint32_t>(std::stoul(point_id.substr(0, 8), nullptr, 16));
  }

  // Reports and stores a point's record. `measured`: its time (from progress.starting) corrects
  // the ETA; for an interleaved problem, the first point carries the time of the whole problem.
  void finish_point(const PlannedPoint& planned, Record record, Progress& progress, bool measured) {
    record.point_id = planned.id;
    progress.finished(planned.index, planned.label, outcome_text(record),
                      record.status == Status::failed,
                      measured && record.status != Status::skipped);
    count(record);
    store(std::move(record));
  }

  void start_run_block() {
    RunBlock& run = run_block_;
    run.started = utc_timestamp();
    run.id = make_run_id(run.started);
    run.config_path = config_.path;
    run.config_sha256 = config_.sha256;
    run.resolved_config = config_.resolved;
    run.build = build_facts();
    run.host = host_facts();
    run.argv = options_.argv;
    run.git = git_facts();
    run.conditions = run_conditions();
    run.measure = RunMeasure{config_.measure, config_.measure_overrides};
    const bool any_cuda = std::any_of(plan_.begin(), plan_.end(), [](const Point& p) {
      return p.implementation->family == "cuda";
    });
    if (any_cuda) {
      run.cuda = describe_cuda_device(context_);
      device_name_ = run.cuda.value("name", "none");
      start_clock_probe(run.cuda);
    }
    run_id_ = run.id;
    if (options_.verbosity != Verbosity::quiet)
      for (const auto& warning :
           noise_warnings(*run.conditions, run.host.value("logical_cpus", 0u)))
        std::cerr << "convlab: " << warning << "\n";
    if (auto mixed = mixed_thread_pools_warning(config_, plan_);
        mixed && options_.verbosity != Verbosity::quiet)
      std::cerr << "convlab: warning: " << *mixed << "\n";
    const std::string others = other_hosts_summary(results_.records, machine_from_run(run, "cpu"));
    if (!others.empty())
      std::cerr << "convlab run: note: " << results_path_ << " already holds " << others
                << " (another machine); they are kept, and speedups, figures and tables keep "
                   "the machines apart\n";
    experiment_ = {{"name", config_.name},
                   {"title", config_.title},
                   {"description", config_.description},
                   {"baseline",
                    {{"implementation", config_.baseline.implementation},
                     {"params", config_.baseline.params}}}};
    index_records();
  }

  void index_records() {
    record_index_.clear();
    for (size_t i = 0; i < results_.records.size(); ++i) record_index_[results_.records[i].key] = i;
  }

  // This run's own record in the file as it last read it, for points planned twice.
  void remember(const Record& record) {
    const std::string& key = record.key;
    if (auto found = record_index_.find(key); found != record_index_.end()) {
      results_.records[found->second] = record;
      return;
    }
    record_index_[key] = results_.records.size();
    results_.records.push_back(record);
  }

  // Clocks are sampled through NVML for every CUDA point when the device is known to it.
  void start_clock_probe(json& cuda) {
    if (!cuda.value("available", false)) return;
    clocks_ = std::make_unique<GpuClockProbe>(cuda.value("pci_bus_id", ""));
    cuda["clocks"] = clocks_->unavailable()
                         ? json{{"available", false}, {"reason", *clocks_->unavailable()}}
                         : json{{"available", true}, {"source", "NVML"}};
    if (clocks_->unavailable()) clocks_.reset();
  }

  std::optional<GpuClockSample> clock_sample(const Point& point) const {
    if (!clocks_ || point.implementation->family != "cuda") return std::nullopt;
    return clocks_->sample();
  }

  // Checked before anything is written: a misspelt field or a filter that selects nothing is a
  // mistake, not an empty run.
  void apply_filter(const PointFilter& filter) {
    std::vector<json> descriptions;
    for (const Point& p : plan_) descriptions.push_back(describe_point(config_, p));
    if (auto unknown = unknown_field(filter, descriptions))
      throw RunArgumentError("--filter: " + *unknown);
    std::vector<Point> kept;
    for (size_t i = 0; i < plan_.size(); ++i)
      if (matches(filter, descriptions[i])) kept.push_back(plan_[i]);
    if (kept.empty())
      throw RunArgumentError("no point of " + config_.path + " matches --filter " + filter.text);
    plan_ = std::move(kept);
  }

  const Image& image_for(size_t index) {
    if (!current_image_ || current_image_index_ != index) {
      current_image_.reset();  // release the previous image before making the next
      reference_.reset();
      current_image_ = std::make_unique<Image>(load_image(config_.images[index]));
      current_image_index_ = index;
    }
    return *current_image_;
  }

  // An image that cannot be made now (its file changed since validation, or memory ran out) stops
  // the run with the config's file and key; the points measured so far are kept.
  Image load_image(const ImageSpec& spec) const {
    const auto fail = [&](const std::string& why) {
      throw ConfigError(
          config_.path, 0, 0, spec.key_path,
          spec.name + ": " + why + "; the points measured so far are kept in " + results_path_);
    };
    try {
      return materialize_image(spec);
    } catch (const ImageFileError& error) {
      fail(error.what());
    } catch (const std::bad_alloc&) {
      fail("not enough memory for the image");
    }
    return {};
  }

  const Reference& reference_for(const Point& point, const Problem& problem) {
    const auto id = std::make_tuple(point.image, point.filter, point.border, point.output);
    if (!reference_ || reference_id_ != id) {
      reference_.reset();
      reference_ = std::make_unique<Reference>(compute_reference(problem));
      reference_id_ = id;
    }
    return *reference_;
  }

  // A record naming the point, before anything runs.
  Record new_record(const Point& point, const std::string& key) {
    const Image& image = image_for(point.image);
    const Filter& filter = config_.filters[point.filter];
    Record record;
    record.key = key;
    record.run_id = run_id_;
    record.implementation = point.implementation->name;
    record.family = point.implementation->family;
    // An implementation that also runs kernels of rank > 1 (directly) is factored only on rank-1
    // kernels.
    const Implementation& impl = *point.implementation;
    record.factored =
        impl.factored && (!impl.factored_rank1_only || config_.filters[point.filter].separable);
    if (point.implementation->arithmetic != "fp32")
      record.arithmetic = point.implementation->arithmetic;
    record.params = point.params;
    record.image = record_image(image, config_.images[point.image]);
    record.kernel = record_kernel(filter);
    record.border = to_string(point.border);
    record.output = to_string(point.output);
    record.machine = machine_from_run(run_block_, point.implementation->family);
    return record;
  }

  Problem problem_of(const Point& point) {
    return Problem{image_for(point.image), config_.filters[point.filter], point.border,
                   point.output};
  }

  RunContext context_for(const Point& point) const {
    RunContext context = context_;
    context.l2_flush = measure_for(config_, point.implementation->name).l2_flush;
    return context;
  }

  // The point ready to time, or null with the record marked skipped (unsupported) or failed.
  std::unique_ptr<PreparedPoint> prepare_point(const Point& point, Record& record) {
    const Problem problem = problem_of(point);
    const RunContext context = context_for(point);
    if (auto reason = point.implementation->unsupported(problem, point.params, context)) {
      record.status = Status::skipped;
      record.reason = *reason;
      return nullptr;
    }
    try {
      return point.implementation->prepare(problem, point.params, context);
    } catch (const std::exception& error) {
      record.status = Status::failed;
      record.reason = std::string("error: ") + error.what();
    }
    return nullptr;
  }

  Record run_point(const Point& point, const json& description, const std::string& key) {
    Record record = new_record(point, key);
    std::unique_ptr<PreparedPoint> prepared = prepare_point(point, record);
    if (!prepared) return record;
    try {
      const auto clocks_at_start = clock_sample(point);
      const TimingSamples samples =
          time_repetitions(*prepared, measure_for(config_, point.implementation->name));
      record.timing = timing_from(samples);
      if (clocks_at_start)
        record.gpu_clocks = gpu_clocks_json(clocks_at_start, clock_sample(point));
      verify_record(point, description, *prepared, record);
    } catch (const std::exception& error) {
      record.status = Status::failed;
      record.reason = std::string("error: ") + error.what();
    }
    return record;
  }

  // Compares the point's output with the double reference (and saves it when asked); a
  // difference beyond the tolerance fails the record.
  void verify_record(const Point& point, const json& description, const PreparedPoint& prepared,
                     Record& record) {
    const Problem problem = problem_of(point);
    try {
      const Verification verification =
          verify_output(prepared.output(), reference_for(point, problem),
                        verification_tolerance(*point.implementation, problem, point.params));
      record.verification = verification;
      if (config_.save_outputs)
        record.saved_output = save_point_output(out_dir_, description, prepared.output());
      if (!verification.ok) {
        record.status = Status::failed;
        record.reason = "verification: " + std::to_string(verification.values_beyond_tolerance) +
                        " of " + std::to_string(verification.values_compared) +
                        " values differ from the reference by more than " +
                        field_text(verification.tolerance);
      }
    } catch (const std::exception& error) {
      record.status = Status::failed;
      record.reason = std::string("error: ") + error.what();
    }
  }

  // SIGINT or SIGTERM (interrupt.hpp): the handler runs on another thread while this one works.
  struct InterruptScope {
    explicit InterruptScope(Run& run) {
      set_interrupt_handler([&run] { return run.on_interrupt(); });
    }
    ~InterruptScope() { clear_interrupt_handler(); }
  };

  // Waits for a write in progress, records the run's state (marked interrupted) and folds the
  // journal into results.json when it has written anything, and says what was kept. The lock
  // stays held until the process exits, so no write can start after this one.
  std::string on_interrupt() {
    write_mutex_.lock();
    if (written_) {
      run_block_.interrupted = utc_timestamp();
      compact();
    }
    return "interrupted: " + std::to_string(points_done_.load()) + " of " +
           std::to_string(plan_.size()) + " points done; results kept in " + results_path_ +
           "; run again to resume";
  }

  bool has_ok_record(const std::string& key) {
    const std::lock_guard<std::mutex> lock(write_mutex_);
    const auto existing = record_index_.find(key);
    return existing != record_index_.end() &&
           results_.records[existing->second].status == Status::ok;
  }

  // Appends the record to the folder's journal, flushed to disk: the same work whatever the
  // number of points done. The first line of a run names the experiment and the run. The point
  // counts as done under the same lock, so an interrupt never reports fewer points than the file
  // holds.
  void store(Record record) {
    const std::lock_guard<std::mutex> lock(write_mutex_);
    std::vector<JournalLine> lines = opening_lines();
    lines.push_back({JournalLine::Kind::record, to_json(record)});
    for (auto& entry : pending_gallery_) lines.push_back({JournalLine::Kind::gallery, entry});
    store_.append(lines);
    pending_gallery_.clear();
    remember(record);
    ++points_done_;
  }

  std::vector<JournalLine> opening_lines() {
    if (written_) return {};
    written_ = true;
    return {{JournalLine::Kind::experiment, experiment_},
            {JournalLine::Kind::run, to_json(run_block_)}};
  }

  // Appends the run block as it is now and folds the journal into results.json, with the derived
  // metrics computed once over the whole file. Called with write_mutex_ held.
  void compact() {
    std::vector<JournalLine> lines = opening_lines();
    if (lines.empty()) lines.push_back({JournalLine::Kind::run, to_json(run_block_)});
    for (auto& entry : pending_gallery_) lines.push_back({JournalLine::Kind::gallery, entry});
    pending_gallery_.clear();
    store_.append(lines);
    results_ = store_.compact();
    index_records();
  }

  // Each (image, kernel, border) of the plan once; its input picture is written now, while the
  // image is at hand.
  void note_gallery_item(const Point& point, const Image& image, const Filter& filter) {
    if (!gallery_done_.insert(std::make_tuple(point.image, point.filter, point.border)).second)
      return;
    const std::string& name = config_.images[point.image].name;
    write_gallery_input(out_dir_, image, name);
    gallery_plan_.items.push_back({name, filter, point.border});
  }

  // The gallery's pictures, from the saved outputs of every point the file now holds.
  void draw_gallery() {
    const std::lock_guard<std::mutex> lock(write_mutex_);
    for (const auto& sweep : config_.implementations)
      gallery_plan_.implementation_order.push_back(sweep.name);
    gallery_plan_.implementation = config_.gallery.implementation;
    std::vector<std::string> warnings;
    for (auto& entry :
         build_gallery(results_.records, out_dir_, gallery_plan_, results_.gallery, warnings))
      pending_gallery_.push_back(std::move(entry));
    for (const auto& warning : warnings) std::cerr << "convlab: gallery: " << warning << "\n";
  }

  nlohmann::json measure_json_for(const Point& point) const {
    nlohmann::json measure = config_.resolved["measure"];
    measure.erase("per_implementation");
    const auto& overrides = config_.resolved["measure"].value("per_implementation", json::object());
    if (overrides.contains(point.implementation->name))
      measure = overrides[point.implementation->name];
    return measure;
  }

  // cost_after[i]: the nominal estimate of plan points i.. that are expected to run. A point with
  // an ok record from this build on this CPU is expected to be kept and costs nothing (a guess:
  // the record key, which decides, needs the image bytes).
  std::vector<double> estimated_costs_after(const std::vector<double>& estimates) const {
    std::set<std::string> this_build_runs, measured;
    if (!options_.force) {
      for (const auto& run : results_.runs)
        if (run.build_id() == build_id() && run.host_cpu_model() == cpu_model())
          this_build_runs.insert(run.id);
      for (const auto& record : results_.records)
        if (record.status == Status::ok && this_build_runs.count(record.run_id))
          measured.insert(describe_record(record).dump());
    }
    std::vector<double> after(plan_.size() + 1, 0.0);
    for (size_t i = plan_.size(); i-- > 0;) {
      const bool expected_kept = measured.count(describe_point(config_, plan_[i]).dump()) > 0;
      after[i] = after[i + 1] + (expected_kept ? 0.0 : estimates[i]);
    }
    return after;
  }

  static std::string outcome_text(const Record& record) {
    if (record.status != Status::ok)
      return std::string(to_string(record.status)) + " (" + record.reason + ")";
    const SampleStats& stats = record.timing->compute.stats;
    return "median " + format_number(stats.median, 4) + " ms, CV " +
           format_number(stats.cv * 100, 2) + " %, " + std::to_string(record.timing->repetitions) +
           " repetitions, verified";
  }

  void count(const Record& record) {
    if (record.status == Status::ok)
      ++counts_.ran;
    else if (record.status == Status::skipped)
      ++counts_.skipped;
    else
      ++counts_.failed;
  }

  int report(const std::vector<std::string>& plan_keys) {
    std::vector<Record> rows;
    bool any_failed = false;
    for (const auto& key : plan_keys)
      if (auto found = record_index_.find(key); found != record_index_.end()) {
        rows.push_back(results_.records[found->second]);
        any_failed = any_failed || rows.back().status == Status::failed;
      }
    if (options_.verbosity == Verbosity::quiet) return any_failed ? 1 : 0;
    print_summary_table(rows, run_block_, std::cout);
    print_noisy_points(rows, std::cout);
    std::cout << "\n" << run_counts_line(counts_) << "\n";
    std::cerr << "convlab: results in " << results_path_ << "\n";
    return any_failed ? 1 : 0;
  }

  RunOptions options_;
  Config config_;
  std::string out_dir_;
  ResultsStore store_;
  std::string results_path_;
  ResultsFile results_;                          // the file as this run last wrote or read it
  std::vector<nlohmann::json> pending_gallery_;  // not yet in the journal
  RunBlock run_block_;
  json experiment_;
  std::mutex
      write_mutex_;  // results_, the journal and run_block_ once points run; see on_interrupt
  bool written_ = false;
  std::atomic<size_t> points_done_{0};  // of plan_, measured now or kept
  std::vector<Point> plan_;
  RunContext context_;
  std::string run_id_, device_name_ = "none";
  std::map<std::string, size_t> record_index_;
  std::unique_ptr<GpuClockProbe> clocks_;
  RunCounts counts_;
  std::unique_ptr<Image> current_image_;
  size_t current_image_index_ = 0;
  std::unique_ptr<Reference> reference_;
  std::tuple<size_t, size_t, Border, OutputType> reference_id_{};
  std::set<std::tuple<size_t, size_t, Border>> gallery_done_;
  GalleryPlan gallery_plan_;
};

}  // namespace

int run_experiment(const RunOptions& options, Config config) {
  Run run(options, std::move(config));
  return run.execute();
}

}  // namespace convlab
