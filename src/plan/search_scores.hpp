// How strategies compare on a space measured whole, as Willemsen, Schoonhoven, Filipovič, Tørring,
// van Nieuwpoort and van Werkhoven compare optimisation algorithms for auto-tuning (2024): at
// every budget b of a range, the mean over the seeds of a strategy's best so far, S(b), is
// standardised between a random search, R(b), and the space's optimum:
//
//   P(b) = (R(b) - S(b)) / (R(b) - optimum)        0: as good as random search, 1: the optimum
//
// and the score is P averaged over the range. R(b) is calculated, not simulated: the expected best
// of b variants drawn at random without repeats, exact from the space's distribution of
// objectives. A variant that failed counts as the slowest that ran, for the strategies and the
// baseline alike. As in that methodology, the range ends where the random search's expected best
// has come `cutoff` (0.95) of the way from the space's median to its optimum: beyond, P divides by
// almost nothing and says little.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "plan/search_strategy.hpp"

namespace convlab {

class RandomBaseline {
 public:
  // The objectives of every variant of the space (nullopt: failed); at least one ran.
  explicit RandomBaseline(const std::vector<std::optional<double>>& objectives);
  // The expected best of `budget` variants drawn without repeats.
  double expected_best(std::size_t budget) const;
  double optimum() const { return sorted_.front(); }
  double median() const { return median_; }
  double worst() const { return sorted_.back(); }
  std::size_t size() const { return sorted_.size(); }

 private:
  std::vector<double> sorted_;  // ascending, failed ones as the worst
  double median_ = 0.0;         // of the variants that ran
};

struct BudgetRange {
  std::size_t first = 20, last = 400;
};

// The budgets scored: the range asked for, ending where the random search's expected best has
// come `cutoff` of the way from the median to the optimum, if that is sooner. Empty (last <
// first) when it comes there before the first budget.
BudgetRange scored_budgets(const BudgetRange& asked, const RandomBaseline& baseline, double cutoff);

struct StrategyScore {
  double score = 0.0;   // P averaged over the range (and the seeds)
  double margin = 0.0;  // the 95 % interval of the score over the seeds (0 for one seed)
  std::vector<std::optional<double>> at;  // P at each budget asked for; nullopt outside the range
};

// `searches`: the steps of each seed's search (a search shorter than a budget used the space up:
// its last best stands). `at`: budgets to give P at.
StrategyScore score_strategy(const std::vector<std::vector<SearchStep>>& searches,
                             const RandomBaseline& baseline, const BudgetRange& range,
                             const std::vector<std::size_t>& at);

}  // namespace convlab
