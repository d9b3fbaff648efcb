#include "plan/search_replay.hpp"

namespace convlab {

std::vector<SearchStep> replay_search(const std::vector<ReplayVariant>& variants,
                                      SearchStrategy strategy, const SearchSpec& spec,
                                      std::uint64_t seed, std::size_t budget) {
  std::vector<Params> params;
  for (const auto& v : variants) params.push_back(v.params);
  const SearchSpace space = make_search_space(params);
  auto run = make_strategy(strategy, space, spec, seed);
  return run_search(*run, budget, [&](std::size_t v) { return variants[v].objective; });
}

std::optional<double> grid_best(const std::vector<ReplayVariant>& variants) {
  std::optional<double> best;
  for (const auto& v : variants)
    if (v.objective && (!best || *v.objective < *best)) best = v.objective;
  return best;
}

std::optional<std::size_t> evaluations_to_reach(const std::vector<SearchStep>& steps, double best,
                                                double within) {
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (steps[i].best_so_far <= best * (1.0 + within)) return i + 1;
  return std::nullopt;
}

}  // namespace convlab
