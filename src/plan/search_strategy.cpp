#include "plan/search_strategy.hpp"

#include <algorithm>
#include <cmath>
#include <deque>

namespace convlab {

SearchMemory::SearchMemory(const SearchSpace& space, std::uint64_t seed)
    : space_(space), random_(seed), shuffle_(space, seed ^ 0x243F6A8885A308D3ULL) {}

Coordinate SearchMemory::propose(Coordinate variant) {
  proposed_.insert(variant);
  return variant;
}

void SearchMemory::observe(const Coordinate& variant, std::optional<double> objective) {
  measured_[variant] = objective.value_or(kNone);
  if (objective && (!best_ || *objective < value(*best_))) best_ = variant;
}

double SearchMemory::value(const Coordinate& variant) const {
  const auto found = measured_.find(variant);
  return found == measured_.end() ? kNone : found->second;
}

std::optional<Coordinate> SearchMemory::fresh_random() {
  while (auto variant = shuffle_.next(kSearchChecks))
    if (!proposed(*variant)) return variant;
  return std::nullopt;
}

std::optional<Coordinate> SearchMemory::propose_fresh_random() {
  auto variant = fresh_random();
  if (variant) proposed_.insert(*variant);
  return variant;
}

std::optional<Coordinate> SearchMemory::neighbour(const Coordinate& from, int tries) {
  std::vector<std::size_t> movable;
  for (std::size_t a = 0; a < space_.axes().size(); ++a)
    if (space_.axes()[a].values.size() > 1) movable.push_back(a);
  if (movable.empty()) return std::nullopt;
  for (int t = 0; t < tries; ++t) {
    Coordinate variant = from;
    const std::size_t axis = movable[random_.below(movable.size())];
    const int size = static_cast<int>(space_.axes()[axis].values.size());
    variant[axis] = (variant[axis] + (random_.below(2) ? 1 : size - 1)) % size;
    if (space_.allows(variant)) return variant;
  }
  return std::nullopt;
}

std::vector<Coordinate> SearchMemory::neighbours(const Coordinate& from) {
  std::vector<Coordinate> around;
  for (std::size_t a = 0; a < space_.axes().size(); ++a) {
    const int size = static_cast<int>(space_.axes()[a].values.size());
    for (int step : {1, size - 1}) {
      if (size < 2 || (size == 2 && step == size - 1)) continue;
      Coordinate variant = from;
      variant[a] = (variant[a] + step) % size;
      if (space_.allows(variant)) around.push_back(std::move(variant));
    }
  }
  for (std::size_t i = around.size(); i > 1; --i)
    std::swap(around[i - 1], around[random_.below(i)]);
  return around;
}

void LocalClimb::start(SearchMemory& memory, const Coordinate& centre) {
  centre_ = centre;
  queue_ = memory.neighbours(centre);
}

std::optional<Coordinate> LocalClimb::next(SearchMemory& memory) {
  while (centre_ && !queue_.empty()) {
    Coordinate variant = std::move(queue_.back());
    queue_.pop_back();
    if (!memory.proposed(variant)) return memory.propose(std::move(variant));
    if (memory.value(variant) < memory.value(*centre_)) start(memory, variant);
  }
  return std::nullopt;
}

void LocalClimb::observe(SearchMemory& memory, const Coordinate& variant) {
  if (centre_ && memory.value(variant) < memory.value(*centre_)) start(memory, variant);
}

double relative_slowdown(double a, double b) {
  if (b <= a) return 0.0;
  if (!std::isfinite(b)) return SearchMemory::kNone;
  return (b - a) / a;
}

namespace {

// Seeds differ per strategy (by its name, so a new row changes no other strategy's draws), so
// that two strategies with one seed do not share their draws.
std::uint64_t strategy_seed(SearchStrategy strategy, std::uint64_t seed) {
  std::uint64_t mixed = seed * 0x100000001B3ULL;
  for (char c : to_string(strategy))
    mixed = (mixed ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
  return mixed;
}

}  // namespace

std::unique_ptr<SearchStrategyRun> make_strategy(SearchStrategy strategy, const SearchSpace& space,
                                                 const SearchSpec& spec, std::uint64_t seed) {
  const StrategyContext context{space, spec, strategy_seed(strategy, seed)};
  switch (strategy) {
#define CONVLAB_MAKE_SEARCH(name) \
  case SearchStrategy::name:      \
    return make_##name##_search(context);
    CONVLAB_SEARCH_STRATEGIES(CONVLAB_MAKE_SEARCH)
#undef CONVLAB_MAKE_SEARCH
  }
  return make_grid_search(context);
}

std::vector<SearchStep> run_search(SearchStrategyRun& strategy, std::size_t budget,
                                   std::size_t ahead, const SearchHooks& hooks) {
  std::vector<SearchStep> steps;
  std::deque<Coordinate> pending;
  std::size_t proposals = 0;
  bool exhausted = false;
  double best = SearchMemory::kNone;
  const auto top_up = [&] {
    while (!exhausted && proposals < budget && pending.size() < std::max<std::size_t>(1, ahead)) {
      std::optional<Coordinate> variant = strategy.propose();
      if (!variant) {
        exhausted = true;
        break;
      }
      ++proposals;
      if (hooks.proposed) hooks.proposed(*variant);
      pending.push_back(std::move(*variant));
    }
  };
  top_up();
  while (!pending.empty() && !(hooks.stop && hooks.stop())) {
    Coordinate variant = std::move(pending.front());
    pending.pop_front();
    const std::optional<double> objective = hooks.evaluate(variant);
    strategy.observe(variant, objective);
    if (objective && *objective < best) best = *objective;
    steps.push_back({std::move(variant), objective, best});
    top_up();
  }
  return steps;
}

}  // namespace convlab
