// A float copy of the input with the horizontal border already applied: row y holds
// (width + 2r) * channels values, where column x + r is input column x and the r columns on each
// side come from the border rule. With it, tap kx of a whole output row is one contiguous,
// branch-free multiply-add over width * channels floats, which compilers vectorise.
#pragma once

#include <vector>

#include "core/border.hpp"
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

}  // namespace convlab
