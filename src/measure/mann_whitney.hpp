// The Mann-Whitney U test (Wilcoxon rank-sum): do two sets of timing samples come from the same
// distribution? Used by `convlab compare`, as Google Benchmark's compare.py uses it, because
// timings are skewed and heavy-tailed, so a rank test fits better than a t-test.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace convlab {

struct MannWhitney {
  double u = 0;        // U of the first sample: pairs (a, b) with a > b, plus half the ties
  double p_value = 1;  // two-sided
  bool exact = false;  // exact distribution of U, or the normal approximation
};

// Two-sided p-value, as SciPy's mannwhitneyu(method="auto"): exact when the smaller sample has
// fewer than 8 values and no value is tied (p = 2 min(P(U <= u), P(U >= u)), at most 1); otherwise
// the normal approximation with the tie correction of the variance and a continuity correction of
// 0.5. Empty samples give p = 1.
MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// The smallest two-sided p-value samples of m and n values can give (exact test, no ties): below
// 8 values in the smaller sample, 2 / (m + n choose m); 0 from 8 on, where the normal
// approximation can reach any level. When it is not below alpha, no difference, however large,
// can be shown significant at alpha with so few samples.
double mann_whitney_smallest_p(size_t m, size_t n);

// B against A (the reference), as `convlab compare` and `convlab show --compare` judge it:
//   slower  B/A > 1 + threshold and p < alpha
//   faster  B/A < 1 / (1 + threshold) and p < alpha
//   same    otherwise; same_within_noise when beyond the threshold but p >= alpha, and
//           same_too_few_samples when samples of these sizes cannot reach p < alpha at all
enum class ChangeVerdict { faster, slower, same, same_within_noise, same_too_few_samples };
// "faster", "slower", "same", "same (within noise)", "same (too few samples)".
const char* to_string(ChangeVerdict verdict);
// The verdict with its p, as every table writes it: "faster (p = 0.002)", "same (within noise;
// p = 0.12)".
std::string verdict_words(ChangeVerdict verdict, double p_value);
// `ratio`: B's median / A's; `test`: mann_whitney_u(A, B); the counts: the samples of A and B.
ChangeVerdict change_verdict(double ratio, const MannWhitney& test, size_t a_count, size_t b_count,
                             double threshold, double alpha);

}  // namespace convlab
