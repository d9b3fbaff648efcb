#include "plan/search_replay.hpp"

namespace convlab {
namespace {

std::vector<Params> params_of(const std::vector<ReplayVariant>& variants) {
  std::vector<Params> params;
  params.reserve(variants.size());
  for (const auto& v : variants) params.push_back(v.params);
  return params;
}

}  // namespace

Replay::Replay(std::vector<ReplayVariant> variants)
    : variants_(std::move(variants)), space_(SearchSpace::listed(params_of(variants_))) {}

std::vector<SearchStep> Replay::search(SearchStrategy strategy, const SearchSpec& spec,
                                       std::uint64_t seed, std::size_t budget) const {
  auto run = make_strategy(strategy, space_, spec, seed);
  SearchHooks hooks;
  hooks.evaluate = [&](const Coordinate& variant) { return variant_objective(variant); };
  return run_search(*run, budget, static_cast<std::size_t>(spec.ahead), hooks);
}

std::optional<double> Replay::variant_objective(const Coordinate& variant) const {
  return variants_[*space_.listed_index(variant)].objective;
}

const ReplayVariant& Replay::variant_of(const SearchStep& step) const {
  return variants_[*space_.listed_index(step.variant)];
}

std::optional<double> space_best(const std::vector<ReplayVariant>& variants) {
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
