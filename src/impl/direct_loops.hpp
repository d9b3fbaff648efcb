// The seeds' straightforward convolution: for every output pixel, every channel, every tap, map
// the input coordinate through the border rule and accumulate in float. Shared by `sequential`
// (all rows) and `openmp` (rows split among threads), so both do exactly the same arithmetic and
// their u8 outputs are bit-identical.
#pragma once

#include "core/border.hpp"
#include "impl/cpu_output.hpp"

namespace convlab {

inline void direct_convolve_row(const Problem& problem, HostOutput& out, int y) {
  const Image& in = problem.input;
  const Filter& filter = problem.filter;
  const int r = filter.radius();
  const int channels = in.channels;
  for (int x = 0; x < in.width; ++x) {
    float sums[3] = {0.f, 0.f, 0.f};
    for (int ky = 0; ky < filter.size; ++ky) {
      const int sy = map_border_index(y + ky - r, in.height, problem.border);
      if (sy == kOutsideImage) continue;
      for (int kx = 0; kx < filter.size; ++kx) {
        const int sx = map_border_index(x + kx - r, in.width, problem.border);
        if (sx == kOutsideImage) continue;
        const float w = filter.at(ky, kx);
        const std::uint8_t* pixel =
            &in.pixels[(static_cast<size_t>(sy) * in.width + sx) * channels];
        for (int c = 0; c < channels; ++c) sums[c] += w * static_cast<float>(pixel[c]);
      }
    }
    const size_t base = (static_cast<size_t>(y) * in.width + x) * channels;
    for (int c = 0; c < channels; ++c) out.store(base + c, sums[c]);
  }
}

class DirectLoopsPoint : public PreparedPoint {
 public:
  explicit DirectLoopsPoint(const Problem& problem)
      : problem_(problem), out_(problem.output, problem.input.value_count()) {}
  OutputView output() const override { return out_.view(); }

 protected:
  Problem problem_;
  HostOutput out_;
};

}  // namespace convlab
