// The per-pixel loop of the direct (non-tiled) variants k1_global and k2_constant, which differ
// only in where the coefficients come from: `weights(i)` returns coefficient i of the KxK matrix.
#pragma once

#include <cstdint>

#include "core/border.hpp"
#include "impl/cuda/kernel_plan.cuh"

namespace convlab::cuda {

// One thread computes all C channels of output pixel (x, y), reading the image straight from
// global memory (through L1). Pixels whose footprint lies inside the image take the fast path,
// with no border mapping; the rest map every row and column index through map_border_index.
template <int KT, int C, typename OutT, typename Weights>
__device__ __forceinline__ void direct_pixel(const std::uint8_t* __restrict__ in,
                                             OutT* __restrict__ out, int width, int height,
                                             int ksize_runtime, Border border, int x, int y,
                                             Weights weights) {
  const int K = KT > 0 ? KT : ksize_runtime;
  const int r = K / 2;
  float acc[C];
#pragma unroll
  for (int c = 0; c < C; ++c) acc[c] = 0.0f;

  const bool interior = x - r >= 0 && x + r < width && y - r >= 0 && y + r < height;
  if (interior) {
    const std::uint8_t* base = in + (static_cast<size_t>(y - r) * width + (x - r)) * C;
#pragma unroll
    for (int ky = 0; ky < K; ++ky) {
      const std::uint8_t* row = base + static_cast<size_t>(ky) * width * C;
#pragma unroll
      for (int kx = 0; kx < K; ++kx) {
        const float w = weights(ky * K + kx);
#pragma unroll
        for (int c = 0; c < C; ++c) acc[c] = fmaf(w, static_cast<float>(row[kx * C + c]), acc[c]);
      }
    }
  } else {
    for (int ky = 0; ky < K; ++ky) {
      const int sy = map_border_index(y + ky - r, height, border);
      if (sy == kOutsideImage) continue;
      const std::uint8_t* row = in + static_cast<size_t>(sy) * width * C;
      for (int kx = 0; kx < K; ++kx) {
        const int sx = map_border_index(x + kx - r, width, border);
        if (sx == kOutsideImage) continue;
        const float w = weights(ky * K + kx);
#pragma unroll
        for (int c = 0; c < C; ++c) acc[c] = fmaf(w, static_cast<float>(row[sx * C + c]), acc[c]);
      }
    }
  }
  const size_t o = (static_cast<size_t>(y) * width + x) * C;
#pragma unroll
  for (int c = 0; c < C; ++c) store_output(out, o + c, acc[c]);
}

}  // namespace convlab::cuda
