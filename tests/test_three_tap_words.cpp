// cpu_fused's K = 3 path in 16-bit lanes (src/impl/three_tap_words.hpp): which form each kernel
// takes, and that every form gives exactly the bytes of the one-value-at-a-time model of its
// arithmetic (word_sum) on widths and heights around the block and chunk sizes, blocks that start
// inside a pixel, every border but zero (whose rows outside the image enter as 0, which the model
// does not describe) and both channel counts; that every form is within one level of the
// reference on every border, zero included, and OpenCV's K = 3 Gaussian the correctly rounded
// reference; and the same through cpu_fused with many threads, narrow tiles and many strips.
#include <gtest/gtest.h>

#include <random>

#include "impl/registry.hpp"
#include "impl/three_tap_words.hpp"
#include "reference/reference.hpp"
#include "test_support.hpp"
#include "verify/verify.hpp"

namespace convlab {
namespace {

using testing::filter_of;
using testing::random_image;

Filter with_factors(std::vector<float> column, std::vector<float> row, const std::string& name) {
  Filter f = filter_of("gaussian", 3);
  f.name = name;
  f.type = "custom";
  f.column = std::move(column);
  f.row = std::move(row);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) f.weights[y * 3 + x] = f.column[y] * f.row[x];
  return f;
}

Filter gaussian_with_sigma(int size, double sigma) {
  FilterRequest request;
  request.type = "gaussian";
  request.size = size;
  request.sigma = sigma;
  return make_filter(request);
}

struct Kernel {
  Filter filter;
  ThreeTapWords::Form form;
};

std::vector<Kernel> three_tap_kernels() {
  return {
      {filter_of("gaussian", 3), ThreeTapWords::Form::binomial},
      // Dyadic, but not [1 2 1]: integer products.
      {with_factors({0.25f, 0.25f, 0.5f}, {0.5f, 0.25f, 0.25f}, "skew3"),
       ThreeTapWords::Form::exact_products},
      {gaussian_with_sigma(3, 1.3), ThreeTapWords::Form::fixed_point_products},
      {filter_of("box", 3), ThreeTapWords::Form::fixed_point_products},
  };
}

TEST(ThreeTapWords, AddsForOpenCVsGaussianAndProductsForEveryOtherForm) {
  for (const Kernel& k : three_tap_kernels()) {
    const auto w = word_weights(k.filter, OutputType::u8);
    ASSERT_TRUE(w) << k.filter.name;
    const ThreeTapWords path(*w, Border::replicate, 3, 1, 64);
    EXPECT_EQ(path.form(), k.form) << k.filter.name;
  }
}

// Image of the given pattern: 0 ordinary noise, 1 0/255 noise (every window extreme), 2 all 255.
Image pattern_image(int width, int height, int channels, int pattern, std::mt19937& rng) {
  Image image = random_image(width, height, channels, 70 + width * 13 + height + pattern);
  for (auto& v : image.pixels) v = pattern == 1 ? 255 * (rng() % 2) : pattern == 2 ? 255 : v;
  return image;
}

// Every output byte of `out` against word_sum on its window (pixels outside mapped through the
// border; not the zero border). Returns the number of bytes compared.
size_t expect_model(const OutputView& out, const Image& image, const WordWeights& w, Border border,
                    const std::string& what) {
  std::uint8_t window[9];
  size_t compared = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      for (int c = 0; c < image.channels; ++c) {
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx) {
            const int sy = map_border_index(y + ky - 1, image.height, border);
            const int sx = map_border_index(x + kx - 1, image.width, border);
            window[ky * 3 + kx] =
                image.pixels[(size_t(sy) * image.width + sx) * image.channels + c];
          }
        const size_t index = (size_t(y) * image.width + x) * image.channels + c;
        const unsigned expected = word_sum(w, window) >> w.shift;
        if (out.u8()[index] != expected) {
          ADD_FAILURE() << what << " at " << x << "," << y << " channel " << c << ": "
                        << unsigned(out.u8()[index]) << ", model " << expected;
          return compared;
        }
        ++compared;
      }
  return compared;
}

TEST(ThreeTapWords, ComputesExactlyTheModelledArithmetic) {
  std::mt19937 rng(3);
  size_t compared = 0;
  // Widths below, at and past one block of values (192 with AVX-512, 32 with AVX2) and the vector
  // width, with 1 and 3 channels, so rows have edge blocks only, and whole blocks straight from
  // the image between edge blocks and partial ones; heights past one chunk of rows (8), so the
  // row sums carried between chunks are used.
  const std::vector<std::pair<int, int>> shapes{{1, 1},  {2, 3},   {5, 2},   {31, 7},   {43, 33},
                                                {64, 1}, {87, 40}, {129, 5}, {300, 65}, {520, 9}};
  for (const Kernel& k : three_tap_kernels()) {
    const auto w = word_weights(k.filter, OutputType::u8);
    ASSERT_TRUE(w);
    for (const auto& [width, height] : shapes)
      for (int channels : {1, 3})
        for (Border border : {Border::replicate, Border::reflect, Border::symmetric, Border::wrap})
          for (int pattern = 0; pattern < 3; ++pattern) {
            const Image image = pattern_image(width, height, channels, pattern, rng);
            ThreeTapWords path(*w, border, channels, 1, width);
            HostOutput out(OutputType::u8, image.value_count());
            path.filter(image, {0, height}, {0, width}, out, 0);
            compared += expect_model(out.view(), image, *w, border,
                                     k.filter.name + " " + std::to_string(width) + "x" +
                                         std::to_string(height) + "x" + std::to_string(channels) +
                                         " " + std::string(to_string(border)) + " pattern " +
                                         std::to_string(pattern));
          }
  }
  EXPECT_GT(compared, 1000000u);
}

// Through cpu_fused: strips, tiles narrower and wider than a block, threads handing them out.
TEST(ThreeTapWords, FusedRunsItOnStripsAndTiles) {
  const Implementation* fused = find_implementation("cpu_fused");
  ASSERT_NE(fused, nullptr);
  std::mt19937 rng(4);
  size_t compared = 0;
  for (const Kernel& k : three_tap_kernels()) {
    const auto w = word_weights(k.filter, OutputType::u8);
    for (int channels : {1, 3})
      for (const Params& params : {Params{{"threads", 3}, {"tile", 50}, {"strips", 7}},
                                   Params{{"threads", 2}, {"tile", 7}, {"stream", "always"}},
                                   Params{{"threads", 4}, {"strips", 70}}}) {
        const Image image = pattern_image(521, 70, channels, 0, rng);
        const Problem problem{image, k.filter, Border::reflect, OutputType::u8};
        auto point = fused->prepare(problem, params, RunContext{});
        point->execute();
        compared += expect_model(point->output(), image, *w, Border::reflect,
                                 k.filter.name + " " + params.dump());
      }
  }
  EXPECT_EQ(compared, 4u * 3 * (521 * 70) * 4);
}

// Every form within one level of the reference on every border, the zero border included (rows
// outside the image enter as 0 there); OpenCV's K = 3 Gaussian the correctly rounded reference.
TEST(ThreeTapWords, EveryFormIsWithinTheReferenceOnEveryBorder) {
  const Implementation* fused = find_implementation("cpu_fused");
  int checked = 0;
  for (const Kernel& k : three_tap_kernels())
    for (const auto& [width, height] :
         std::vector<std::pair<int, int>>{{1, 1}, {130, 37}, {301, 9}, {520, 3}})
      for (int channels : {1, 3})
        for (Border border : all_borders()) {
          const Image image = random_image(width, height, channels, 5 + width + channels);
          const Problem problem{image, k.filter, border, OutputType::u8};
          auto point = fused->prepare(problem, {{"threads", 2}}, RunContext{});
          point->execute();
          const Verification v = verify_output(point->output(), compute_reference(problem), 1.0);
          const std::string what = k.filter.name + " " + std::to_string(width) + "x" +
                                   std::to_string(height) + "x" + std::to_string(channels) + " " +
                                   std::string(to_string(border));
          EXPECT_TRUE(v.ok) << what << ": max error " << v.max_abs_error;
          if (k.form == ThreeTapWords::Form::binomial) {
            EXPECT_EQ(v.values_not_exact, 0u) << what;
          }
          ++checked;
        }
  EXPECT_EQ(checked, 4 * 4 * 2 * static_cast<int>(all_borders().size()));
}

}  // namespace
}  // namespace convlab
