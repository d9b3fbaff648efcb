// Search strategies replayed against recorded measurements (Kernel Tuner's simulation mode): the
// objective of every variant of a space measured whole is known from a results file, so a
// strategy's sequence is computed in microseconds per step, without a GPU, for many seeds
// (`convlab search`, docs/search.md). The same seed, `ahead` and times give the sequence a real
// run gives.
#pragma once

#include <optional>
#include <vector>

#include "plan/search_strategy.hpp"

namespace convlab {

struct ReplayVariant {
  Params params;
  std::optional<double> objective;  // nullopt: it failed or could not run
};

class Replay {
 public:
  explicit Replay(std::vector<ReplayVariant> variants);
  // The steps of one search with the recorded objectives.
  std::vector<SearchStep> search(SearchStrategy strategy, const SearchSpec& spec,
                                 std::uint64_t seed, std::size_t budget) const;
  const std::vector<ReplayVariant>& variants() const { return variants_; }
  const SearchSpace& space() const { return space_; }
  // The recorded variant a step measured.
  const ReplayVariant& variant_of(const SearchStep& step) const;

 private:
  std::optional<double> variant_objective(const Coordinate& variant) const;

  std::vector<ReplayVariant> variants_;
  SearchSpace space_;
};

// The best objective of the space; nullopt when no variant ran.
std::optional<double> space_best(const std::vector<ReplayVariant>& variants);

// The number of measurements after which the best so far is within `within` (0.05: 5 %) of
// `best`; nullopt when the steps never get there.
std::optional<std::size_t> evaluations_to_reach(const std::vector<SearchStep>& steps, double best,
                                                double within);

}  // namespace convlab
