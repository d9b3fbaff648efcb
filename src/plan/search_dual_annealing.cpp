// dual_annealing — generalised simulated annealing with a local search (Xiang et al., as SciPy's
// dual_annealing, which Kernel Tuner uses), on the params' value indices: a visit jumps from the
// current variant by distances of a heavy-tailed (Cauchy) distribution whose width shrinks with
// the visiting temperature T(k) = (2^(qv-1) - 1) / ((1+k)^(qv-1) - 1), qv = 2.62, alternately
// on every param and on one; a slower variant is taken with the generalised Metropolis
// probability (1 - (1 - qa) * slowdown / (temperature * T(k)))^(1 / (1 - qa)), qa = -5; every new
// best starts a local search (first-improvement climbing over its neighbours) before annealing
// goes on from where it ended.
#include <cmath>

#include "plan/search_strategy.hpp"

namespace convlab {
namespace {

constexpr double kVisiting = 2.62;
constexpr double kAcceptance = -5.0;

class DualAnnealingRun final : public SearchStrategyRun {
 public:
  DualAnnealingRun(const StrategyContext& context)
      : memory_(context.space, context.seed), temperature_(context.spec.setting("temperature")) {}

  std::optional<Coordinate> propose() override {
    if (auto next = climb_.next(memory_)) return next;
    if (climb_.started()) {
      current_ = climb_.centre();  // the local search ended: anneal on from its centre
      climb_ = LocalClimb();
    }
    if (current_)
      for (int tries = 0; tries < 32; ++tries) {
        Coordinate variant = visit(*current_);
        if (!memory_.space().allows(variant) || memory_.proposed(variant)) continue;
        return memory_.propose(std::move(variant));
      }
    return memory_.propose_fresh_random();
  }

  void observe(const Coordinate& variant, std::optional<double> objective) override {
    const double best_before = memory_.best_value();
    memory_.observe(variant, objective);
    ++step_;
    climb_.observe(memory_, variant);
    if (!objective) return;
    if (!current_ || accept(*current_, variant)) current_ = variant;
    if (*objective < best_before && !climb_.started()) climb_.start(memory_, variant);
  }

 private:
  double visiting_temperature() const {
    const double k = double(step_);
    return (std::pow(2.0, kVisiting - 1.0) - 1.0) / (std::pow(1.0 + k, kVisiting - 1.0) - 1.0);
  }

  Coordinate visit(const Coordinate& from) {
    const auto& axes = memory_.space().axes();
    SearchRandom& random = memory_.random();
    Coordinate variant = from;
    const bool every_param = (visits_++ % 2) == 0;
    const std::size_t only = random.below(axes.size());
    const double width = std::max(0.5, visiting_temperature());
    for (std::size_t a = 0; a < axes.size(); ++a) {
      if (!every_param && a != only) continue;
      const int size = static_cast<int>(axes[a].values.size());
      const double cauchy = std::tan(M_PI * (random.unit() - 0.5));
      long jump = std::lround(cauchy * width * 0.5 * size);
      if (!every_param && jump == 0) jump = random.below(2) ? 1 : -1;
      variant[a] = static_cast<int>(((variant[a] + jump) % size + size) % size);
    }
    return variant;
  }

  bool accept(const Coordinate& current, const Coordinate& candidate) {
    const double slowdown = relative_slowdown(memory_.value(current), memory_.value(candidate));
    if (slowdown == 0.0) return true;
    if (!std::isfinite(slowdown)) return false;
    const double t = temperature_ * visiting_temperature();
    const double base = 1.0 - (1.0 - kAcceptance) * slowdown / t;
    if (base <= 0.0) return false;
    return memory_.random().unit() < std::pow(base, 1.0 / (1.0 - kAcceptance));
  }

  SearchMemory memory_;
  double temperature_;
  std::optional<Coordinate> current_;
  LocalClimb climb_;
  std::size_t step_ = 0, visits_ = 0;
};

}  // namespace

std::unique_ptr<SearchStrategyRun> make_dual_annealing_search(const StrategyContext& context) {
  return std::make_unique<DualAnnealingRun>(context);
}

}  // namespace convlab
