// annealing — simulated annealing: from the first variant that runs, a step changes one param to
// its next or previous value; a faster variant is taken, a slower one with probability
// exp(-slowdown / temperature), and the temperature falls by `cooling` with every measurement. A
// neighbourhood used up is left by a random restart.
#include <cmath>

#include "plan/search_strategy.hpp"

namespace convlab {
namespace {

class AnnealingRun final : public SearchStrategyRun {
 public:
  AnnealingRun(const StrategyContext& context)
      : memory_(context.space, context.seed),
        temperature_(context.spec.setting("temperature")),
        cooling_(context.spec.setting("cooling")) {}

  std::optional<Coordinate> propose() override {
    if (current_) {
      // Walk through measured neighbours (deciding on them as if just measured) until one not
      // proposed yet turns up.
      for (int tries = 0; tries < 64; ++tries) {
        const auto next = memory_.neighbour(*current_, 16);
        if (!next) break;
        if (!memory_.proposed(*next)) return memory_.propose(*next);
        if (memory_.measured(*next)) decide(*next);
      }
    }
    return memory_.propose_fresh_random();
  }

  void observe(const Coordinate& variant, std::optional<double> objective) override {
    memory_.observe(variant, objective);
    if (!current_) {
      if (objective) current_ = variant;  // start at the first variant that runs
    } else {
      decide(variant);
    }
    temperature_ *= cooling_;
  }

 private:
  void decide(const Coordinate& candidate) {
    const double d = relative_slowdown(memory_.value(*current_), memory_.value(candidate));
    if (d == 0.0 || (std::isfinite(d) && memory_.random().unit() < std::exp(-d / temperature_)))
      current_ = candidate;
  }

  SearchMemory memory_;
  double temperature_, cooling_;
  std::optional<Coordinate> current_;
};

}  // namespace

std::unique_ptr<SearchStrategyRun> make_annealing_search(const StrategyContext& context) {
  return std::make_unique<AnnealingRun>(context);
}

}  // namespace convlab
