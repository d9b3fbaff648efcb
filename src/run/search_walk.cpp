#include "run/search_walk.hpp"

#include <cmath>
#include <stdexcept>

#include "core/stopwatch.hpp"

namespace convlab {
namespace {

const SearchSpec& spec_of(const Config& config, const Point& point) {
  for (const auto& sweep : config.implementations)
    if (&implementation_of(sweep) == point.implementation && sweep.search) return *sweep.search;
  throw std::logic_error("a searched point of an implementation without a search");
}

std::vector<Params> params_of(const std::vector<Point>& plan, const SearchGroup& group) {
  std::vector<Params> params;
  for (std::size_t i : group.variants) params.push_back(plan[i].params);
  return params;
}

}  // namespace

SearchWalk::SearchWalk(const Config& config, const std::vector<Point>& plan,
                       const SearchGroup& group, bool)
    : plan_(plan),
      group_(group),
      spec_(spec_of(config, plan[group.variants.front()])),
      tag_(*plan[group.variants.front()].search),
      space_(make_search_space(params_of(plan, group))) {}

std::optional<double> SearchWalk::objective_of(const Record& record) const {
  if (!record.usable()) return std::nullopt;
  if (spec_.objective == SearchObjective::end_to_end && record.timing->end_to_end)
    return record.timing->end_to_end->stats.median;
  return record.median_ms();
}

void SearchWalk::run(const VariantRun& variant) {
  auto strategy = make_strategy(tag_.strategy, space_, spec_, tag_.seed);
  double measuring = 0.0;  // seconds spent measuring (found records cost nothing)
  double best = std::numeric_limits<double>::infinity();
  bool ended = false;
  int step = 0;
  const auto evaluate = [&](std::size_t v) -> std::optional<double> {
    ++step;
    Stopwatch clock;
    const std::optional<Record> record = variant(group_.variants[v], step, best);
    if (!record) {
      ended = true;
      return std::nullopt;
    }
    if (record->timing) measuring += clock.elapsed_seconds();
    const std::optional<double> objective = objective_of(*record);
    if (objective && *objective < best) best = *objective;
    return objective;
  };
  const auto stop = [&] {
    return ended || (group_.max_seconds && measuring >= *group_.max_seconds);
  };
  run_search(*strategy, group_.budget, evaluate, stop);
}

void stamp_search_step(Record& record, int step, double best_before,
                       std::optional<double> objective) {
  if (!record.search) return;
  record.search->step = step;
  double best = best_before;
  if (objective && *objective < best) best = *objective;
  if (std::isfinite(best)) record.search->best_so_far_ms = best;
}

}  // namespace convlab
