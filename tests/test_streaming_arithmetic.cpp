// Rung 8's choice of arithmetic (impl/cuda/streaming_arithmetic), on the host: which path each
// kernel of the library takes, and, for the 16-bit pairs path, the arithmetic itself replayed value
// by value as paired_kernel does it: no half may ever reach 2^16 (it would carry into the other),
// and the result is the correctly rounded one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "filters/filter_library.hpp"
#include "impl/cuda/streaming_arithmetic.hpp"

namespace convlab {
namespace {

using cuda::streaming::Arithmetic;
using cuda::streaming::choose_arithmetic;
using cuda::streaming::StreamArithmetic;

Filter library_filter(const std::string& type, int size) {
  FilterRequest request;
  request.type = type;
  request.size = size;
  return make_filter(request);
}

// One window of u8 values (row-major, k x k) through the pairs arithmetic: the column pass on the
// raw values, then the row pass from 128 (the final round half up over 2^8). `carried` is set where
// a half would reach 2^16.
struct Replayed {
  int value = 0;  // the high byte: the kernel's result
  bool carried = false;
};

Replayed replay_pairs(const Arithmetic& a, int k, const std::vector<int>& window) {
  Replayed r;
  long row_sum = 128;
  for (int kx = 0; kx < k; ++kx) {
    long column = 0;
    for (int ky = 0; ky < k; ++ky)
      column += static_cast<long>(a.int_taps[k + ky]) * window[ky * k + kx];
    r.carried = r.carried || column >= 65536;
    row_sum += static_cast<long>(a.int_taps[kx]) * column;
  }
  r.carried = r.carried || row_sum >= 65536;
  r.value = static_cast<int>(row_sum >> 8);
  return r;
}

double exact_sum(const Filter& filter, const std::vector<int>& window) {
  double sum = 0.0;
  for (size_t i = 0; i < window.size(); ++i)
    sum += static_cast<double>(filter.weights[i]) * window[i];
  return sum;
}

// OpenCV's default Gaussians K = 3 and 5 take the 16-bit pairs. (K = 5 once missed them: its
// factors were found by dividing by the centre weight, 36/256, which leaves sixths.)
TEST(StreamingArithmetic, OpenCvGaussiansThreeAndFiveArePaired) {
  for (int k : {3, 5}) {
    const Filter g = library_filter("gaussian", k);
    const Arithmetic a = choose_arithmetic(g, OutputType::u8);
    EXPECT_EQ(a.kind, StreamArithmetic::int16_pairs) << k;
    EXPECT_EQ(a.shift, 8) << k;
  }
  const Arithmetic five = choose_arithmetic(library_filter("gaussian", 5), OutputType::u8);
  const std::vector<int> factor = {1, 4, 6, 4, 1};
  EXPECT_EQ(std::vector<int>(five.int_taps.begin() + 5, five.int_taps.begin() + 10), factor);
}

TEST(StreamingArithmetic, OtherKernelsTakeTheirOwnPaths) {
  // From K = 7 the Gaussians' sums need more than 16 bits: FP32, exact for them.
  for (int k : {7, 9, 11}) {
    const Arithmetic a = choose_arithmetic(library_filter("gaussian", k), OutputType::u8);
    EXPECT_EQ(a.kind, StreamArithmetic::fp32) << k;
    EXPECT_TRUE(a.separable) << k;
  }
  // Signed 3x3 kernels: 32-bit integers, rank 1 in two passes, the Laplacian direct.
  const Arithmetic sobel = choose_arithmetic(library_filter("sobel_x", 3), OutputType::u8);
  EXPECT_EQ(sobel.kind, StreamArithmetic::int32);
  EXPECT_TRUE(sobel.separable);
  const Arithmetic laplacian = choose_arithmetic(library_filter("laplacian", 3), OutputType::u8);
  EXPECT_EQ(laplacian.kind, StreamArithmetic::int32);
  EXPECT_FALSE(laplacian.separable);
  // Float output never takes an integer path.
  const Arithmetic f32 = choose_arithmetic(library_filter("gaussian", 5), OutputType::f32);
  EXPECT_EQ(f32.kind, StreamArithmetic::fp32);
}

// The library's Gaussians and random non-negative dyadic rank-1 kernels of every shift: each one
// admitted to the pairs path must fit its halves and give the correctly rounded result, on random
// windows and all-255 windows.
TEST(StreamingArithmetic, ThePairsNeverCarryAndRoundCorrectly) {
  std::mt19937 rng(20261129);
  std::vector<Filter> filters = {library_filter("gaussian", 3), library_filter("gaussian", 5)};
  for (int k : {3, 5})
    for (int shift = 1; shift <= 5; ++shift)
      for (int trial = 0; trial < 20; ++trial) {
        std::uniform_int_distribution<int> factor(0, (1 << shift) / 2);
        Filter f;
        f.type = "custom";
        f.size = k;
        f.separable = true;
        f.column.resize(k);
        f.row.resize(k);
        for (auto& w : f.column) w = std::ldexp(static_cast<float>(factor(rng)), -shift);
        for (auto& w : f.row) w = std::ldexp(static_cast<float>(factor(rng)), -shift);
        f.column[k / 2] = f.row[k / 2] = std::ldexp(1.0f, -1);  // no zero factor
        f.weights.resize(static_cast<size_t>(k) * k);
        for (int ky = 0; ky < k; ++ky)
          for (int kx = 0; kx < k; ++kx) f.weights[ky * k + kx] = f.column[ky] * f.row[kx];
        filters.push_back(f);
      }

  int admitted = 0;
  std::uniform_int_distribution<int> byte(0, 255);
  for (const Filter& f : filters) {
    const Arithmetic a = choose_arithmetic(f, OutputType::u8);
    if (a.kind != StreamArithmetic::int16_pairs) continue;
    ++admitted;
    const int k = f.size;
    std::vector<std::vector<int>> windows = {std::vector<int>(k * k, 255),
                                             std::vector<int>(k * k, 0)};
    for (int w = 0; w < 2000; ++w) {
      std::vector<int> window(k * k);
      for (int& v : window) v = byte(rng);
      windows.push_back(window);
    }
    for (const auto& window : windows) {
      const Replayed r = replay_pairs(a, k, window);
      ASSERT_FALSE(r.carried) << "K=" << k;
      ASSERT_EQ(r.value, static_cast<int>(std::floor(exact_sum(f, window) + 0.5))) << "K=" << k;
    }
  }
  std::printf("[   INFO   ] %d of %zu kernels on the pairs path\n", admitted, filters.size());
  EXPECT_GT(admitted, 20);
}

}  // namespace
}  // namespace convlab
