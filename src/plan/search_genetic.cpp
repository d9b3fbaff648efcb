// genetic — a first generation of random variants; then children of two parents, each chosen by
// a tournament of two among the best `population` so far, each param taken from either parent
// and mutated to a random value with probability `mutation`.
#include <algorithm>

#include "plan/search_strategy.hpp"

namespace convlab {
namespace {

class GeneticRun final : public SearchStrategyRun {
 public:
  GeneticRun(const StrategyContext& context)
      : memory_(context.space, context.seed),
        population_(static_cast<std::size_t>(context.spec.setting("population"))),
        mutation_(context.spec.setting("mutation")) {}

  std::optional<Coordinate> propose() override {
    if (elite_.size() >= 2 && observed_ >= population_)
      for (int tries = 0; tries < 64; ++tries) {
        auto child = breed();
        if (memory_.space().allows(child) && !memory_.proposed(child))
          return memory_.propose(std::move(child));
      }
    return memory_.propose_fresh_random();  // the first generation, or when breeding repeats
  }

  void observe(const Coordinate& variant, std::optional<double> objective) override {
    memory_.observe(variant, objective);
    ++observed_;
    if (!objective) return;
    elite_.push_back(variant);
    std::stable_sort(elite_.begin(), elite_.end(), [&](const auto& a, const auto& b) {
      return memory_.value(a) < memory_.value(b);
    });
    if (elite_.size() > population_) elite_.resize(population_);
  }

 private:
  const Coordinate& tournament() {
    const Coordinate& a = elite_[memory_.random().below(elite_.size())];
    const Coordinate& b = elite_[memory_.random().below(elite_.size())];
    return memory_.value(a) <= memory_.value(b) ? a : b;
  }

  Coordinate breed() {
    const Coordinate mother = tournament();
    const Coordinate father = tournament();
    Coordinate child(mother.size());
    SearchRandom& random = memory_.random();
    for (std::size_t a = 0; a < child.size(); ++a) {
      child[a] = random.below(2) ? mother[a] : father[a];
      if (random.unit() < mutation_)
        child[a] = static_cast<int>(random.below(memory_.space().axes()[a].values.size()));
    }
    return child;
  }

  SearchMemory memory_;
  std::size_t population_;
  double mutation_;
  std::vector<Coordinate> elite_;  // the best measured variants, fastest first
  std::size_t observed_ = 0;
};

}  // namespace

std::unique_ptr<SearchStrategyRun> make_genetic_search(const StrategyContext& context) {
  return std::make_unique<GeneticRun>(context);
}

}  // namespace convlab
