// Search strategies (docs/search.md): which variant of a search space to measure next, from the
// objectives of the variants measured so far. A strategy is one file, plan/search_<name>.cpp,
// and one row of CONVLAB_SEARCH_STRATEGIES (config/search_strategies.hpp). Each is
// deterministic: the same seed and the same objectives give the same sequence on every machine
// (SearchRandom, not the standard library's distributions), so a search interrupted and run again
// proposes the same variants and finds their records, and replaying recorded objectives
// (`convlab search`) reproduces a run's sequence exactly. A strategy keeps what it proposed and
// measured, never the space: its memory grows with the budget, not with the space.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "config/search_spec.hpp"
#include "plan/search_space.hpp"

namespace convlab {

// Combinations a strategy checks in a row, at most, to find one its restrictions allow; a space
// where none of them is allowed is used up for it.
constexpr std::uint64_t kSearchChecks = 1000000;

class SearchStrategyRun {
 public:
  virtual ~SearchStrategyRun() = default;
  // The next variant to measure, never one proposed before; nullopt when none is left. Up to
  // SearchSpec::ahead proposals are made before the first of them is observed.
  virtual std::optional<Coordinate> propose() = 0;
  // The objective of a variant proposed earlier, in the order they were proposed; nullopt when it
  // failed or could not run.
  virtual void observe(const Coordinate& variant, std::optional<double> objective) = 0;
};

// What every strategy keeps: the variants it proposed, the objectives of those measured, the best
// so far, its random source and the space's random order.
class SearchMemory {
 public:
  SearchMemory(const SearchSpace& space, std::uint64_t seed);
  const SearchSpace& space() const { return space_; }
  SearchRandom& random() { return random_; }

  bool proposed(const Coordinate& variant) const { return proposed_.count(variant) > 0; }
  // Marks `variant` proposed and gives it back.
  Coordinate propose(Coordinate variant);
  void observe(const Coordinate& variant, std::optional<double> objective);
  bool measured(const Coordinate& variant) const { return measured_.count(variant) > 0; }
  // A measured variant's objective, infinity when it failed, was not measured or is pending.
  double value(const Coordinate& variant) const;
  std::size_t measured_count() const { return measured_.size(); }
  const std::optional<Coordinate>& best() const { return best_; }
  double best_value() const { return best_ ? value(*best_) : kNone; }

  // The next variant of the space's random order not proposed yet.
  std::optional<Coordinate> fresh_random();
  // The same, marked proposed: what a strategy proposes when it has nothing better.
  std::optional<Coordinate> propose_fresh_random();
  // One param of `from` one value up or down (wrapping), chosen at random, where the space allows
  // it; nullopt after `tries` tries.
  std::optional<Coordinate> neighbour(const Coordinate& from, int tries);
  // Every allowed variant one param one value up or down from `from`, in a random order.
  std::vector<Coordinate> neighbours(const Coordinate& from);

  static constexpr double kNone = std::numeric_limits<double>::infinity();

 private:
  const SearchSpace& space_;
  SearchRandom random_;
  SpaceShuffle shuffle_;
  std::unordered_set<Coordinate, CoordinateHash> proposed_;
  std::unordered_map<Coordinate, double, CoordinateHash> measured_;  // infinity: failed
  std::optional<Coordinate> best_;
};

// First-improvement hill climbing over one variant's neighbours (one param one value up or
// down), shared by the strategies that search locally: the neighbours of the centre are proposed
// in a random order, and the first that is faster becomes the centre.
class LocalClimb {
 public:
  void start(SearchMemory& memory, const Coordinate& centre);
  // The next neighbour to measure; a measured one is judged at once. Nullopt when none is left to
  // propose (some may still be measured).
  std::optional<Coordinate> next(SearchMemory& memory);
  // Moves the centre when `variant` (measured now) is faster than it.
  void observe(SearchMemory& memory, const Coordinate& variant);
  bool started() const { return centre_.has_value(); }
  const Coordinate& centre() const { return *centre_; }

 private:
  std::optional<Coordinate> centre_;
  std::vector<Coordinate> queue_;
};

// What a strategy is made with.
struct StrategyContext {
  const SearchSpace& space;
  const SearchSpec& spec;
  std::uint64_t seed;  // the strategy's own, mixed from the search's seed and its name
};

#define CONVLAB_DECLARE_SEARCH(name) \
  std::unique_ptr<SearchStrategyRun> make_##name##_search(const StrategyContext& context);
CONVLAB_SEARCH_STRATEGIES(CONVLAB_DECLARE_SEARCH)
#undef CONVLAB_DECLARE_SEARCH

std::unique_ptr<SearchStrategyRun> make_strategy(SearchStrategy strategy, const SearchSpace& space,
                                                 const SearchSpec& spec, std::uint64_t seed);

// Relative slowdown of `b` against `a` (0 when `b` is not slower); a failed one is infinitely
// slower.
double relative_slowdown(double a, double b);

struct SearchStep {
  Coordinate variant;
  std::optional<double> objective;  // nullopt: failed or could not run (never the best)
  double best_so_far = std::numeric_limits<double>::infinity();
};

// What a search does with the variants its strategy proposes.
struct SearchHooks {
  // A variant proposed, `ahead` of its measurement at most: a run starts compiling it.
  std::function<void(const Coordinate&)> proposed;
  // Its objective, measured or found in the results; called in the order of the proposals.
  std::function<std::optional<double>(const Coordinate&)> evaluate;
  // Whether to stop before the next measurement (max_seconds, --max-points).
  std::function<bool()> stop;
};

// Proposes up to `ahead` variants beyond the last one measured, never more than `budget` in all,
// and measures them in order until `budget` are measured, `stop()` says so, or no variant is left.
std::vector<SearchStep> run_search(SearchStrategyRun& strategy, std::size_t budget,
                                   std::size_t ahead, const SearchHooks& hooks);

}  // namespace convlab
