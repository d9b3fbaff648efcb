// cpu_fused's 16-bit arithmetic on u8 output (src/impl/word_weights.hpp): which kernels take the
// exact and the fixed-point form, that the error bound holds on windows chosen to make the error
// as large as the proof allows, that no sum wraps, and that the vector code computes exactly the
// arithmetic the bound is proven for (byte for byte against the one-value-at-a-time model).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "impl/registry.hpp"
#include "impl/word_weights.hpp"
#include "reference/reference.hpp"
#include "test_support.hpp"
#include "verify/verify.hpp"

namespace convlab {
namespace {

using testing::filter_of;
using testing::random_image;

Filter gaussian_with_sigma(int size, double sigma) {
  FilterRequest request;
  request.type = "gaussian";
  request.size = size;
  request.sigma = sigma;
  return make_filter(request);
}

// The exact value of one output before rounding, from the float factors (what the bound is
// proven against), for a K x K window.
double exact_value(const Filter& filter, const std::uint8_t* window) {
  const int k = filter.size;
  double sum = 0;
  for (int ky = 0; ky < k; ++ky)
    for (int kx = 0; kx < k; ++kx)
      sum += double(filter.column[ky]) * double(filter.row[kx]) * window[ky * k + kx];
  return sum;
}

// S / 2^shift - 1/2 (the value the output rounds down) minus the exact value, in levels.
double model_error(const WordWeights& w, const Filter& filter, const std::uint8_t* window) {
  return std::ldexp(double(word_sum(w, window)), -w.shift) - 0.5 - exact_value(filter, window);
}

std::vector<Filter> nonnegative_kernels() {
  std::vector<Filter> filters;
  for (int k : {3, 5, 7, 9, 11, 13, 15, 21, 31}) {
    filters.push_back(filter_of("gaussian", k));
    filters.push_back(gaussian_with_sigma(k, 0.7 + 0.31 * k));
    filters.push_back(filter_of("box", k));
  }
  filters.push_back(gaussian_with_sigma(9, 2.0));
  return filters;
}

TEST(WordWeights, ExactOnlyWhereEverySumFitsAndFixedPointForOtherNonNegativeKernels) {
  for (int k : {1, 3, 5}) {
    const auto w = word_weights(filter_of("gaussian", k), OutputType::u8);
    ASSERT_TRUE(w) << k;
    EXPECT_EQ(w->kind, WordWeights::Kind::exact) << k;
    EXPECT_EQ(w->error_bound, 0.0);
  }
  for (int k : {7, 9, 11, 15, 21}) {
    const auto w = word_weights(filter_of("gaussian", k), OutputType::u8);
    ASSERT_TRUE(w) << k;
    EXPECT_EQ(w->kind, WordWeights::Kind::fixed_point) << k;
    EXPECT_LT(w->error_bound, 0.25) << k;  // the bound the docs quote for K <= 21
  }
  for (const Filter& f : nonnegative_kernels()) {
    const auto w = word_weights(f, OutputType::u8);
    ASSERT_TRUE(w) << f.name;
    EXPECT_LT(w->error_bound, 1.0) << f.name;
    // Float output, and kernels with negative weights, stay on the float path.
    EXPECT_FALSE(word_weights(f, OutputType::f32)) << f.name;
  }
  for (const char* negative : {"sobel_x", "emboss", "laplacian"})
    EXPECT_FALSE(word_weights(filter_of(negative, 3), OutputType::u8)) << negative;
  EXPECT_FALSE(word_weights(filter_of("sobel_x", 5), OutputType::u8));
}

// The largest errors the proof allows come from inputs at 0 or 255 placed where the weights'
// rounding errors have one sign, and from truncations all falling the same way: every window
// drawn from {0, 255} by the signs of the rounding errors, all-0, all-255, and random windows of
// extreme and mid values. The model's error must stay within the bound (and the bound below 1).
TEST(WordWeights, FixedPointErrorStaysWithinItsBoundOnWorstCaseWindows) {
  std::mt19937 rng(3);
  for (const Filter& f : nonnegative_kernels()) {
    const auto w = fixed_point_word_weights(f, OutputType::u8);
    ASSERT_TRUE(w) << f.name;
    const int k = f.size;
    double row_sum = 0;
    for (float v : f.row) row_sum += v;
    std::vector<std::vector<std::uint8_t>> windows;
    for (int sign : {1, -1}) {
      std::vector<std::uint8_t> window(k * k);
      for (int ky = 0; ky < k; ++ky)
        for (int kx = 0; kx < k; ++kx) {
          const double dx = std::ldexp(double(w->row[kx]), -16) - f.row[kx] / row_sum;
          const double dy = std::ldexp(double(w->column[ky]), -16) - f.column[ky] * row_sum;
          window[ky * k + kx] = sign * dx > 0 || sign * dy > 0 ? 255 : 0;
        }
      windows.push_back(window);
    }
    windows.push_back(std::vector<std::uint8_t>(k * k, 0));
    windows.push_back(std::vector<std::uint8_t>(k * k, 255));
    for (int trial = 0; trial < 3000; ++trial) {
      std::vector<std::uint8_t> window(k * k);
      for (auto& v : window) {
        const int pick = int(rng() % 4);
        v = pick == 0 ? 0 : pick == 1 ? 255 : static_cast<std::uint8_t>(rng() % 256);
      }
      windows.push_back(window);
    }
    double worst = 0;
    for (const auto& window : windows) {
      const double error = std::fabs(model_error(*w, f, window.data()));
      worst = std::max(worst, error);
      ASSERT_LE(error, w->error_bound) << f.name;
    }
    EXPECT_GT(worst, 0.0) << f.name;  // the check saw rounding at all
    // An all-255 window must not wrap: its output is 255.
    EXPECT_EQ(word_sum(*w, windows[3].data()) >> w->shift, 255u) << f.name;
  }
}

TEST(WordWeights, ExactFormIsTheCorrectlyRoundedValueOnEveryExtremeWindow) {
  std::mt19937 rng(5);
  for (int k : {3, 5}) {
    const Filter f = filter_of("gaussian", k);
    const auto w = exact_word_weights(f, OutputType::u8);
    ASSERT_TRUE(w);
    for (int trial = 0; trial < 5000; ++trial) {
      std::vector<std::uint8_t> window(k * k);
      for (auto& v : window) v = trial % 2 ? 255 * (rng() % 2) : rng() % 256;
      const double exact = exact_value(f, window.data());
      EXPECT_EQ(double(word_sum(*w, window.data()) >> w->shift), std::floor(exact + 0.5));
    }
  }
}

// The vector code against the model, byte for byte, on images whose every window is extreme
// (0/255 noise, all 255) and on ordinary noise: widths that are not multiples of the vector
// width, 1 and 3 channels, the compiled sizes and one read at run time. Replicate border keeps
// every window inside the image, as the model assumes.
TEST(WordWeights, FusedComputesExactlyTheModelledArithmetic) {
  std::mt19937 rng(9);
  const Implementation* fused = find_implementation("cpu_fused");
  ASSERT_NE(fused, nullptr);
  int compared = 0;
  for (const Filter& f :
       {filter_of("gaussian", 3), filter_of("gaussian", 7), filter_of("gaussian", 11),
        filter_of("gaussian", 21), gaussian_with_sigma(9, 2.0), filter_of("box", 5)})
    for (int channels : {1, 3})
      for (int pattern = 0; pattern < 3; ++pattern) {
        Image image = random_image(97, 29, channels, 40 + pattern);
        for (auto& v : image.pixels) v = pattern == 0 ? 255 * (rng() % 2) : pattern == 1 ? 255 : v;
        const Problem problem{image, f, Border::replicate, OutputType::u8};
        const auto w = word_weights(f, OutputType::u8);
        ASSERT_TRUE(w) << f.name;
        auto point = fused->prepare(problem, {{"threads", 2}}, RunContext{});
        point->execute();
        const OutputView out = point->output();
        const int k = f.size, r = k / 2;
        std::vector<std::uint8_t> window(k * k);
        for (int y = 0; y < image.height; ++y)
          for (int x = 0; x < image.width; ++x)
            for (int c = 0; c < channels; ++c) {
              for (int ky = 0; ky < k; ++ky)
                for (int kx = 0; kx < k; ++kx) {
                  const int sy = std::clamp(y + ky - r, 0, image.height - 1);
                  const int sx = std::clamp(x + kx - r, 0, image.width - 1);
                  window[ky * k + kx] =
                      image.pixels[(size_t(sy) * image.width + sx) * channels + c];
                }
              const size_t index = (size_t(y) * image.width + x) * channels + c;
              ASSERT_EQ(out.u8()[index], word_sum(*w, window.data()) >> w->shift)
                  << f.name << " c" << channels << " pattern " << pattern << " at " << x << ","
                  << y;
              ++compared;
            }
        const Verification v = verify_output(out, compute_reference(problem), 1.0);
        EXPECT_TRUE(v.ok) << f.name << " max error " << v.max_abs_error;
      }
  EXPECT_EQ(compared, 6 * 3 * 97 * 29 * 4);
}

}  // namespace
}  // namespace convlab
