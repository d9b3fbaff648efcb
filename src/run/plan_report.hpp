// `convlab run --dry-run`: the plan, its size and a rough cost estimate.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "plan/plan.hpp"
#include "plan/skips.hpp"
#include "run/hand_out.hpp"
#include "run/measured_points.hpp"
#include "run/schedule.hpp"

namespace convlab {

// The reference per tap and thread of the committed runs' code (the border resolved at every tap,
// one value at a time), and how much faster reference/reference.cpp computes it now (1.5x at K = 3,
// 1.9x at K = 13 on the development machine: bench/host_work.cpp --before).
constexpr double kFittedReferenceTapSeconds = 4.4e-9;
constexpr double kReferenceSpeedupSinceFit = 1.7;

// What the host's work costs on the machine an estimate is for. Per thread and per value, from the
// committed runs of the H200 and H100 machines (docs/scale-out.md, "How long a run takes"), where a
// reference took 4.4 ns per tap on one of 16 threads and verification 2.1 ns per value on its one
// thread (the cost the points' timed calls leave, fitted over 11 runs).
struct HostModel {
  // Logical CPUs: the OpenMP threads a point may use and the threads of the reference and of
  // verification. 0: no machine in particular (threads as asked, the reference and verification
  // on 8), so that the same config gives the same shards everywhere (run/schedule.hpp).
  unsigned logical_cpus = 0;
  // Threads comparing an output with the reference; 0: as logical_cpus.
  unsigned verify_threads = 0;
  // One thread each.
  double reference_seconds_per_tap = kFittedReferenceTapSeconds / kReferenceSpeedupSinceFit;
  double verify_seconds_per_value = 2.1e-9;
};
// This machine: its logical CPUs, verification on verify/verify.hpp's threads.
HostModel this_machine_model();

// A rough estimate of one point's wall time: warm-up plus repetitions at a nominal rate per
// implementation family, capped by the measure block's time budget, plus verifying its output and
// the runner's own work. Only for planning.
double estimated_point_seconds(const Config& config, const Point& point, const HostModel& host);
// The warm-up and timed calls alone, without verification and the runner's work.
double estimated_timing_seconds(const Config& config, const Point& point, const HostModel& host);
// The reference computation a problem's first point waits for.
double estimated_reference_seconds(const Config& config, const Point& point, const HostModel& host);
// Per point of the plan: its estimate plus, for the first point of an image, kernel, border and
// output, the reference computation it waits for.
// A point `skips` names (plan/skips.hpp) costs nothing; the reference is counted for the first
// point of a problem that runs.
std::vector<double> estimated_plan_seconds(const Config& config, const std::vector<Point>& plan,
                                           const std::vector<std::optional<PlannedSkip>>& skips,
                                           const HostModel& host = this_machine_model());
// The plan as a table, skipped points marked with their reason, then its counts and cost.
// One line per search of the config: its strategies and seeds, the space after restrictions, the
// budget and its share of the space ("search tunable (annealing; 1 seed): 384 variants after
// restrictions, budget 40 per problem and search (10.4 % of the space), ...").
std::vector<std::string> search_summary(const Config& config, const std::vector<Point>& plan);

// With `measured` (the results file's points, run/measured_points.hpp), points it holds show
// "measured" instead of an estimate, the counts say "0 new points (744 measured)" and the cost is
// that of the new points.
void print_plan(const Config& config, const std::vector<Point>& plan,
                const std::vector<std::optional<PlannedSkip>>& skips, std::ostream& out,
                const MeasuredPoints* measured = nullptr);

// A device worker's share of `machine`: its logical CPUs and verification threads divided by
// `workers` (run/worker_cpus.hpp gives each worker an equal share of the cores).
HostModel worker_model(const HostModel& machine, int workers);
// A unit's estimate on `host`: the reference its problem waits for and its points, a search its
// budget's share of its variants.
double estimated_unit_seconds(const Config& config, const std::vector<Point>& plan,
                              const WorkUnit& unit, const HostModel& host);
// Each hand-out item's estimate on `host`: its units'.
std::vector<double> estimated_item_seconds(const Config& config, const std::vector<Point>& plan,
                                           const Schedule& schedule,
                                           const std::vector<HandOutItem>& items,
                                           const HostModel& host);
// What a device worker pays each time it changes images, per config image: making the image (and
// its SHA-256) and the first device and pinned buffers of it, fitted to the committed gpu_pair runs
// of the H200 host (1.9-3.6 s for RGB 8192^2, 1.1-2.5 s for 6144^2).
std::vector<double> estimated_image_setup_seconds(const Config& config);
// The hand-out of `schedule`'s CUDA items to `workers` workers of `host`, forecast from the start
// (one worker: in plan order, as a plain run walks them).
HandOutForecast forecast_devices(const Config& config, const std::vector<Point>& plan,
                                 const Schedule& schedule, int workers, const HostModel& host);

// `--dry-run --shard I/N`: the shard's share of the plan's estimated cost, and the range of the
// shares of all N.
void print_shard_balance(const ShardCut& cut, int index, std::ostream& out);
// `--dry-run --devices ...`: the CUDA units each worker would measure and their share of the CUDA
// cost, and the CPU points measured after them: the forecast of the hand-out (run/hand_out.hpp),
// with each worker's image set-ups, or with CONVLAB_HAND_OUT=fixed the split made before the run.
// `checked`: the devices were checked against this machine.
void print_device_split(const Config& config, const std::vector<Point>& plan,
                        const Schedule& schedule, const std::vector<int>& devices, bool checked,
                        std::ostream& out);

// With measure.interleave: a warning when points of more than one thread pool run with several
// threads (OpenMP and OpenCV's), since one pool's idle workers spin for a while after its call and
// slow the next point's threads; nullopt otherwise.
std::optional<std::string> mixed_thread_pools_warning(const Config& config,
                                                      const std::vector<Point>& plan);

}  // namespace convlab
