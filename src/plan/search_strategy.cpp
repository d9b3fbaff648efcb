#include "plan/search_strategy.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace convlab {

std::uint64_t SearchRandom::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::size_t SearchRandom::below(std::size_t n) {
  // Rejection keeps every value equally likely.
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  std::uint64_t value = 0;
  do {
    value = next();
  } while (value >= limit);
  return static_cast<std::size_t>(value % n);
}

double SearchRandom::unit() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

namespace {

constexpr double kInvalid = std::numeric_limits<double>::infinity();

// What every strategy keeps: the variants measured and their objectives, and a random order of
// the variants for restarts and fillers.
class Memory {
 public:
  Memory(const SearchSpace& space, SearchRandom& random) : measured_(space.size(), false) {
    order_.resize(space.size());
    std::iota(order_.begin(), order_.end(), 0);
    for (std::size_t i = order_.size(); i > 1; --i)
      std::swap(order_[i - 1], order_[random.below(i)]);
    objective_.assign(space.size(), kInvalid);
  }
  bool measured(std::size_t v) const { return measured_[v]; }
  double objective(std::size_t v) const { return objective_[v]; }
  void record(std::size_t v, std::optional<double> objective) {
    measured_[v] = true;
    objective_[v] = objective.value_or(kInvalid);
  }
  // The next variant of the random order not measured yet.
  std::optional<std::size_t> unmeasured() {
    while (next_ < order_.size() && measured_[order_[next_]]) ++next_;
    if (next_ == order_.size()) return std::nullopt;
    return order_[next_];
  }

 private:
  std::vector<bool> measured_;
  std::vector<double> objective_;
  std::vector<std::size_t> order_;
  std::size_t next_ = 0;
};

class GridRun final : public SearchStrategyRun {
 public:
  explicit GridRun(const SearchSpace& space) : size_(space.size()) {}
  std::optional<std::size_t> propose() override {
    if (next_ >= size_) return std::nullopt;
    return next_++;
  }
  void observe(std::size_t, std::optional<double>) override {}

 private:
  std::size_t size_, next_ = 0;
};

class RandomRun final : public SearchStrategyRun {
 public:
  RandomRun(const SearchSpace& space, std::uint64_t seed)
      : random_(seed), memory_(space, random_) {}
  std::optional<std::size_t> propose() override { return memory_.unmeasured(); }
  void observe(std::size_t v, std::optional<double> objective) override {
    memory_.record(v, objective);
  }

 private:
  SearchRandom random_;
  Memory memory_;
};

// Relative slowdown of b against a (0 when b is not slower); invalid is infinitely slower.
double slowdown(double a, double b) {
  if (b <= a) return 0.0;
  if (!std::isfinite(b)) return kInvalid;
  return (b - a) / a;
}

class AnnealingRun final : public SearchStrategyRun {
 public:
  AnnealingRun(const SearchSpace& space, const SearchSpec& spec, std::uint64_t seed)
      : space_(space),
        random_(seed),
        memory_(space, random_),
        temperature_(spec.temperature),
        cooling_(spec.cooling) {}

  std::optional<std::size_t> propose() override {
    if (!current_) return memory_.unmeasured();
    // Walk through measured neighbours (deciding on them as if just measured) until an
    // unmeasured one turns up; a neighbourhood used up is left by a random restart.
    for (int tries = 0; tries < 64; ++tries) {
      const auto neighbour = step_from(*current_);
      if (!neighbour) break;
      if (!memory_.measured(*neighbour)) return neighbour;
      decide(*neighbour);
    }
    return memory_.unmeasured();
  }

  void observe(std::size_t v, std::optional<double> objective) override {
    memory_.record(v, objective);
    if (!current_) {
      if (objective) current_ = v;  // start at the first variant that runs
    } else {
      decide(v);
    }
    temperature_ *= cooling_;
  }

 private:
  void decide(std::size_t candidate) {
    const double d = slowdown(memory_.objective(*current_), memory_.objective(candidate));
    if (d == 0.0 || (std::isfinite(d) && random_.unit() < std::exp(-d / temperature_)))
      current_ = candidate;
  }

  // A variant one value up or down on one axis, within the space.
  std::optional<std::size_t> step_from(std::size_t from) {
    std::vector<std::size_t> movable;
    for (std::size_t a = 0; a < space_.axes.size(); ++a)
      if (space_.values[a].size() > 1) movable.push_back(a);
    if (movable.empty()) return std::nullopt;
    for (int tries = 0; tries < 16; ++tries) {
      std::vector<int> coordinate = space_.coordinates[from];
      const std::size_t axis = movable[random_.below(movable.size())];
      const int size = static_cast<int>(space_.values[axis].size());
      const int delta = random_.below(2) ? 1 : -1;
      coordinate[axis] = (coordinate[axis] + delta + size) % size;
      if (auto found = space_.find(coordinate)) return found;
    }
    return std::nullopt;
  }

  const SearchSpace& space_;
  SearchRandom random_;
  Memory memory_;
  double temperature_, cooling_;
  std::optional<std::size_t> current_;
};

class GeneticRun final : public SearchStrategyRun {
 public:
  GeneticRun(const SearchSpace& space, const SearchSpec& spec, std::uint64_t seed)
      : space_(space),
        random_(seed),
        memory_(space, random_),
        population_(static_cast<std::size_t>(spec.population)),
        mutation_(spec.mutation) {}

  std::optional<std::size_t> propose() override {
    // The first generation is random; then children of the best so far.
    if (valid_.size() < 2 || measured_count_ < population_) return memory_.unmeasured();
    for (int tries = 0; tries < 64; ++tries) {
      const auto child = breed();
      if (child && !memory_.measured(*child)) return child;
    }
    return memory_.unmeasured();
  }

  void observe(std::size_t v, std::optional<double> objective) override {
    memory_.record(v, objective);
    ++measured_count_;
    if (!objective) return;
    valid_.push_back(v);
    std::stable_sort(valid_.begin(), valid_.end(), [&](std::size_t a, std::size_t b) {
      return memory_.objective(a) < memory_.objective(b);
    });
    if (valid_.size() > population_) valid_.resize(population_);  // the elite
  }

 private:
  std::size_t tournament() {
    const std::size_t a = valid_[random_.below(valid_.size())];
    const std::size_t b = valid_[random_.below(valid_.size())];
    return memory_.objective(a) <= memory_.objective(b) ? a : b;
  }

  std::optional<std::size_t> breed() {
    const auto& mother = space_.coordinates[tournament()];
    const auto& father = space_.coordinates[tournament()];
    std::vector<int> child(mother.size());
    for (std::size_t a = 0; a < child.size(); ++a) {
      child[a] = random_.below(2) ? mother[a] : father[a];
      if (random_.unit() < mutation_)
        child[a] = static_cast<int>(random_.below(space_.values[a].size()));
    }
    return space_.find(child);
  }

  const SearchSpace& space_;
  SearchRandom random_;
  Memory memory_;
  std::size_t population_;
  double mutation_;
  std::vector<std::size_t> valid_;  // the best measured variants, fastest first
  std::size_t measured_count_ = 0;
};

// Seeds differ per strategy, so that two strategies with one seed do not share their draws.
std::uint64_t strategy_seed(SearchStrategy strategy, std::uint64_t seed) {
  return seed * 0x100000001B3ULL + static_cast<std::uint64_t>(strategy) + 1;
}

}  // namespace

std::unique_ptr<SearchStrategyRun> make_strategy(SearchStrategy strategy, const SearchSpace& space,
                                                 const SearchSpec& spec, std::uint64_t seed) {
  const std::uint64_t s = strategy_seed(strategy, seed);
  switch (strategy) {
    case SearchStrategy::grid:
      return std::make_unique<GridRun>(space);
    case SearchStrategy::random:
      return std::make_unique<RandomRun>(space, s);
    case SearchStrategy::annealing:
      return std::make_unique<AnnealingRun>(space, spec, s);
    case SearchStrategy::genetic:
      return std::make_unique<GeneticRun>(space, spec, s);
  }
  return std::make_unique<GridRun>(space);
}

std::vector<SearchStep> run_search(
    SearchStrategyRun& strategy, std::size_t budget,
    const std::function<std::optional<double>(std::size_t)>& evaluate,
    const std::function<bool()>& stop) {
  std::vector<SearchStep> steps;
  double best = kInvalid;
  while (steps.size() < budget && !(stop && stop())) {
    const auto variant = strategy.propose();
    if (!variant) break;
    const std::optional<double> objective = evaluate(*variant);
    strategy.observe(*variant, objective);
    if (objective && *objective < best) best = *objective;
    steps.push_back({*variant, objective, best});
  }
  return steps;
}

}  // namespace convlab
