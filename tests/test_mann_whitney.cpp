// Mann-Whitney U on small samples computed by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "measure/mann_whitney.hpp"

namespace convlab {
namespace {

TEST(MannWhitney, SeparatedSamplesOfThreeExact) {
  // U = 0; 20 equally likely orderings, one with U = 0 and one with U = 9: p = 2/20.
  const MannWhitney test = mann_whitney_u({1, 2, 3}, {4, 5, 6});
  EXPECT_DOUBLE_EQ(test.u, 0.0);
  EXPECT_TRUE(test.exact);
  EXPECT_DOUBLE_EQ(test.p_value, 0.1);
  EXPECT_DOUBLE_EQ(mann_whitney_u({4, 5, 6}, {1, 2, 3}).u, 9.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u({4, 5, 6}, {1, 2, 3}).p_value, 0.1);
}

TEST(MannWhitney, InterleavedSamplesOfThreeExact) {
  // a > b pairs: 3>2, 5>2, 5>4, so U = 3. Counts of U = 0..9 for 3 and 3 values:
  // 1 1 2 3 3 3 3 2 1 1; P(U <= 3) = 7/20, P(U >= 3) = 16/20, p = 2 * 7/20.
  const MannWhitney test = mann_whitney_u({1, 3, 5}, {2, 4, 6});
  EXPECT_DOUBLE_EQ(test.u, 3.0);
  EXPECT_DOUBLE_EQ(test.p_value, 0.7);
}

TEST(MannWhitney, SeparatedSamplesOfFiveAndUnequalSizes) {
  EXPECT_NEAR(mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}).p_value, 2.0 / 252, 1e-15);
  // 2 and 4 values, all of a below: 1 ordering of C(6, 2) = 15 gives U = 0.
  const MannWhitney unequal = mann_whitney_u({1, 2}, {3, 4, 5, 6});
  EXPECT_DOUBLE_EQ(unequal.u, 0.0);
  EXPECT_NEAR(unequal.p_value, 2.0 / 15, 1e-15);
  // The middle of the distribution: p capped at 1.
  EXPECT_DOUBLE_EQ(mann_whitney_u({1, 4}, {2, 3}).p_value, 1.0);
}

TEST(MannWhitney, TiesUseTheNormalApproximationWithTieCorrection) {
  // Pooled: four 1s (ranks 1-4, mean 2.5), eight 2s (5-12, 8.5), four 3s (13-16, 14.5).
  // R_a = 4 * 2.5 + 4 * 8.5 = 44, U = 44 - 36 = 8, mean 32.
  // Variance 8 * 8 / 12 * (17 - (60 + 504 + 60) / (16 * 15)) = 76.8.
  // z = (|8 - 32| - 0.5) / sqrt(76.8) = 2.681558; p = erfc(z / sqrt(2)) = 0.0073280.
  const MannWhitney test = mann_whitney_u({1, 1, 1, 1, 2, 2, 2, 2}, {2, 2, 2, 2, 3, 3, 3, 3});
  EXPECT_DOUBLE_EQ(test.u, 8.0);
  EXPECT_FALSE(test.exact);
  EXPECT_NEAR(test.p_value, std::erfc(23.5 / std::sqrt(76.8) / std::sqrt(2.0)), 1e-12);
  EXPECT_NEAR(test.p_value, 0.0073280, 1e-7);
}

TEST(MannWhitney, LargeSamplesWithoutTiesUseTheNormalApproximation) {
  // 8 and 8 separated: U = 0, variance 64 / 12 * 17, z = 31.5 / sqrt(90.667), p = 0.000939.
  std::vector<double> a, b;
  for (int i = 1; i <= 8; ++i) a.push_back(i), b.push_back(i + 8);
  const MannWhitney test = mann_whitney_u(a, b);
  EXPECT_FALSE(test.exact);
  EXPECT_NEAR(test.p_value, 0.00093911, 1e-8);
}

TEST(MannWhitney, NoEvidenceWithoutVariationOrSamples) {
  EXPECT_DOUBLE_EQ(mann_whitney_u({2, 2, 2, 2, 2, 2, 2, 2}, {2, 2, 2, 2, 2, 2, 2, 2}).p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u({}, {1, 2}).p_value, 1.0);
}

TEST(MannWhitney, SmallestPossiblePValueBySampleSize) {
  EXPECT_DOUBLE_EQ(mann_whitney_smallest_p(3, 3), 0.1);  // 2 / (6 choose 3)
  EXPECT_DOUBLE_EQ(mann_whitney_smallest_p(2, 3), 0.2);
  EXPECT_NEAR(mann_whitney_smallest_p(5, 5), 2.0 / 252, 1e-15);
  EXPECT_DOUBLE_EQ(mann_whitney_smallest_p(1, 1), 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_smallest_p(8, 8), 0.0);  // the normal approximation reaches any p
  // It is the p of samples that do not overlap.
  EXPECT_DOUBLE_EQ(mann_whitney_u({1, 2, 3, 4}, {5, 6, 7}).p_value, mann_whitney_smallest_p(4, 3));
}

}  // namespace
}  // namespace convlab
