#include "run/search_walk.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "core/stopwatch.hpp"
#include "plan/kernel_variants.hpp"
#include "plan/search_points.hpp"

namespace convlab {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

SearchWalk::SearchWalk(const Config& config, const std::vector<Point>& plan,
                       const SearchGroup& group, int cuda_device)
    : config_(config),
      point_(plan[group.point]),
      group_(group),
      spec_(search_spec_of(config, point_)),
      cuda_device_(cuda_device),
      space_(search_space_of(config, point_)) {
  if (kernel_variant(config_, point_, cuda_device_)) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    compiles_ = std::make_unique<CompilesAhead>(
        std::min<unsigned>(cores, static_cast<unsigned>(spec_.ahead)));
  }
}

SearchWalk::~SearchWalk() = default;

Point SearchWalk::variant_point(const Coordinate& variant) const {
  Point point = point_;
  point.params = space_.params_of(variant);
  describe(config_, point);
  return point;
}

std::string SearchWalk::compile_key(const Coordinate& variant) const {
  std::string key;
  for (int index : variant) key += std::to_string(index) + ",";
  return key;
}

std::optional<double> SearchWalk::objective_of(const Record& record) const {
  if (!record.usable()) return std::nullopt;
  if (spec_.objective == SearchObjective::end_to_end && record.timing->end_to_end)
    return record.timing->end_to_end->stats.median;
  return record.median_ms();
}

void SearchWalk::run(const VariantRun& variant) {
  auto strategy = make_strategy(point_.search->strategy, space_, spec_, point_.search->seed);
  double spent = 0.0;  // compiles waited for and measurements; found records cost nothing
  double best = std::numeric_limits<double>::infinity();
  bool ended = false;
  int step = 0;
  SearchHooks hooks;
  hooks.proposed = [&](const Coordinate& proposed) {
    if (!compiles_) return;
    if (auto request = kernel_variant(config_, variant_point(proposed), cuda_device_))
      compiles_->start(compile_key(proposed), std::move(*request));
  };
  hooks.evaluate = [&](const Coordinate& proposed) -> std::optional<double> {
    Step now;
    now.number = ++step;
    now.best_before = best;
    if (compiles_) {
      const auto waiting = std::chrono::steady_clock::now();
      const CompileOutcome compiled = compiles_->wait(compile_key(proposed));
      spent += seconds_since(waiting);
      now.compile_seconds = compiled.seconds;
      compiled_ += compiled.compiled;
    }
    now.seconds_before = spent;
    std::optional<Measured> measured = variant(variant_point(proposed), now);
    if (!measured) {
      ended = true;
      return std::nullopt;
    }
    spent += measured->seconds;
    const std::optional<double> objective = objective_of(measured->record);
    if (objective && *objective < best) best = *objective;
    return objective;
  };
  hooks.stop = [&] { return ended || (group_.max_seconds && spent >= *group_.max_seconds); };
  const std::size_t budget =
      search_budget(config_, point_).value_or(std::numeric_limits<std::size_t>::max());
  run_search(*strategy, budget, static_cast<std::size_t>(spec_.ahead), hooks);
}

void stamp_search_step(Record& record, const SearchWalk::Step& step,
                       std::optional<double> objective, double measure_seconds) {
  if (!record.search) return;
  record.search->step = step.number;
  double best = step.best_before;
  if (objective && *objective < best) best = *objective;
  if (std::isfinite(best)) record.search->best_so_far_ms = best;
  record.search->compile_s = step.compile_seconds;
  record.search->measure_s = measure_seconds;
  record.search->elapsed_s = step.seconds_before + measure_seconds;
}

}  // namespace convlab
