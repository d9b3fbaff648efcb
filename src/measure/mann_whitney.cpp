#include "measure/mann_whitney.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"

namespace convlab {
namespace {

// Number of orderings of m + n distinct values giving each U = 0 .. m n, by the recurrence
// count(m, n, u) = count(m - 1, n, u - n) + count(m, n - 1, u) (the largest value is from the
// first sample or not). Row by row over m, for fixed n.
std::vector<double> u_counts(size_t m, size_t n) {
  // table[j][u]: counts for (i, j) at the current row i.
  std::vector<std::vector<double>> table(n + 1);
  for (size_t j = 0; j <= n; ++j) table[j] = {1.0};  // i = 0: U = 0 only
  for (size_t i = 1; i <= m; ++i) {
    std::vector<std::vector<double>> next(n + 1);
    next[0] = {1.0};  // j = 0: U = 0 only
    for (size_t j = 1; j <= n; ++j) {
      next[j].assign(i * j + 1, 0.0);
      for (size_t u = 0; u < table[j].size(); ++u) next[j][u + j] += table[j][u];    // largest: a
      for (size_t u = 0; u < next[j - 1].size(); ++u) next[j][u] += next[j - 1][u];  // largest: b
    }
    table = std::move(next);
  }
  return table[n];
}

}  // namespace

MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  MannWhitney result;
  if (a.empty() || b.empty()) return result;
  const double m = static_cast<double>(a.size()), n = static_cast<double>(b.size());

  // Ranks of the pooled sample, ties given their average rank.
  std::vector<std::pair<double, bool>> pooled;  // value, from a
  for (double v : a) pooled.emplace_back(v, true);
  for (double v : b) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  double rank_sum_a = 0, tie_term = 0;
  bool ties = false;
  for (size_t start = 0; start < pooled.size();) {
    size_t end = start;
    while (end < pooled.size() && pooled[end].first == pooled[start].first) ++end;
    const double t = static_cast<double>(end - start);
    const double average_rank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2;
    for (size_t i = start; i < end; ++i)
      if (pooled[i].second) rank_sum_a += average_rank;
    tie_term += t * t * t - t;
    ties = ties || t > 1;
    start = end;
  }
  result.u = rank_sum_a - m * (m + 1) / 2;

  if (!ties && std::min(a.size(), b.size()) < 8) {
    const std::vector<double> counts = u_counts(a.size(), b.size());
    double total = 0, at_most = 0, at_least = 0;
    for (size_t u = 0; u < counts.size(); ++u) {
      total += counts[u];
      if (static_cast<double>(u) <= result.u) at_most += counts[u];
      if (static_cast<double>(u) >= result.u) at_least += counts[u];
    }
    result.exact = true;
    result.p_value = std::min(1.0, 2 * std::min(at_most, at_least) / total);
    return result;
  }

  const double total = m + n;
  const double variance = m * n / 12 * ((total + 1) - tie_term / (total * (total - 1)));
  if (variance <= 0) return result;  // every value equal: no evidence of a difference
  const double z = std::max(0.0, std::fabs(result.u - m * n / 2) - 0.5) / std::sqrt(variance);
  result.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return result;
}

double mann_whitney_smallest_p(size_t m, size_t n) {
  if (std::min(m, n) >= 8) return 0.0;
  double arrangements = 1;  // (m + n choose m)
  for (size_t i = 1; i <= m; ++i) arrangements = arrangements * double(n + i) / double(i);
  return std::min(1.0, 2 / arrangements);
}

const char* to_string(ChangeVerdict verdict) {
  switch (verdict) {
    case ChangeVerdict::faster:
      return "faster";
    case ChangeVerdict::slower:
      return "slower";
    case ChangeVerdict::same:
      return "same";
    case ChangeVerdict::same_within_noise:
      return "same (within noise)";
    case ChangeVerdict::same_too_few_samples:
      return "same (too few samples)";
  }
  return "";
}

std::string verdict_words(ChangeVerdict verdict, double p_value) {
  std::string words = to_string(verdict);
  const std::string p = "p = " + format_number(p_value, 2);
  if (!words.empty() && words.back() == ')')
    return words.substr(0, words.size() - 1) + "; " + p + ")";
  return words + " (" + p + ")";
}

ChangeVerdict change_verdict(double ratio, const MannWhitney& test, size_t a_count, size_t b_count,
                             double threshold, double alpha) {
  const bool significant = test.p_value < alpha;
  if (ratio > 1 + threshold && significant) return ChangeVerdict::slower;
  if (ratio < 1 / (1 + threshold) && significant) return ChangeVerdict::faster;
  if (std::fabs(ratio - 1) > threshold)
    return mann_whitney_smallest_p(a_count, b_count) >= alpha ? ChangeVerdict::same_too_few_samples
                                                              : ChangeVerdict::same_within_noise;
  return ChangeVerdict::same;
}

}  // namespace convlab
