// Shared by the GPU tests: random images and kernels, an independent double-precision reference,
// and a skip when no CUDA device is present.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/border.hpp"
#include "core/filter.hpp"
#include "core/image.hpp"
#include "impl/cuda/device_calls.hpp"
#include "impl/implementation.hpp"

namespace convlab::gpu_test {

#define CONVLAB_SKIP_WITHOUT_GPU()                                     \
  do {                                                                 \
    if (auto convlab_no_gpu_ = ::convlab::cuda::device_unavailable(0)) \
      GTEST_SKIP() << "skipped: " << *convlab_no_gpu_;                 \
  } while (0)

inline Image random_image(int width, int height, int channels, std::mt19937& rng) {
  Image image;
  image.width = width;
  image.height = height;
  image.channels = channels;
  image.name = "random-" + std::to_string(width) + "x" + std::to_string(height) + "-c" +
               std::to_string(channels);
  image.source = "generated:test";
  image.pixels.resize(image.value_count());
  std::uniform_int_distribution<int> value(0, 255);
  for (auto& p : image.pixels) p = static_cast<std::uint8_t>(value(rng));
  return image;
}

// Asymmetric weights in [-0.3, 1] scaled to sum 0.9, so u8 results span the range with some
// clamping, and any flip of the kernel's orientation shows.
inline Filter random_filter(int size, std::mt19937& rng) {
  std::uniform_real_distribution<float> value(-0.3f, 1.0f);
  Filter f;
  f.type = "custom";
  f.name = "random" + std::to_string(size);
  f.size = size;
  f.weights.resize(static_cast<size_t>(size) * size);
  double sum = 0.0;
  for (auto& w : f.weights) sum += (w = value(rng));
  if (std::abs(sum) < 0.1) sum = 0.1;
  for (auto& w : f.weights) w = static_cast<float>(w * 0.9 / sum);
  return f;
}

// A random rank-1 kernel with its factors, as the kernel library produces them.
inline Filter random_separable_filter(int size, std::mt19937& rng) {
  std::uniform_real_distribution<float> value(-0.2f, 1.0f);
  Filter f;
  f.type = "custom";
  f.name = "random_rank1_" + std::to_string(size);
  f.size = size;
  f.separable = true;
  f.column.resize(size);
  f.row.resize(size);
  double column_sum = 0.0, row_sum = 0.0;
  for (auto& w : f.column) column_sum += (w = value(rng));
  for (auto& w : f.row) row_sum += (w = value(rng));
  for (auto& w : f.column) w = static_cast<float>(w / column_sum);
  for (auto& w : f.row) w = static_cast<float>(w * 0.95 / row_sum);
  f.weights.resize(static_cast<size_t>(size) * size);
  for (int ky = 0; ky < size; ++ky)
    for (int kx = 0; kx < size; ++kx) f.weights[ky * size + kx] = f.column[ky] * f.row[kx];
  return f;
}

// A dyadic kernel: small integers over 2^shift, so every sum of u8 values is exact in double and
// its correctly rounded u8 value is known exactly. Rank 1 (integer factors) when `rank1`.
inline Filter random_dyadic_filter(int size, bool rank1, int shift, std::mt19937& rng) {
  std::uniform_int_distribution<int> value(-3, 9);
  Filter f;
  f.type = "custom";
  f.name = std::string(rank1 ? "dyadic_rank1_" : "dyadic_") + std::to_string(size);
  f.size = size;
  f.weights.resize(static_cast<size_t>(size) * size);
  const float scale = std::ldexp(1.0f, -shift);
  if (rank1) {
    f.separable = true;
    f.column.resize(size);
    f.row.resize(size);
    for (auto& w : f.column) w = static_cast<float>(value(rng)) * scale;
    for (auto& w : f.row) w = static_cast<float>(value(rng));
    if (size > 1) f.column[size / 2] = 4 * scale;  // no all-zero factor
    for (int ky = 0; ky < size; ++ky)
      for (int kx = 0; kx < size; ++kx) f.weights[ky * size + kx] = f.column[ky] * f.row[kx];
  } else {
    for (auto& w : f.weights) w = static_cast<float>(value(rng)) * scale;
  }
  return f;
}

// Correlation in double, written from the definition: out(x, y, c) = sum over (ky, kx) of
// w[ky][kx] * in(map(x + kx - r), map(y + ky - r), c); the zero border reads 0.
inline std::vector<double> reference_sums(const Image& image, const Filter& filter, Border border) {
  const int r = filter.size / 2;
  std::vector<double> sums(image.value_count());
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      for (int c = 0; c < image.channels; ++c) {
        double s = 0.0;
        for (int ky = 0; ky < filter.size; ++ky) {
          const int sy = map_border_index(y + ky - r, image.height, border);
          if (sy == kOutsideImage) continue;
          for (int kx = 0; kx < filter.size; ++kx) {
            const int sx = map_border_index(x + kx - r, image.width, border);
            if (sx == kOutsideImage) continue;
            s += static_cast<double>(filter.weights[ky * filter.size + kx]) *
                 image.pixels[(static_cast<size_t>(sy) * image.width + sx) * image.channels + c];
          }
        }
        sums[(static_cast<size_t>(y) * image.width + x) * image.channels + c] = s;
      }
  return sums;
}

inline double to_u8(double sum) {
  return std::min(255.0, std::max(0.0, std::floor(sum + 0.5)));
}

struct Comparison {
  size_t beyond = 0;
  double max_error = 0.0;
  size_t worst = 0;
  double tolerance = 0.0;
};

// u8: |diff| <= 1 against the rounded reference. f32: |diff| <= 1e-5 * K * sum|w| * 255 (+1e-5),
// some twenty times the float accumulation error of K^2 taps; a wrong index or border is far above.
// An implementation that multiplies weights rounded to a coarser format (unit roundoff u, e.g.
// FP16 on tensor cores) adds that rounding's bound, 255 * (u * sum|w| + K^2 * 2^-25), to f32.
inline Comparison compare(const OutputView& out, const std::vector<double>& sums,
                          const Filter& filter, double weight_roundoff = 0.0) {
  Comparison result;
  double abs_sum = 0.0;
  for (float w : filter.weights) abs_sum += std::abs(w);
  const double taps = static_cast<double>(filter.size) * filter.size;
  const double rounding =
      weight_roundoff > 0 ? 255.0 * (weight_roundoff * abs_sum + taps * std::ldexp(1.0, -25)) : 0.0;
  result.tolerance =
      out.type == OutputType::u8 ? 1.0 : 1e-5 * filter.size * abs_sum * 255.0 + 1e-5 + rounding;
  for (size_t i = 0; i < sums.size(); ++i) {
    const double expected = out.type == OutputType::u8 ? to_u8(sums[i]) : sums[i];
    const double got = out.type == OutputType::u8 ? out.u8()[i] : out.f32()[i];
    const double error = std::isnan(got) ? 1e30 : std::abs(got - expected);
    if (error > result.tolerance) ++result.beyond;
    if (error > result.max_error) {
      result.max_error = error;
      result.worst = i;
    }
  }
  return result;
}

inline double weight_roundoff(const Implementation& impl, const Params& params) {
  return impl.weight_roundoff ? impl.weight_roundoff(params) : 0.0;
}

inline const Implementation& cuda_implementation(const std::vector<Implementation>& all,
                                                 const std::string& name) {
  for (const auto& impl : all)
    if (impl.name == name) return impl;
  throw std::runtime_error("no implementation " + name);
}

}  // namespace convlab::gpu_test

namespace convlab::gpu_test {

struct Size {
  int width, height;
};

// One family of kernels a grid runs: how to make one of size K, whether the implementation must
// skip that size (with a reason), and whether u8 results must equal the correctly rounded
// reference exactly (dyadic kernels summed in integers).
struct KernelFamily {
  std::string label;
  std::function<Filter(int, std::mt19937&)> make;
  std::function<bool(int)> skipped;
  bool exact_u8 = false;
};

struct GridCounts {
  int checked = 0;
  int skipped = 0;
  int failures = 0;
};

// Every size x channels x K x border x output of `family` through `impl` with `params`, each point
// executed twice and compared with the double reference (u8 within 1 level, or exactly; f32 within
// the implementation's tolerance). Failures are reported with the point; the counts are returned.
inline GridCounts check_grid(const Implementation& impl, const Params& params,
                             const std::vector<Size>& sizes, const std::vector<int>& ksizes,
                             const KernelFamily& family, std::mt19937& rng) {
  GridCounts counts;
  RunContext context;
  const double roundoff = weight_roundoff(impl, params);
  for (const Size size : sizes)
    for (int channels : {1, 3}) {
      const Image image = random_image(size.width, size.height, channels, rng);
      for (int k : ksizes) {
        const Filter filter = family.make(k, rng);
        for (Border border : all_borders()) {
          std::vector<double> sums;
          for (OutputType output : {OutputType::u8, OutputType::f32}) {
            const Problem problem{image, filter, border, output};
            std::ostringstream where;
            where << impl.name << " " << params.dump() << " " << family.label << " image "
                  << size.width << "x" << size.height << "x" << channels << " K=" << k << " border "
                  << to_string(border) << " output " << to_string(output);
            const auto reason = impl.unsupported(problem, params, context);
            if (family.skipped(k)) {
              EXPECT_TRUE(reason.has_value()) << where.str() << ": expected a skip";
              ++counts.skipped;
              continue;
            }
            if (reason) {
              ADD_FAILURE() << where.str() << ": unexpected skip: " << *reason;
              ++counts.failures;
              continue;
            }
            if (sums.empty()) sums = reference_sums(image, filter, border);
            auto point = impl.prepare(problem, params, context);
            for (int rep = 0; rep < 2; ++rep) {
              const auto phases = point->execute();
              if (!phases) {
                ADD_FAILURE() << where.str() << ": no timing";
                ++counts.failures;
                break;
              }
              const OutputView view = point->output();
              const bool exact = family.exact_u8 && output == OutputType::u8;
              const auto result = compare(view, sums, filter, roundoff);
              size_t not_exact = 0;
              if (exact)
                for (size_t i = 0; i < sums.size(); ++i)
                  not_exact += view.u8()[i] != to_u8(sums[i]);
              if (result.beyond > 0 || not_exact > 0) {
                ++counts.failures;
                ADD_FAILURE() << where.str() << " rep " << rep << ": " << result.beyond
                              << " values beyond tolerance " << result.tolerance << ", "
                              << not_exact << " not exact, max error " << result.max_error
                              << " at value " << result.worst << " (pixel "
                              << result.worst / channels << ", channel " << result.worst % channels
                              << ")";
              }
            }
            ++counts.checked;
            if (counts.failures > 20) return counts;
          }
        }
      }
    }
  return counts;
}

}  // namespace convlab::gpu_test
