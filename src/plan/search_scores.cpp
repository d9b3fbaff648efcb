#include "plan/search_scores.hpp"

#include <algorithm>
#include <cmath>

namespace convlab {

RandomBaseline::RandomBaseline(const std::vector<std::optional<double>>& objectives) {
  std::size_t failed = 0;
  for (const auto& objective : objectives) {
    if (objective)
      sorted_.push_back(*objective);
    else
      ++failed;
  }
  std::sort(sorted_.begin(), sorted_.end());
  if (sorted_.empty()) return;
  const std::size_t n = sorted_.size();
  median_ = n % 2 ? sorted_[n / 2] : (sorted_[n / 2 - 1] + sorted_[n / 2]) / 2;
  sorted_.insert(sorted_.end(), failed, sorted_.back());
}

// With N variants sorted fastest first, the best of b draws is the i-th with probability
// q(i) - q(i+1), q(i) = C(N-i+1, b) / C(N, b) the chance that all b come from the i-th on, and
// q(i+1) = q(i) (N-i+1-b) / (N-i+1).
double RandomBaseline::expected_best(std::size_t budget) const {
  const std::size_t n = sorted_.size();
  if (budget >= n) return sorted_.front();
  double expected = 0.0, q = 1.0;
  for (std::size_t i = 1; i <= n && q > 0.0; ++i) {
    const double remaining = double(n - i + 1);
    const double next =
        remaining > double(budget) ? q * (remaining - double(budget)) / remaining : 0.0;
    expected += sorted_[i - 1] * (q - next);
    q = next;
  }
  return expected;
}

BudgetRange scored_budgets(const BudgetRange& asked, const RandomBaseline& baseline,
                           double cutoff) {
  BudgetRange range = asked;
  const double target =
      baseline.optimum() + (baseline.median() - baseline.optimum()) * (1 - cutoff);
  // The expected best falls with the budget: the first budget that reaches the target.
  std::size_t low = 1, high = std::min(asked.last, baseline.size());
  if (baseline.expected_best(high) > target) {
    range.last = high;
    return range;
  }
  while (low < high) {
    const std::size_t middle = (low + high) / 2;
    if (baseline.expected_best(middle) <= target)
      high = middle;
    else
      low = middle + 1;
  }
  range.last = low;
  return range;
}

namespace {

double best_at(const std::vector<SearchStep>& steps, std::size_t budget, double worst) {
  if (steps.empty()) return worst;
  const double best = steps[std::min(budget, steps.size()) - 1].best_so_far;
  return std::isfinite(best) ? best : worst;
}

}  // namespace

StrategyScore score_strategy(const std::vector<std::vector<SearchStep>>& searches,
                             const RandomBaseline& baseline, const BudgetRange& range,
                             const std::vector<std::size_t>& at) {
  StrategyScore result;
  const auto standardised = [&](const std::vector<SearchStep>& steps,
                                std::size_t budget) -> std::optional<double> {
    const double random = baseline.expected_best(budget);
    const double span = random - baseline.optimum();
    if (!(span > 1e-12 * std::fabs(baseline.optimum()))) return std::nullopt;
    return (random - best_at(steps, budget, baseline.worst())) / span;
  };
  std::vector<double> per_seed;
  for (const auto& steps : searches) {
    double sum = 0.0;
    std::size_t count = 0;
    for (std::size_t b = range.first; b <= range.last; ++b)
      if (const auto p = standardised(steps, b)) {
        sum += *p;
        ++count;
      }
    if (count > 0) per_seed.push_back(sum / double(count));
  }
  if (!per_seed.empty()) {
    double mean = 0.0;
    for (double s : per_seed) mean += s;
    mean /= double(per_seed.size());
    result.score = mean;
    if (per_seed.size() > 1) {
      double variance = 0.0;
      for (double s : per_seed) variance += (s - mean) * (s - mean);
      variance /= double(per_seed.size() - 1);
      result.margin = 1.96 * std::sqrt(variance / double(per_seed.size()));
    }
  }
  for (std::size_t budget : at) {
    std::optional<double> mean;
    if (budget >= range.first && budget <= range.last) {
      double sum = 0.0;
      std::size_t count = 0;
      for (const auto& steps : searches)
        if (const auto p = standardised(steps, budget)) {
          sum += *p;
          ++count;
        }
      if (count > 0) mean = sum / double(count);
    }
    result.at.push_back(mean);
  }
  return result;
}

}  // namespace convlab
