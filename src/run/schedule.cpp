#include "run/schedule.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "core/sha256.hpp"
#include "plan/search_points.hpp"
#include "run/plan_report.hpp"

namespace convlab {
namespace {

using ProblemKey = std::tuple<std::size_t, std::size_t, Border, OutputType>;
using BundleKey = std::tuple<std::size_t, std::size_t, Border, int>;

ProblemKey problem_of(const Point& point) {
  return {point.image, point.filter, point.border, point.output};
}

// With save_outputs, every output of an (image, kernel, border) goes together: its gallery
// picture is chosen among them.
BundleKey bundle_of(const Config& config, const Point& point) {
  return {point.image, point.filter, point.border,
          config.save_outputs ? -1 : static_cast<int>(point.output)};
}

std::int64_t whole_microseconds(double seconds) {
  return std::max<std::int64_t>(1, std::llround(seconds * 1e6));
}

// The points' estimates on no machine in particular (HostModel{}: the reference and verification
// on 8 threads, as on a typical node), plus the reference their problem waits for; a search costs
// its budget times its point's estimate.
std::int64_t unit_cost_us(const Config& config, const std::vector<Point>& plan,
                          const WorkUnit& unit) {
  const HostModel any_machine;
  const std::size_t first = unit.points.empty() ? unit.searches.front().point : unit.points.front();
  double seconds = estimated_reference_seconds(config, plan[first], any_machine);
  for (std::size_t i : unit.points)
    seconds += estimated_point_seconds(config, plan[i], any_machine);
  for (const SearchGroup& search : unit.searches)
    seconds += estimated_point_seconds(config, plan[search.point], any_machine) *
               static_cast<double>(search.budget);
  return whole_microseconds(seconds);
}

// A search's point as a group: its budget, or the variants its time allows at nominal rates.
SearchGroup search_group(const Config& config, const std::vector<Point>& plan, std::size_t i) {
  const SearchSpec& spec = search_spec_of(config, plan[i]);
  SearchGroup group;
  group.point = i;
  group.max_seconds = spec.max_seconds;
  if (const auto budget = search_budget(config, plan[i])) {
    group.budget = *budget;
  } else {
    const double each = estimated_point_seconds(config, plan[i], HostModel{});
    const double space = sweep_of(config, plan[i])->domain->size.variants;
    group.budget = static_cast<std::size_t>(
        std::clamp(std::ceil(*spec.max_seconds / std::max(each, 1e-6)), 1.0, std::min(space, 1e6)));
  }
  return group;
}

// Largest bundle first, each to the part with the least cost so far. Returns the part of each
// bundle.
std::vector<int> balance(const std::vector<ProblemGroup>& bundles, int parts,
                         std::vector<std::int64_t>& part_cost) {
  std::vector<std::size_t> order(bundles.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return bundles[a].cost_us > bundles[b].cost_us;
  });
  part_cost.assign(parts, 0);
  std::vector<int> part_of(bundles.size(), 0);
  for (std::size_t b : order) {
    const int part =
        static_cast<int>(std::min_element(part_cost.begin(), part_cost.end()) - part_cost.begin());
    part_of[b] = part;
    part_cost[part] += bundles[b].cost_us;
  }
  return part_of;
}

}  // namespace

std::size_t Schedule::points() const {
  std::size_t n = 0;
  for (const auto& unit : units) {
    n += unit.points.size();
    for (const auto& search : unit.searches) n += search.budget;
  }
  return n;
}

std::int64_t Schedule::cost_us() const {
  std::int64_t cost = 0;
  for (const auto& unit : units) cost += unit.cost_us;
  return cost;
}

std::vector<ProblemGroup> problem_groups(const Schedule& schedule, bool cuda_only) {
  std::map<std::size_t, std::size_t> position;  // bundle id -> index into groups
  std::vector<ProblemGroup> groups;
  for (std::size_t u = 0; u < schedule.units.size(); ++u) {
    const WorkUnit& unit = schedule.units[u];
    if (cuda_only && !unit.gpu) continue;
    auto found = position.find(unit.bundle);
    if (found == position.end()) {
      found = position.emplace(unit.bundle, groups.size()).first;
      groups.emplace_back();
    }
    ProblemGroup& group = groups[found->second];
    group.units.push_back(u);
    group.cost_us += unit.cost_us;
    group.points += unit.points.size();
    for (const auto& search : unit.searches) group.points += search.budget;
  }
  return groups;
}

Schedule make_schedule(const Config& config, const std::vector<Point>& plan) {
  Schedule schedule;
  std::map<BundleKey, std::size_t> bundle_ids;
  for (std::size_t begin = 0; begin < plan.size();) {
    std::size_t end = begin + 1;
    while (end < plan.size() && problem_of(plan[end]) == problem_of(plan[begin])) ++end;
    WorkUnit unit;
    unit.bundle =
        bundle_ids.emplace(bundle_of(config, plan[begin]), bundle_ids.size()).first->second;
    unit.interleaved = config.measure.interleave;
    for (std::size_t i = begin; i < end; ++i) {
      if (plan[i].search)
        unit.searches.push_back(search_group(config, plan, i));
      else
        unit.points.push_back(i);
    }
    unit.cost_us = unit_cost_us(config, plan, unit);
    schedule.units.push_back(std::move(unit));
    begin = end;
  }
  return schedule;
}

Schedule split_by_family(const Config& config, const std::vector<Point>& plan,
                         const Schedule& schedule) {
  Schedule split;
  for (const auto& unit : schedule.units) {
    for (const bool gpu : {false, true}) {
      WorkUnit part = unit;
      part.gpu = gpu;
      part.points.clear();
      part.searches.clear();
      for (std::size_t i : unit.points)
        if ((plan[i].implementation->family == Family::cuda) == gpu) part.points.push_back(i);
      for (const SearchGroup& search : unit.searches)
        if ((plan[search.point].implementation->family == Family::cuda) == gpu)
          part.searches.push_back(search);
      if (part.points.empty() && part.searches.empty()) continue;
      part.cost_us = unit_cost_us(config, plan, part);
      split.units.push_back(std::move(part));
    }
  }
  return split;
}

ShardCut cut_into_shards(const Schedule& schedule, int count) {
  ShardCut cut;
  cut.count = count;
  const std::vector<ProblemGroup> bundles = problem_groups(schedule, false);
  const std::vector<int> shard_of_bundle = balance(bundles, count, cut.cost_us);
  cut.shard_of_unit.assign(schedule.units.size(), 0);
  cut.points.assign(count, 0);
  cut.bundles.assign(count, 0);
  for (std::size_t b = 0; b < bundles.size(); ++b) {
    const int shard = shard_of_bundle[b];
    for (std::size_t u : bundles[b].units) cut.shard_of_unit[u] = shard;
    cut.points[shard] += bundles[b].points;
    ++cut.bundles[shard];
  }
  std::string assignment = std::to_string(count) + ":";
  for (int shard : cut.shard_of_unit) assignment += std::to_string(shard) + ",";
  cut.digest = sha256_hex(assignment).substr(0, 16);
  return cut;
}

Schedule units_of_shard(const Schedule& schedule, const ShardCut& cut, int index) {
  Schedule part;
  for (std::size_t u = 0; u < schedule.units.size(); ++u)
    if (cut.shard_of_unit[u] == index) part.units.push_back(schedule.units[u]);
  return part;
}

std::optional<ShardIndex> parse_shard(const std::string& text, std::string* error) {
  const auto fail = [&](const std::string& why) -> std::optional<ShardIndex> {
    if (error) *error = why;
    return std::nullopt;
  };
  const std::size_t slash = text.find('/');
  const auto number = [](const std::string& digits, long& value) {
    if (digits.empty() || digits.size() > 9) return false;
    const bool negative = digits[0] == '-';
    const std::string body = negative ? digits.substr(1) : digits;
    if (body.empty() || !std::all_of(body.begin(), body.end(), ::isdigit)) return false;
    value = std::stol(body) * (negative ? -1 : 1);
    return true;
  };
  long index = 0, count = 0;
  if (slash == std::string::npos || !number(text.substr(0, slash), index) ||
      !number(text.substr(slash + 1), count))
    return fail("expected I/N, the 0-based index I of N shards (e.g. 0/8 ... 7/8)");
  if (count < 1) return fail("the count must be at least 1");
  if (index < 0) return fail("the index must be 0 or more (shards are numbered from 0)");
  if (index >= count)
    return fail("the index " + std::to_string(index) + " is not below the count " +
                std::to_string(count) + ": shards are numbered 0 to " + std::to_string(count - 1));
  return ShardIndex{static_cast<int>(index), static_cast<int>(count)};
}

std::vector<int> spread_over_devices(const Schedule& schedule, int workers) {
  std::vector<int> worker_of_unit(schedule.units.size(), -1);
  const std::vector<ProblemGroup> bundles = problem_groups(schedule, true);
  std::vector<std::int64_t> cost;
  const std::vector<int> worker_of_bundle = balance(bundles, workers, cost);
  for (std::size_t b = 0; b < bundles.size(); ++b)
    for (std::size_t u : bundles[b].units) worker_of_unit[u] = worker_of_bundle[b];
  return worker_of_unit;
}

Schedule units_of_worker(const Schedule& schedule, const std::vector<int>& worker_of_unit,
                         int worker) {
  Schedule part;
  for (std::size_t u = 0; u < schedule.units.size(); ++u)
    if (worker_of_unit[u] == worker) part.units.push_back(schedule.units[u]);
  return part;
}

}  // namespace convlab
