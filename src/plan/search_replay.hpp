// Search strategies replayed against recorded measurements (Kernel Tuner's simulation mode): the
// objective of every variant of a full grid is known from a results file, so a strategy's
// sequence and how soon it reaches the grid's best are computed in microseconds per search,
// without a GPU, for many seeds (`convlab search`, docs/search.md).
#pragma once

#include <optional>
#include <vector>

#include "plan/search_strategy.hpp"

namespace convlab {

struct ReplayVariant {
  Params params;
  std::optional<double> objective;  // nullopt: it failed or could not run
};

// The steps of one search over `variants` with the recorded objectives.
std::vector<SearchStep> replay_search(const std::vector<ReplayVariant>& variants,
                                      SearchStrategy strategy, const SearchSpec& spec,
                                      std::uint64_t seed, std::size_t budget);

// The best objective of the grid; nullopt when no variant ran.
std::optional<double> grid_best(const std::vector<ReplayVariant>& variants);

// The number of measurements after which the best so far is within `within` (0.05: 5 %) of
// `best`; nullopt when the steps never get there.
std::optional<std::size_t> evaluations_to_reach(const std::vector<SearchStep>& steps, double best,
                                                double within);

}  // namespace convlab
