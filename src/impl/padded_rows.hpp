// A float copy of the input with the horizontal border already applied: row y holds
// (width + 2r) * channels values, where column x + r is input column x and the r columns on each
// side come from the border rule. With it, tap kx of a whole output row is one contiguous,
// branch-free multiply-add over width * channels floats, which compilers vectorise.
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/border.hpp"
#include "impl/cpu_output.hpp"
#include "impl/implementation.hpp"

namespace convlab {

class PaddedRows {
 public:
  PaddedRows(const Image& image, int radius)
      : image_(image),
        radius_(radius),
        stride_((image.width + 2 * radius) * image.channels),
        values_(static_cast<size_t>(stride_) * image.height) {}

  // Converts row y (call once per row per computation; rows are independent, so threads may
  // fill different rows concurrently).
  void fill_row(int y, Border border) {
    const int c = image_.channels;
    const std::uint8_t* source = &image_.pixels[static_cast<size_t>(y) * image_.width * c];
    float* row = &values_[static_cast<size_t>(y) * stride_];
    float* interior = row + radius_ * c;
    for (int i = 0; i < image_.width * c; ++i) interior[i] = static_cast<float>(source[i]);
    auto fill_border_pixel = [&](int px) {
      const int sx = map_border_index(px, image_.width, border);
      for (int k = 0; k < c; ++k)
        row[(px + radius_) * c + k] =
            sx == kOutsideImage ? 0.f : static_cast<float>(source[sx * c + k]);
    };
    for (int px = -radius_; px < 0; ++px) fill_border_pixel(px);
    for (int px = image_.width; px < image_.width + radius_; ++px) fill_border_pixel(px);
  }
  const float* row(int y) const { return &values_[static_cast<size_t>(y) * stride_]; }
  int stride() const { return stride_; }

 private:
  const Image& image_;
  int radius_;
  int stride_;
  std::vector<float> values_;
};

// One term of a weighted sum of rows: weight * source[i].
struct Tap {
  const float* source;
  float weight;
};

// Values of a row summed together, their sums held in vector registers across all taps: 8 vectors
// of 8 floats (eight AVX2 or, paired, four AVX-512 registers) leave registers for the loads.
// GCC/Clang vector types make the register blocking explicit instead of hoping the optimiser
// keeps a local array out of memory.
using Float8 = float __attribute__((vector_size(32)));
constexpr int kVectorsPerBlock = 8;
constexpr int kBlockValues = kVectorsPerBlock * 8;

inline Float8 load_float8(const float* p) {
  Float8 v;
  std::memcpy(&v, p, sizeof v);  // an unaligned vector load
  return v;
}

inline void sum_taps_full_block(float* out, const std::vector<Tap>& taps, int offset) {
  Float8 acc[kVectorsPerBlock] = {};
  for (const Tap& tap : taps) {
    const float* s = tap.source + offset;
    const Float8 w = Float8{} + tap.weight;
    for (int b = 0; b < kVectorsPerBlock; ++b) acc[b] += w * load_float8(s + 8 * b);
  }
  std::memcpy(out, acc, sizeof acc);
}

inline void sum_taps_partial_block(float* out, const std::vector<Tap>& taps, int offset, int n) {
  std::fill(out, out + n, 0.f);
  for (const Tap& tap : taps)
    for (int j = 0; j < n; ++j) out[j] += tap.weight * tap.source[offset + j];
}

// result[i] = sum over taps, in order, of tap.weight * tap.source[i], for i < count; each block of
// finished sums is handed to store(start, sums, n). Each tap costs one contiguous, branch-free
// load and multiply-add per value, which the compiler vectorises, and the sums never leave
// registers between taps.
template <typename Store>
void weighted_row_sum(const std::vector<Tap>& taps, int count, Store store) {
  for (int start = 0; start < count; start += kBlockValues) {
    alignas(64) float sums[kBlockValues];
    const int n = std::min(kBlockValues, count - start);
    if (n == kBlockValues)
      sum_taps_full_block(sums, taps, start);
    else
      sum_taps_partial_block(sums, taps, start, n);
    store(start, sums, n);
  }
}

// The input row that tap row ky of output row y reads under the border rule, or kOutsideImage.
inline int source_row(const Problem& problem, int y, int ky) {
  return map_border_index(y + ky - problem.filter.radius(), problem.input.height, problem.border);
}

}  // namespace convlab
