#include "run/local_run.hpp"

#include "user_kernels/kernel_source.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <tuple>

#include "gallery/gallery.hpp"
#include "measure/cpu_calibration.hpp"
#include "measure/cpu_topology.hpp"
#include "measure/provenance.hpp"
#include "measure/run_conditions.hpp"
#include "measure/work_phases.hpp"
#include "plan/skips.hpp"
#include "run/devices.hpp"
#include "run/interrupt.hpp"
#include "run/observers.hpp"
#include "run/phase_report.hpp"
#include "run/plan_compiles.hpp"
#include "run/plan_report.hpp"
#include "run/point_executor.hpp"
#include "run/recorder.hpp"
#include "run/search_walk.hpp"
#include "run/unit_feed.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

// A user's kernel as the run block keeps it: the source and the files it includes, with texts.
KernelSourceText kernel_source_text(const UserKernelSource& source) {
  KernelSourceText text{source.config_path, source.sha256, source.text, {}, ""};
  if (source.includes.empty()) return text;
  text.version = source.version;
  for (const IncludedFile& included : source.includes)
    text.includes.push_back({included.relative, included.file.sha256, included.file.text});
  return text;
}

using json = nlohmann::json;

std::string make_run_id(const std::string& started) {
  std::random_device entropy;
  char suffix[9];
  std::snprintf(suffix, sizeof suffix, "%08x", entropy());
  return started + "-" + suffix;
}

// SIGINT or SIGTERM (interrupt.hpp): the handler runs on another thread while this one works.
class InterruptScope {
 public:
  InterruptScope(Recorder& recorder, std::size_t total) {
    set_interrupt_handler([&recorder, total] {
      const std::size_t done = recorder.interrupt();
      return "interrupted: " + std::to_string(done) + " of " + std::to_string(total) +
             " points done; results kept in " + recorder.results_path() + "; run again to resume";
    });
  }
  ~InterruptScope() { clear_interrupt_handler(); }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// Implementations with a `finished` hook (users' kernels end their host there) are told once the
// last unit of the schedule with a point of theirs has been walked, whatever order the feed gives
// the units in; those a walk never finishes (a device worker's hand-out leaves units to others, or
// --max-points ends the run) are told when the walk ends.
class ImplementationEnds {
 public:
  ImplementationEnds(const std::vector<WorkUnit>& units, const std::vector<Point>& plan) {
    for (const WorkUnit& unit : units) {
      std::set<const Implementation*> in_unit;
      for (std::size_t i : unit.points) in_unit.insert(plan[i].implementation);
      for (const auto& search : unit.searches) in_unit.insert(plan[search.point].implementation);
      for (const Implementation* implementation : in_unit) {
        if (!implementation->finished) continue;
        units_left_[implementation] += 1;
        of_unit_[&unit].push_back(implementation);
      }
    }
  }

  void walked(const WorkUnit& unit) {
    const auto found = of_unit_.find(&unit);
    if (found == of_unit_.end()) return;
    for (const Implementation* implementation : found->second)
      if (--units_left_[implementation] == 0) implementation->finished();
  }

  void all() {
    for (const auto& [implementation, left] : units_left_)
      if (left > 0) implementation->finished();
  }

 private:
  std::map<const Implementation*, std::size_t> units_left_;
  std::map<const WorkUnit*, std::vector<const Implementation*>> of_unit_;
};

class LocalRun {
 public:
  explicit LocalRun(const RunJob& job)
      : job_(job),
        options_(*job.options),
        config_(*job.config),
        plan_(*job.plan),
        recorder_(job.target.store(), config_.name, job.read_only),
        executor_(config_, plan_, job.target.out_dir, job.target.path(), job.cuda_device, &clock_),
        compiles_(config_, plan_, job.cuda_device, job.compiled_first) {}

  LocalOutcome execute() {
    clock_.add(WorkPhase::setup, process_age_seconds());
    const PhaseSeconds before_start = clock_.totals();
    recorder_.fold_leftover_journal();
    start_run_block();
    // The device's own time (opening, calibration) is its phase; the rest of the start is "start".
    const PhaseSeconds during_start = clock_.totals() - before_start;
    clock_.add(WorkPhase::start, seconds_since(started_) - during_start.sum());
    const InterruptScope interrupts(recorder_, job_.schedule.points());
    std::vector<std::size_t> order;
    for (const auto& unit : job_.schedule.units) {
      order.insert(order.end(), unit.points.begin(), unit.points.end());
      // A search's point takes a place per step (IdentifiedPoint::search_step).
      for (const auto& search : unit.searches)
        order.insert(order.end(), std::max<std::size_t>(1, search.budget), search.point);
    }
    RunContext context;
    context.cuda_device = job_.cuda_device;
    skips_ = planned_skips(config_, plan_, context);
    ProgressObserver progress(config_, plan_, order, skips_, recorder_.results(), options_.force,
                              progress_style());
    progress_ = &progress;
    observers_.add(progress);
    observers_.add(counter_);
    for (RunObserver* observer : options_.observers) observers_.add(*observer);
    try {
      walk_units();
    } catch (...) {
      recorder_.fold_after_error();
      throw;
    }
    observers_.done();
    if (options_.verbosity != Verbosity::quiet && !job_.worker) compiles_.say(&std::cerr);
    if (config_.save_outputs) draw_gallery();
    RunCounts& counts = counter_.counts();
    counts.not_run =
        job_.schedule.points() - counts.kept - counts.ran - counts.skipped - counts.failed;
    if (job_.worker && job_.part) {
      PartBlock part = *job_.part;
      part.points = digests_;
      part.keys = keys_;
      recorder_.set_part(std::move(part));
    }
    const RunPhases phases = run_phases();
    recorder_.set_phases(phases);
    recorder_.finish();
    if (options_.phases || options_.verbosity == Verbosity::verbose)
      print_phases(phases, progress_style().who, std::cerr);
    LocalOutcome outcome{keys_, {}, counts, recorder_.run_block()};
    for (const auto& key : keys_)
      if (const Record* record = recorder_.record(key)) outcome.rows.push_back(*record);
    return outcome;
  }

  const Recorder& recorder() const { return recorder_; }

 private:
  ProgressStyle progress_style() const {
    ProgressStyle style = Progress::style_for_stderr(options_.verbosity == Verbosity::quiet,
                                                     options_.verbosity == Verbosity::verbose);
    if (job_.worker) {
      // Workers share the terminal: plain lines, each saying whose it is.
      style.terminal = false;
      style.who = "convlab [device " + std::to_string(job_.cuda_device) + "]";
      style.tag = "[device " + std::to_string(job_.cuda_device) + "] ";
      // Handed out one problem group at a time, a worker does not know its share: the run that
      // started it shows the progress of all of them.
      if (job_.feed) style.quiet = true;
    }
    return style;
  }

  bool any_point_of(Family family) const {
    for (const auto& unit : job_.schedule.units) {
      for (std::size_t i : unit.points)
        if (plan_[i].implementation->family == family) return true;
      for (const auto& search : unit.searches)
        if (plan_[search.point].implementation->family == family) return true;
    }
    return false;
  }
  bool any_cuda_point() const { return any_point_of(Family::cuda); }

  void start_run_block() {
    RunBlock run;
    run.started = utc_timestamp();
    run.id = make_run_id(run.started);
    run.config_path = config_.path;
    run.config_sha256 = config_.sha256;
    run.resolved_config = config_.resolved;
    for (const auto& sweep : config_.implementations)
      if (sweep.user_source) run.sources.push_back(kernel_source_text(*sweep.user_source));
    run.build = build_facts();
    run.host = host_facts();
    run.argv = options_.argv;
    run.git = git_facts();
    run.conditions = run_conditions();
    run.measure = RunMeasure{config_.measure, config_.measure_overrides};
    if (any_cuda_point()) run.cuda = executor_.open_device();
    // On the threads the CPU points run on, before any of them: compare and history tell
    // another machine (or another state of this one) from another build by it.
    if (const double seconds = cpu_calibration_budget(); seconds > 0 && any_point_of(Family::cpu))
      run.cpu_calibration = calibrate_cpu(seconds);
    const bool speak = options_.verbosity != Verbosity::quiet && !job_.worker;
    // Said before the first point is measured, and only then: a run that keeps every point
    // measures nothing the load could disturb.
    if (speak)
      noise_warnings_ = noise_warnings(*run.conditions, run.host.value("logical_cpus", 0u));
    if (auto mixed = mixed_thread_pools_warning(config_, plan_); mixed && speak)
      std::cerr << "convlab: warning: " << *mixed << "\n";
    const std::string others =
        other_hosts_summary(recorder_.results().records, machine_from_run(run, Family::cpu));
    if (!others.empty() && !job_.worker)
      std::cerr << "convlab run: note: " << recorder_.results_path() << " already holds " << others
                << " (another machine); they are kept, and speedups, figures and tables keep "
                   "the machines apart\n";
    json experiment{{"name", config_.name},
                    {"title", config_.title},
                    {"description", config_.description},
                    {"baseline",
                     {{"implementation", config_.baseline.implementation},
                      {"params", config_.baseline.params}}}};
    executor_.stamp_records_with(run);
    recorder_.begin(std::move(run), std::move(experiment));
    if (job_.part) recorder_.set_part(*job_.part);
  }

  static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  RunPhases run_phases() const {
    RunPhases phases;
    phases.wall = clock_.totals()[WorkPhase::setup] + seconds_since(started_);
    phases.totals = clock_.totals();
    phases.ahead = executor_.ahead_seconds();
    phases.prepare_ahead = executor_.prepares_ahead();
    phases.device = any_cuda_point() ? job_.cuda_device : -1;
    phases.cpus = cpu_list_text(start_cpus());
    phases.openmp_threads = openmp_threads();
    phases.problems = problems_;
    return phases;
  }

  // The unit's problem, named as its records name it, with the time it took.
  ProblemPhases problem_phases(const WorkUnit& unit, std::size_t measured,
                               std::chrono::steady_clock::time_point start,
                               const PhaseSeconds& before) const {
    const Point& point = plan_[first_point(unit)];
    ProblemPhases problem;
    problem.image = config_.images[point.image].name;
    problem.kernel = config_.filters[point.filter].name;
    problem.border = to_string(point.border);
    problem.output = to_string(point.output);
    problem.points = measured;
    problem.wall = seconds_since(start);
    problem.phases = clock_.totals() - before;
    return problem;
  }

  // The unit's points to run and its searches time CUDA points only: the host may prepare the next
  // problem meanwhile.
  bool only_cuda(const WorkUnit& unit, const std::vector<IdentifiedPoint>& points) const {
    const auto cuda = [&](std::size_t i) {
      return plan_[i].implementation->family == Family::cuda;
    };
    for (const auto& point : points)
      if (!cuda(point.index)) return false;
    for (const auto& search : unit.searches)
      if (!cuda(search.point)) return false;
    return !points.empty() || !unit.searches.empty();
  }

  static std::size_t first_point(const WorkUnit& unit) {
    return unit.points.empty() ? unit.searches.front().point : unit.points.front();
  }

  // Every unit the feed gives, in its order (the schedule's, or a device worker's hand-out); a
  // unit's points are named first (kept ones are reported), the rest measured. --max-points stops
  // the run at the first point beyond it, after measuring what its unit had taken. The time of
  // each unit's steps goes to its problem's phases; the next unit's image and reference are made
  // meanwhile when the unit times CUDA points only (CONVLAB_PREPARE_AHEAD=1), and waited for
  // before the next unit.
  void walk_units() {
    PointBudget budget(options_.max_points);
    ScheduleFeed in_order(job_.schedule);
    UnitFeed& feed = job_.feed ? *job_.feed : in_order;
    ImplementationEnds ends(job_.schedule.units, plan_);
    while (const WorkUnit* next = feed.next()) {
      const WorkUnit& unit = *next;
      const auto start = std::chrono::steady_clock::now();
      const PhaseSeconds before = clock_.totals();
      const double ahead_before = executor_.ahead_seconds();
      executor_.take_ahead();
      if (!problems_.empty()) problems_.back().ahead += executor_.ahead_seconds() - ahead_before;
      std::vector<IdentifiedPoint> to_run;
      bool limit_reached = false;
      for (std::size_t i : unit.points) {
        IdentifiedPoint point = identify(i);
        if (config_.save_outputs) note_gallery_item(plan_[i]);
        if (!options_.force && recorder_.has_ok_record(point.key)) {
          observers_.kept(point);
          recorder_.count_kept();
          continue;
        }
        if (budget.exhausted()) {
          limit_reached = true;
          break;
        }
        budget.spend();
        to_run.push_back(std::move(point));
      }
      if (!limit_reached && executor_.prepares_ahead() && only_cuda(unit, to_run))
        if (const WorkUnit* ahead = feed.after()) executor_.prepare_ahead(first_point(*ahead));
      compile_ahead(to_run);
      if (unit.interleaved && to_run.size() > 1) {
        measure_group(to_run);
      } else {
        for (auto& point : to_run) measure_group({point});
      }
      const std::size_t searched_before = searched_;
      for (const auto& search : unit.searches)
        if (limit_reached || !walk_search(search, budget)) {
          limit_reached = true;
          break;
        }
      problems_.push_back(
          problem_phases(unit, to_run.size() + searched_ - searched_before, start, before));
      ends.walked(unit);
      if (limit_reached) break;
      feed.finished();
    }
    executor_.take_ahead();  // nothing is left running once the units are done
    ends.all();
  }

  // Names the point and notes its digest and key, in the order the run reaches them (a device
  // worker's part block lists them).
  IdentifiedPoint identify(std::size_t index) { return noted(executor_.identify(index)); }
  IdentifiedPoint noted(IdentifiedPoint point) {
    digests_.push_back(point.digest);
    keys_.push_back(point.key);
    return point;
  }

  // One search of one problem (run/search_walk.hpp): its variants are measured as the strategy
  // proposes them, or found in the results (a search run again continues where it stopped).
  // False when --max-points ended the run.
  bool walk_search(const SearchGroup& search, PointBudget& budget) {
    SearchWalk walk(config_, plan_, search, job_.cuda_device);
    bool limit_reached = false;
    walk.run([&](const Point& variant,
                 const SearchWalk::Step& step) -> std::optional<SearchWalk::Measured> {
      IdentifiedPoint point = noted(
          executor_.identify_variant(search.point, variant, static_cast<std::size_t>(step.number)));
      if (config_.save_outputs) note_gallery_item(variant);
      if (!options_.force && recorder_.has_ok_record(point.key)) {
        observers_.kept(point);
        recorder_.count_kept();
        return SearchWalk::Measured{*recorder_.record(point.key), 0.0};
      }
      if (budget.exhausted()) {
        limit_reached = true;
        return std::nullopt;
      }
      budget.spend();
      ++searched_;
      warn_before_measuring();
      observers_.starting({point});
      const PhaseSeconds before = clock_.totals();
      const auto start = std::chrono::steady_clock::now();
      Record record = executor_.measure({point}).front();
      // The problem's image and reference are made once for all its points: not the search's.
      const PhaseSeconds made = clock_.totals() - before;
      const double seconds =
          std::max(0.0, seconds_since(start) - made[WorkPhase::image] - made[WorkPhase::reference]);
      stamp_search_step(record, step, walk.objective_of(record), seconds);
      observers_.finished(point, record, true);
      SearchWalk::Measured measured{record, seconds};
      recorder_.store(std::move(record));
      observers_.recorded({point}, progress_->snapshot());
      return measured;
    });
    return !limit_reached;
  }

  // Starts compiling the variants of users' kernels these points need, in their order; CPU points
  // never share the cores with a compiler while they are timed, so their unit waits for all.
  void compile_ahead(const std::vector<IdentifiedPoint>& points) {
    if (!compiles_.any()) return;
    std::vector<std::size_t> indices;
    bool cpu = false;
    for (const auto& point : points) {
      if (point.index < skips_.size() && skips_[point.index]) continue;  // never prepared
      indices.push_back(point.index);
      cpu |= plan_[point.index].implementation->family != Family::cuda;
    }
    compiles_.start(indices);
    if (cpu) wait_for_compiles(points);
  }

  // Waits for the points' compiles; the time goes to the prepare phase, where compiling a point
  // not compiled ahead would go.
  void wait_for_compiles(const std::vector<IdentifiedPoint>& points) {
    if (!compiles_.any()) return;
    const auto timed = clock_.time(WorkPhase::prepare);
    for (const auto& point : points) compiles_.wait(point.index);
  }

  void measure_group(const std::vector<IdentifiedPoint>& group) {
    wait_for_compiles(group);
    warn_before_measuring();
    observers_.starting(group);
    std::vector<Record> records = executor_.measure(group);
    pretend_device_time(group, records);
    const auto timed = clock_.time(WorkPhase::record);
    for (std::size_t g = 0; g < group.size(); ++g) {
      observers_.finished(group[g], records[g], g == 0);
      recorder_.store(std::move(records[g]));
    }
    observers_.recorded(group, progress_->snapshot());
  }

  // A pretend device (run/devices.hpp) takes the time its points' work would take there.
  void pretend_device_time(const std::vector<IdentifiedPoint>& group,
                           const std::vector<Record>& records) {
    double seconds = 0.0;
    for (std::size_t g = 0; g < group.size(); ++g)
      if (records[g].status == Status::skipped)
        seconds += pretend_device_seconds(config_, plan_[group[g].index], job_.cuda_device);
    if (seconds <= 0.0) return;
    const auto timed = clock_.time(WorkPhase::timing);
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  }

  void warn_before_measuring() {
    for (const auto& warning : noise_warnings_) std::cerr << "convlab: " << warning << "\n";
    noise_warnings_.clear();
  }

  // Each (image, kernel, border) of the job once; its input picture is written now, while the
  // image is at hand.
  void note_gallery_item(const Point& point) {
    if (!gallery_done_.insert(std::make_tuple(point.image, point.filter, point.border)).second)
      return;
    const std::string& name = config_.images[point.image].name;
    write_gallery_input(job_.target.out_dir, executor_.image(point.image), name);
    gallery_plan_.items.push_back({name, config_.filters[point.filter], point.border});
  }

  // The gallery's pictures, from the saved outputs of every point the file now holds.
  void draw_gallery() {
    for (const auto& sweep : config_.implementations)
      gallery_plan_.implementation_order.push_back(sweep.name);
    gallery_plan_.implementation = config_.gallery.implementation;
    std::vector<std::string> warnings;
    recorder_.draw_gallery([&](const ResultsFile& results) {
      return build_gallery(this_version(results.records), job_.target.out_dir, gallery_plan_,
                           results.gallery, warnings);
    });
    for (const auto& warning : warnings) std::cerr << "convlab: gallery: " << warning << "\n";
  }

  // The records but those of another version of a user's kernel than the one this run compiled
  // (store/source_versions.hpp): the gallery never shows an output of an earlier version.
  std::vector<Record> this_version(const std::vector<Record>& records) const {
    std::map<std::string, std::string> compiled;
    for (const Point& point : plan_)
      compiled[point.description.implementation] = point.description.source_version;
    std::vector<Record> kept;
    for (const Record& record : records) {
      const auto found = compiled.find(record.implementation);
      if (found == compiled.end() || found->second == record.source_version())
        kept.push_back(record);
    }
    return kept;
  }

  const RunJob& job_;
  const RunOptions& options_;
  const Config& config_;
  const std::vector<Point>& plan_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  PhaseClock clock_;
  std::vector<ProblemPhases> problems_;
  std::size_t searched_ = 0;                 // search steps measured so far
  std::vector<std::string> noise_warnings_;  // to say before the first point measured
  Recorder recorder_;
  PointExecutor executor_;
  PlanCompiles compiles_;
  std::vector<std::optional<PlannedSkip>> skips_;  // known before the run, per plan point
  ObserverList observers_;
  ProgressObserver* progress_ = nullptr;
  RunCounter counter_;
  std::vector<std::string> digests_, keys_;  // of the points reached, in order
  std::set<std::tuple<std::size_t, std::size_t, Border>> gallery_done_;
  GalleryPlan gallery_plan_;
};

}  // namespace

LocalOutcome run_locally(const RunJob& job) {
  LocalRun run(job);
  return run.execute();
}

}  // namespace convlab
