// The point executor: turns the points of a work unit into records. It holds what measuring needs
// across points (the current image and its reference, one CUDA device and its clock probe) and
// nothing about where records go (run/recorder.hpp) or who watches (run/observers.hpp).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "config/config.hpp"
#include "core/image.hpp"
#include "impl/implementation.hpp"
#include "measure/gpu_clocks.hpp"
#include "measure/work_phases.hpp"
#include "plan/plan.hpp"
#include "reference/reference.hpp"
#include "run/identified_point.hpp"
#include "run/problem_ahead.hpp"
#include "store/record.hpp"
#include "store/run_block.hpp"

namespace convlab {

class PointExecutor {
 public:
  // `out_dir`: the results folder (saved outputs go there); `results_path` is named when an
  // image cannot be made. `clock`: where the time of each step goes (work_phases.hpp); null, a
  // clock of its own.
  PointExecutor(const Config& config, const std::vector<Point>& plan, std::string out_dir,
                std::string results_path, int cuda_device, PhaseClock* clock = nullptr);
  ~PointExecutor();
  PointExecutor(const PointExecutor&) = delete;
  PointExecutor& operator=(const PointExecutor&) = delete;

  // The device's facts for the run block ("cuda": name, UUID, index, calibration), measured
  // once; CUDA points are keyed by that device from then on, and their clocks sampled.
  nlohmann::json open_device();
  // New records carry this run's id and machine.
  void stamp_records_with(const RunBlock& run);

  // Names the point; loads its image when it is not the current one (the id hashes its bytes).
  IdentifiedPoint identify(std::size_t index);
  // Names a variant of the search at plan point `index`, measured at `step` (from 1).
  IdentifiedPoint identify_variant(std::size_t index, const Point& variant, std::size_t step);
  const Image& image(std::size_t image_index);

  // Measures one point, or the points of one problem together in shuffled rounds
  // (measure/interleaved.hpp), and returns their records in the order given.
  std::vector<Record> measure(const std::vector<IdentifiedPoint>& points);

  // With CONVLAB_PREPARE_AHEAD=1 (problem_ahead.hpp): starts making the image and reference of
  // point `index`'s problem on a background thread. Call it only before timing CUDA points: the
  // caller waits for it (take_ahead) before any CPU point.
  void prepare_ahead(std::size_t index);
  // Waits for what prepare_ahead started and makes it current; its wait counts as reference time.
  void take_ahead();
  bool prepares_ahead() const { return ahead_enabled_; }
  // The background thread's seconds so far.
  double ahead_seconds() const { return ahead_seconds_; }

 private:
  Image load_image(const ImageSpec& spec) const;
  const Point& point_of(const IdentifiedPoint& identified) const;
  IdentifiedPoint name_point(std::size_t index, const Point& point);
  const Reference& reference_for(const Point& point, const Problem& problem);
  Record new_record(const IdentifiedPoint& point);
  Problem problem_of(const Point& point);
  RunContext context_for(const Point& point) const;
  std::unique_ptr<PreparedPoint> prepare_point(const Point& point, Record& record);
  Record measure_alone(const IdentifiedPoint& point);
  std::vector<Record> measure_interleaved(const std::vector<IdentifiedPoint>& group);
  void verify_record(const Point& point, const PreparedPoint& prepared, Record& record);
  std::optional<GpuClockSample> clock_sample(const Point& point) const;
  nlohmann::json measure_json_for(const Point& point) const;

  const Config& config_;
  const std::vector<Point>& plan_;
  std::string out_dir_, results_path_;
  RunContext context_;
  std::string device_name_ = "none";
  std::optional<std::string> device_uuid_;
  RunBlock run_;
  std::unique_ptr<GpuClockProbe> clocks_;
  PhaseClock own_clock_;
  PhaseClock& clock_;
  // Shared with a background job that reads it (problem_ahead.hpp).
  std::shared_ptr<const Image> current_image_;
  std::size_t current_image_index_ = 0;
  std::unique_ptr<Reference> reference_;
  ReferenceId reference_id_{};
  bool ahead_enabled_ = false;
  ProblemAhead ahead_;
  double ahead_seconds_ = 0.0;
};

}  // namespace convlab
