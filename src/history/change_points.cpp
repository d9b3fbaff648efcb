#include "history/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "measure/stats.hpp"

namespace convlab {
namespace {

// Sums of the values and their squares up to each index, for the cost of any piece in O(1).
class PieceCost {
 public:
  explicit PieceCost(const std::vector<double>& values)
      : sum_(values.size() + 1, 0.0), squares_(values.size() + 1, 0.0) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      sum_[i + 1] = sum_[i] + values[i];
      squares_[i + 1] = squares_[i] + values[i] * values[i];
    }
  }
  // The squared deviations of values [begin, end) from their mean.
  double operator()(std::size_t begin, std::size_t end) const {
    const double n = static_cast<double>(end - begin);
    const double sum = sum_[end] - sum_[begin];
    return std::max(0.0, squares_[end] - squares_[begin] - sum * sum / n);
  }

 private:
  std::vector<double> sum_, squares_;
};

}  // namespace

std::vector<std::size_t> change_points(const std::vector<double>& values, double penalty) {
  const std::size_t n = values.size();
  if (n < 2) return {};
  const PieceCost cost(values);
  // best[t]: the least cost of values [0, t); last[t]: where its last piece starts.
  std::vector<double> best(n + 1, 0.0);
  std::vector<std::size_t> last(n + 1, 0);
  best[0] = -penalty;
  std::vector<std::size_t> candidates{0};
  for (std::size_t t = 1; t <= n; ++t) {
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t s : candidates) {
      const double total = best[s] + cost(s, t) + penalty;
      if (total < least) {
        least = total;
        last[t] = s;
      }
    }
    best[t] = least;
    // A start that costs more than the best already, before its penalty, never wins later.
    std::vector<std::size_t> kept;
    for (std::size_t s : candidates)
      if (best[s] + cost(s, t) <= least) kept.push_back(s);
    kept.push_back(t);
    candidates = std::move(kept);
  }
  std::vector<std::size_t> starts;
  for (std::size_t t = last[n]; t > 0; t = last[t]) starts.push_back(t);
  std::reverse(starts.begin(), starts.end());
  return starts;
}

double neighbour_noise(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  std::vector<double> differences;
  for (std::size_t i = 1; i < values.size(); ++i)
    differences.push_back(std::fabs(values[i] - values[i - 1]));
  return summarize(differences).median / (0.6745 * std::sqrt(2.0));
}

double change_penalty(double sigma, std::size_t count, double factor) {
  return factor * sigma * sigma * std::log(static_cast<double>(std::max<std::size_t>(count, 2)));
}

}  // namespace convlab
