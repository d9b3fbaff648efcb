// The schedule of `convlab run`: the plan (after --filter) turned into work units, the groups of
// points that are measured together, and cut into shards or spread over devices.
//
// A unit is the points of one problem (image, kernel, border, output), in plan order; with
// measure.interleave they are timed together in shuffled rounds. Units of one bundle always go
// to the same shard or device: the bundle is the problem, or with save_outputs the gallery item
// (image, kernel, border), whose picture is chosen from every output of it. So every comparison
// (a speedup over the baseline, a parallel efficiency) pairs records of one machine.
//
// Shards and device splits are balanced by the estimated cost of the units (the nominal rates of
// --dry-run, run/plan_report.hpp, with no machine's core count in them: threads as asked, the
// reference on 8 cores), greedily: bundles in
// falling cost, each to the part with the least cost so far, ties to the earlier bundle and the
// lower part. Costs are whole microseconds, so the same config and N give the same parts on every
// machine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plan/plan.hpp"
#include "store/part_block.hpp"

namespace convlab {

// One search of one problem (plan/search_points.hpp): it measures at most `budget` variants,
// chosen as it goes.
struct SearchGroup {
  std::size_t point = 0;  // the search's point: an index into the plan
  // The variants it measures at most; for a search bounded by max_seconds alone, the variants
  // its time allows at nominal rates (the progress's estimate; it may measure more).
  std::size_t budget = 0;
  std::optional<double> max_seconds;  // and/or: its time
};

struct WorkUnit {
  std::vector<std::size_t> points;  // indices into the plan, in plan order; searched ones apart
  std::vector<SearchGroup> searches;
  std::size_t bundle = 0;    // units of one bundle stay together
  bool interleaved = false;  // time the points together (measure.interleave)
  bool gpu = false;          // CUDA points only (units split by family)
  std::int64_t cost_us = 0;  // estimated, whole microseconds
};

struct Schedule {
  std::vector<WorkUnit> units;  // in plan order
  // The points to measure: every plain point and each search's budget.
  std::size_t points() const;
  std::int64_t cost_us() const;
};

Schedule make_schedule(const Config& config, const std::vector<Point>& plan);
// The CPU and the CUDA points of every unit as two units, in that order (device workers measure
// the CUDA ones, one process the CPU ones); bundles are kept.
Schedule split_by_family(const Config& config, const std::vector<Point>& plan,
                         const Schedule& schedule);

// The units of one bundle: a problem group, never split between shards or devices.
struct ProblemGroup {
  std::vector<std::size_t> units;  // indices into the schedule, in its order
  std::int64_t cost_us = 0;
  std::size_t points = 0;  // plain points and each search's budget
};
// The groups of `schedule` (of its CUDA units only, with `cuda_only`), in the order of their
// first unit.
std::vector<ProblemGroup> problem_groups(const Schedule& schedule, bool cuda_only);

// The shard every unit of `schedule` belongs to, for `count` shards.
struct ShardCut {
  int count = 1;
  std::vector<int> shard_of_unit;
  std::vector<std::int64_t> cost_us;  // per shard
  std::vector<std::size_t> points;    // per shard
  std::vector<std::size_t> bundles;   // per shard
  std::string digest;                 // of shard_of_unit: the same cut gives the same digest
};
ShardCut cut_into_shards(const Schedule& schedule, int count);
// The units of one shard, in plan order.
Schedule units_of_shard(const Schedule& schedule, const ShardCut& cut, int index);

// "3/8" -> {3, 8}; nullopt with `error` saying what is wrong ("the index 3 is not below the
// count 2: shards are numbered 0 to 1").
std::optional<ShardIndex> parse_shard(const std::string& text, std::string* error);

// The device worker (0 .. workers-1) every CUDA unit goes to, -1 for CPU units; balanced as the
// shards are.
std::vector<int> spread_over_devices(const Schedule& schedule, int workers);
// The units given to worker `worker` (its_units(..., -1): the CPU units).
Schedule units_of_worker(const Schedule& schedule, const std::vector<int>& worker_of_unit,
                         int worker);

// --max-points: how many new points may still run (-1: no limit).
class PointBudget {
 public:
  explicit PointBudget(long max_points) : left_(max_points) {}
  bool exhausted() const { return left_ == 0; }
  void spend() {
    if (left_ > 0) --left_;
  }

 private:
  long left_;
};

}  // namespace convlab
