#include "run/point_executor.hpp"

#include <algorithm>
#include <stdexcept>

#include "config/config_error.hpp"
#include "core/number_text.hpp"
#include "core/point_filter.hpp"
#include "core/sha256.hpp"
#include "images/image_source.hpp"
#include "impl/cuda/device_facts.hpp"
#include "measure/cpu_topology.hpp"
#include "measure/interleaved.hpp"
#include "measure/provenance.hpp"
#include "measure/repetitions.hpp"
#include "run/measured_points.hpp"
#include "store/machine.hpp"
#include "store/point_outputs.hpp"
#include "verify/verify.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

// What is measured, hashed: a newer measurement of the same point replaces the older record.
std::string point_id(json defined, const std::string& source_version, const Image& image,
                     const Filter& filter, const json& measure) {
  // A user's kernel is what its source says: an edited source is another point.
  if (!source_version.empty()) defined["source"] = source_version;
  defined["image"]["sha256"] = image.sha256;
  defined["kernel"]["weights"] = filter.weights;
  defined["measure"] = measure;
  return sha256_hex(defined.dump());
}

RecordImage record_image(const Image& image, const ImageSpec& spec) {
  return {spec.name, image.source, image.sha256, image.width, image.height, image.channels};
}

RecordKernel record_kernel(const Filter& filter) {
  return {filter.name, filter.type, filter.size, filter.separable, filter.parameters};
}

// The shuffles of a problem's rounds follow from its first point's identity: the same plan is
// timed in the same order again.
std::uint32_t interleave_seed(const std::string& point_id) {
  return static_cast<std::uint32_t>(std::stoul(point_id.substr(0, 8), nullptr, 16));
}

}  // namespace

PointExecutor::PointExecutor(const Config& config, const std::vector<Point>& plan,
                             std::string out_dir, std::string results_path, int cuda_device,
                             PhaseClock* clock)
    : config_(config),
      plan_(plan),
      out_dir_(std::move(out_dir)),
      results_path_(std::move(results_path)),
      clock_(clock ? *clock : own_clock_),
      ahead_enabled_(prepare_ahead_enabled()) {
  context_.cuda_device = cuda_device;
  context_.l2_flush = config_.measure.l2_flush;
}

PointExecutor::~PointExecutor() = default;

json PointExecutor::open_device() {
  const auto timed = clock_.time(WorkPhase::device);
  json cuda = describe_cuda_device(context_);
  device_name_ = cuda.value("name", "none");
  if (cuda.contains("uuid") && cuda["uuid"].is_string())
    device_uuid_ = cuda["uuid"].get<std::string>();
  if (!cuda.value("available", false)) return cuda;
  // Clocks are sampled through NVML for every CUDA point when the device is known to it.
  clocks_ = std::make_unique<GpuClockProbe>(cuda.value("pci_bus_id", ""));
  cuda["clocks"] = clocks_->unavailable()
                       ? json{{"available", false}, {"reason", *clocks_->unavailable()}}
                       : json{{"available", true}, {"source", "NVML"}};
  if (clocks_->unavailable()) clocks_.reset();
  return cuda;
}

void PointExecutor::stamp_records_with(const RunBlock& run) {
  run_ = run;
}

IdentifiedPoint PointExecutor::identify(std::size_t index) {
  return name_point(index, plan_[index]);
}

IdentifiedPoint PointExecutor::identify_variant(std::size_t index, const Point& variant,
                                                std::size_t step) {
  IdentifiedPoint named = name_point(index, variant);
  named.variant = variant;
  named.search_step = step;
  return named;
}

const Point& PointExecutor::point_of(const IdentifiedPoint& identified) const {
  return identified.variant ? *identified.variant : plan_[identified.index];
}

IdentifiedPoint PointExecutor::name_point(std::size_t index, const Point& point) {
  IdentifiedPoint identified;
  identified.index = index;
  identified.label = point.description.label();
  identified.digest = point.digest;
  identified.id = point_id(point.described, point.description.source_version, image(point.image),
                           config_.filters[point.filter], measure_json_for(point));
  // The point plus who measured it: results from another build, machine or device are never
  // taken for a measurement of this one, so such points are run again.
  json keyed{
      {"point", identified.id}, {"build", build_id()}, {"cpu", cpu_model()}, {"host", host_id()}};
  if (point.implementation->family == Family::cuda) {
    keyed["gpu"] = device_name_;
    if (device_uuid_) keyed["gpu_uuid"] = *device_uuid_;
  }
  identified.key = sha256_hex(keyed.dump());
  return identified;
}

const Image& PointExecutor::image(std::size_t index) {
  if (current_image_ && current_image_index_ == index) return *current_image_;
  take_ahead();  // it may hold this image; and no more than two are held
  if (!current_image_ || current_image_index_ != index) {
    current_image_.reset();  // release the previous image before making the next
    reference_.reset();
    const auto timed = clock_.time(WorkPhase::image);
    current_image_ = std::make_shared<const Image>(load_image(config_.images[index]));
    current_image_index_ = index;
  }
  return *current_image_;
}

void PointExecutor::prepare_ahead(std::size_t index) {
  const Point& point = plan_[index];
  const ReferenceId id{point.image, point.filter, point.border, point.output};
  if (!ahead_enabled_ || ahead_.pending() || (reference_ && reference_id_ == id)) return;
  ProblemAhead::Job job;
  job.image_index = point.image;
  if (current_image_ && current_image_index_ == point.image) job.image = current_image_;
  const ImageSpec& spec = config_.images[point.image];
  job.make_image = [this, &spec] { return load_image(spec); };
  job.id = id;
  job.filter = config_.filters[point.filter];
  job.border = point.border;
  job.output = point.output;
  // Every CPU of the process but the timing thread's (OpenMP bound it to its first place).
  const std::vector<int> mine = thread_cpus();
  for (int cpu : start_cpus())
    if (std::find(mine.begin(), mine.end(), cpu) == mine.end()) job.cpus.push_back(cpu);
  if (job.cpus.empty()) job.cpus = start_cpus();
  ahead_.start(std::move(job));
}

void PointExecutor::take_ahead() {
  if (!ahead_.pending()) return;
  std::optional<ProblemAhead::Made> made;
  {
    const auto timed = clock_.time(WorkPhase::reference);
    made = ahead_.take();
  }
  if (!made) return;
  ahead_seconds_ += made->seconds;
  if (!current_image_ || current_image_index_ != made->image_index) {
    current_image_ = std::move(made->image);
    current_image_index_ = made->image_index;
  }
  reference_ = std::move(made->reference);
  reference_id_ = made->id;
}

// An image that cannot be made now (its file changed since validation, or memory ran out) stops
// the run with the config's file and key; the points measured so far are kept.
Image PointExecutor::load_image(const ImageSpec& spec) const {
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

const Reference& PointExecutor::reference_for(const Point& point, const Problem& problem) {
  const ReferenceId id{point.image, point.filter, point.border, point.output};
  if (reference_ && reference_id_ == id) return *reference_;
  if (ahead_.pending() && ahead_.id() == id) take_ahead();
  if (!reference_ || reference_id_ != id) {
    reference_.reset();
    const auto timed = clock_.time(WorkPhase::reference);
    reference_ = std::make_unique<Reference>(compute_reference(problem));
    reference_id_ = id;
  }
  return *reference_;
}

// A record naming the point, before anything runs.
Record PointExecutor::new_record(const IdentifiedPoint& identified) {
  const Point& point = point_of(identified);
  const Image& source = image(point.image);
  const Filter& filter = config_.filters[point.filter];
  Record record;
  record.key = identified.key;
  record.point_id = identified.id;
  record.run_id = run_.id;
  record.implementation = point.implementation->name;
  record.family = family_name(point.implementation->family);
  // An implementation that also runs kernels of rank > 1 (directly) is factored only on rank-1
  // kernels.
  const Implementation& impl = *point.implementation;
  record.factored = impl.factored && (!impl.factored_rank1_only || filter.separable);
  if (point.implementation->arithmetic != "fp32")
    record.arithmetic = point.implementation->arithmetic;
  record.params = point.params;
  record.image = record_image(source, config_.images[point.image]);
  record.kernel = record_kernel(filter);
  record.border = to_string(point.border);
  record.output = to_string(point.output);
  record.machine = machine_from_run(run_, point.implementation->family);
  if (impl.source_facts) record.source = impl.source_facts(problem_of(point), point.params);
  if (point.search)
    record.search = RecordSearch{std::string(to_string(point.search->strategy)),
                                 point.search->seed,
                                 0,
                                 std::nullopt,
                                 std::nullopt,
                                 std::nullopt,
                                 std::nullopt};
  return record;
}

Problem PointExecutor::problem_of(const Point& point) {
  return Problem{image(point.image), config_.filters[point.filter], point.border, point.output};
}

RunContext PointExecutor::context_for(const Point& point) const {
  RunContext context = context_;
  const MeasureSpec& measure = measure_for(config_, point.implementation->name);
  context.l2_flush = measure.l2_flush;
  context.isolated_point_seconds = measure.timeout;
  context.compile_limits = {measure.compile_timeout, measure.compile_memory_gib};
  return context;
}

// The point ready to time, or null with the record marked skipped (unsupported) or failed.
std::unique_ptr<PreparedPoint> PointExecutor::prepare_point(const Point& point, Record& record) {
  const Problem problem = problem_of(point);
  const RunContext context = context_for(point);
  const auto timed = clock_.time(WorkPhase::prepare);
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

std::vector<Record> PointExecutor::measure(const std::vector<IdentifiedPoint>& points) {
  if (points.size() > 1) return measure_interleaved(points);
  std::vector<Record> records;
  for (const auto& point : points) records.push_back(measure_alone(point));
  return records;
}

Record PointExecutor::measure_alone(const IdentifiedPoint& identified) {
  const Point& point = point_of(identified);
  Record record = new_record(identified);
  std::unique_ptr<PreparedPoint> prepared = prepare_point(point, record);
  if (!prepared) return record;
  try {
    {
      const auto timed = clock_.time(WorkPhase::timing);
      const auto clocks_at_start = clock_sample(point);
      const TimingSamples samples =
          time_repetitions(*prepared, measure_for(config_, point.implementation->name));
      record.timing = timing_from(samples);
      if (clocks_at_start)
        record.gpu_clocks = gpu_clocks_json(clocks_at_start, clock_sample(point));
    }
    verify_record(point, *prepared, record);
  } catch (const std::exception& error) {
    record.status = Status::failed;
    record.reason = std::string("error: ") + error.what();
  }
  return record;
}

// Prepares every point of one problem, times them in shuffled rounds, then verifies each in plan
// order. All of them hold their buffers until the end.
std::vector<Record> PointExecutor::measure_interleaved(const std::vector<IdentifiedPoint>& group) {
  std::vector<Record> records;
  std::vector<std::unique_ptr<PreparedPoint>> prepared;
  std::vector<InterleavedPoint> timed;
  std::vector<std::size_t> timed_index;  // into group, per entry of timed
  for (std::size_t g = 0; g < group.size(); ++g) {
    const Point& point = point_of(group[g]);
    records.push_back(new_record(group[g]));
    prepared.push_back(prepare_point(point, records.back()));
    if (!prepared.back()) continue;
    timed.emplace_back();
    timed.back().point = prepared.back().get();
    timed.back().measure = measure_for(config_, point.implementation->name);
    timed_index.push_back(g);
  }
  std::vector<std::optional<GpuClockSample>> clocks_at_start;
  {
    const auto timing = clock_.time(WorkPhase::timing);
    for (std::size_t t = 0; t < timed.size(); ++t)
      clocks_at_start.push_back(clock_sample(point_of(group[timed_index[t]])));
    time_interleaved(timed, interleave_seed(group.front().id));
  }
  for (std::size_t t = 0; t < timed.size(); ++t) {
    const std::size_t g = timed_index[t];
    Record& record = records[g];
    if (timed[t].error) {
      record.status = Status::failed;
      record.reason = "error: " + *timed[t].error;
      continue;
    }
    const Point& point = point_of(group[g]);
    record.timing = timing_from(timed[t].samples);
    if (clocks_at_start[t])
      record.gpu_clocks = gpu_clocks_json(clocks_at_start[t], clock_sample(point));
    verify_record(point, *prepared[g], record);
  }
  return records;
}

// Compares the point's output with the double reference (and saves it when asked); a difference
// beyond the tolerance fails the record.
void PointExecutor::verify_record(const Point& point, const PreparedPoint& prepared,
                                  Record& record) {
  const Problem problem = problem_of(point);
  try {
    const Reference& reference = reference_for(point, problem);
    Verification verification;
    {
      const auto timed = clock_.time(WorkPhase::verify);
      verification =
          verify_output(prepared.output(), reference,
                        verification_tolerance(*point.implementation, problem, point.params));
    }
    record.verification = verification;
    if (config_.save_outputs) {
      const auto timed = clock_.time(WorkPhase::save);
      record.saved_output = save_point_output(out_dir_, point.description, prepared.output());
    }
    if (!verification.ok) {
      record.status = Status::failed;
      const Image& input = problem.input;
      const std::size_t pixel = verification.worst_index / input.channels;
      record.reason =
          "verification: " + std::to_string(verification.values_beyond_tolerance) + " of " +
          std::to_string(verification.values_compared) +
          " values differ from the reference by more than " + field_text(verification.tolerance) +
          "; the largest difference, " + field_text(verification.max_abs_error) + ", at pixel (" +
          std::to_string(pixel % input.width) + ", " + std::to_string(pixel / input.width) +
          ") channel " + std::to_string(verification.worst_index % input.channels);
    }
  } catch (const std::exception& error) {
    record.status = Status::failed;
    record.reason = std::string("error: ") + error.what();
  }
}

std::optional<GpuClockSample> PointExecutor::clock_sample(const Point& point) const {
  if (!clocks_ || point.implementation->family != Family::cuda) return std::nullopt;
  return clocks_->sample();
}

json PointExecutor::measure_json_for(const Point& point) const {
  return point_measure_json(config_.resolved, point.implementation->name);
}

}  // namespace convlab
