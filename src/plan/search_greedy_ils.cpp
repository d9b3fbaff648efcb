// greedy_ils — greedy iterated local search (as in Kernel Tuner): from a random variant, the
// first neighbour (one param one value up or down) that is faster becomes the centre, until none
// is; then the best variant so far is perturbed (a third of its params, at least two, take random
// values) and the climb starts again from there, or, with probability `restart`, from a random
// variant.
#include <algorithm>

#include "plan/search_strategy.hpp"

namespace convlab {
namespace {

class GreedyIlsRun final : public SearchStrategyRun {
 public:
  GreedyIlsRun(const StrategyContext& context)
      : memory_(context.space, context.seed), restart_(context.spec.setting("restart")) {}

  std::optional<Coordinate> propose() override {
    if (auto next = climb_.next(memory_)) return next;
    std::optional<Coordinate> start;
    if (memory_.best() && memory_.random().unit() >= restart_) start = perturbed(*memory_.best());
    if (!start) start = memory_.fresh_random();
    if (!start) return std::nullopt;
    climb_.start(memory_, *start);
    return memory_.propose(*start);
  }

  void observe(const Coordinate& variant, std::optional<double> objective) override {
    memory_.observe(variant, objective);
    climb_.observe(memory_, variant);
  }

 private:
  std::optional<Coordinate> perturbed(const Coordinate& from) {
    const auto& axes = memory_.space().axes();
    const std::size_t changes = std::max<std::size_t>(2, axes.size() / 3);
    SearchRandom& random = memory_.random();
    for (int tries = 0; tries < 64; ++tries) {
      Coordinate variant = from;
      for (std::size_t c = 0; c < changes; ++c) {
        const std::size_t a = random.below(axes.size());
        variant[a] = static_cast<int>(random.below(axes[a].values.size()));
      }
      if (memory_.space().allows(variant) && !memory_.proposed(variant)) return variant;
    }
    return std::nullopt;
  }

  SearchMemory memory_;
  double restart_;
  LocalClimb climb_;
};

}  // namespace

std::unique_ptr<SearchStrategyRun> make_greedy_ils_search(const StrategyContext& context) {
  return std::make_unique<GreedyIlsRun>(context);
}

}  // namespace convlab
