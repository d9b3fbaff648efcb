// A float copy of the input with the horizontal border already applied: row y holds
// (width + 2r) * channels values, where column x + r is input column x and the r columns on each
// side come from the border rule. With it, tap kx of a whole output row is one contiguous,
// branch-free multiply-add over width * channels floats, which compilers vectorise.
#pragma once

#include <algorithm>
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
    for (int px = -radius_; px < image_.width + radius_; ++px) {
      const int sx = map_border_index(px, image_.width, border);
      for (int k = 0; k < c; ++k)
        row[(px + radius_) * c + k] =
            sx == kOutsideImage ? 0.f : static_cast<float>(source[sx * c + k]);
    }
  }
  const float* row(int y) const { return &values_[static_cast<size_t>(y) * stride_]; }
  int stride() const { return stride_; }

 private:
  const Image& image_;
  int radius_;
  int stride_;
  std::vector<float> values_;
};

// acc[i] += weight * source[i]: the one inner loop of the row-based CPU implementations,
// contiguous and branch-free so the compiler vectorises it.
inline void multiply_add_row(float* __restrict acc, const float* __restrict source, float weight,
                             int count) {
  for (int i = 0; i < count; ++i) acc[i] += weight * source[i];
}

// Output row y of a vertical pass: for each tap row ky whose source row sy exists under the
// border rule, add_tap_row(acc, ky, sy) accumulates into acc (a thread's scratch row); then the
// row is stored. Taps are visited in ky order, as the naive loops do.
template <typename AddTapRow>
void accumulate_output_row(const Problem& problem, int y, std::vector<float>& acc, HostOutput& out,
                           AddTapRow add_tap_row) {
  std::fill(acc.begin(), acc.end(), 0.f);
  const int r = problem.filter.radius();
  for (int ky = 0; ky < problem.filter.size; ++ky) {
    const int sy = map_border_index(y + ky - r, problem.input.height, problem.border);
    if (sy != kOutsideImage) add_tap_row(acc.data(), ky, sy);
  }
  const size_t base = static_cast<size_t>(y) * acc.size();
  for (size_t i = 0; i < acc.size(); ++i) out.store(base + i, acc[i]);
}

}  // namespace convlab
