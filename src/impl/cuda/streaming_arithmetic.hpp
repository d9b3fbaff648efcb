// How rung 8 (cuda_streaming) computes a point: separable or direct, which arithmetic, and the
// weights in the layout of the kernel's taps. Host code, compiled with or without nvcc, so that the
// choice is tested on any machine (tests/test_streaming_arithmetic.cpp); the kernels are in
// streaming_kernel.cuh.
#pragma once

#include <vector>

#include "core/filter.hpp"
#include "impl/cuda/device_calls.hpp"

namespace convlab::cuda::streaming {

constexpr int kMaxDirectK = 7;      // K x 16 accumulators + a 16 + 2 r C window of values
constexpr int kMaxSeparableK = 11;  // K x 8 accumulators from K = 9
constexpr int kMaxTaps = kMaxDirectK * kMaxDirectK;

// Which arithmetic a point uses.
enum class StreamArithmetic {
  fp32,        // any kernel; u8 or f32 output
  int32,       // dyadic kernels up to K = kMaxInt32K, u8 output
  int16_pairs  // dyadic rank-1 kernels, non-negative, 16-bit sums, up to K = kMaxPairsK, u8
};
constexpr int kMaxInt32K = 3;
// Beyond K = 5 no OpenCV Gaussian's sums fit 16 bits (K = 7 needs 20).
constexpr int kMaxPairsK = 5;

struct Arithmetic {
  bool separable = false;
  StreamArithmetic kind = StreamArithmetic::fp32;
  int shift = 0;  // integer paths: the weights are integers over 2^shift
  std::vector<float> float_taps = std::vector<float>(kMaxTaps, 0.0f);
  std::vector<int> int_taps = std::vector<int>(kMaxTaps, 0);
};

bool rank1(const ProblemDesc& p);
Arithmetic choose_arithmetic(const ProblemDesc& p);
// The same for a filter alone (the choice depends on its weights and the output type only).
Arithmetic choose_arithmetic(const Filter& filter, OutputType output);

}  // namespace convlab::cuda::streaming
