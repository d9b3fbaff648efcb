// Search strategies (docs/search.md): which variant of a search space to measure next, from the
// objectives of the variants measured so far. Each is deterministic: the same seed and the same
// objectives give the same sequence on every machine (a random source of its own, not the
// standard library's distributions), so a search interrupted and run again proposes the same
// variants and finds their records instead of measuring them again, and replaying recorded
// objectives (`convlab search`) reproduces a run's sequence exactly.
//
//   grid       every variant in the config's order
//   random     a random order without repeats
//   annealing  simulated annealing: a step changes one param to a neighbouring value; a slower
//              variant is taken with probability exp(-slowdown / temperature), the temperature
//              multiplied by `cooling` after every measurement; a random restart when a
//              neighbourhood is used up
//   genetic    a population of the best variants so far; children from two parents chosen by
//              tournament, each param from either parent, mutated with probability `mutation`
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "config/search_spec.hpp"
#include "plan/search_space.hpp"

namespace convlab {

// splitmix64: a small random source with the same sequence everywhere.
class SearchRandom {
 public:
  explicit SearchRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  std::size_t below(std::size_t n);  // uniform in [0, n), n > 0
  double unit();                     // uniform in [0, 1)

 private:
  std::uint64_t state_;
};

class SearchStrategyRun {
 public:
  virtual ~SearchStrategyRun() = default;
  // The next variant to measure, never one measured before; nullopt when none is left.
  virtual std::optional<std::size_t> propose() = 0;
  // The objective of the variant proposed last; nullopt when it failed or could not run.
  virtual void observe(std::size_t variant, std::optional<double> objective) = 0;
};

std::unique_ptr<SearchStrategyRun> make_strategy(SearchStrategy strategy, const SearchSpace& space,
                                                 const SearchSpec& spec, std::uint64_t seed);

struct SearchStep {
  std::size_t variant = 0;
  std::optional<double> objective;  // nullopt: failed or could not run (never the best)
  double best_so_far = std::numeric_limits<double>::infinity();
};

// Proposes, evaluates and observes until `budget` variants are measured, `stop()` says so, or no
// variant is left. `evaluate` gives a variant's objective (measured, or found in the results).
std::vector<SearchStep> run_search(
    SearchStrategyRun& strategy, std::size_t budget,
    const std::function<std::optional<double>(std::size_t)>& evaluate,
    const std::function<bool()>& stop = nullptr);

}  // namespace convlab
