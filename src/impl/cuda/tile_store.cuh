// The output side of the rungs that assemble a tile in shared memory (5 register-blocked, 7
// tensor cores): the conversion of a float sum to the output type, and the copy of a finished tile
// (rows of tile_w * C interleaved values) to the image as 16-byte vectors.
#pragma once

#include <cstdint>

namespace convlab::cuda {

// u8: round half up, then clamp, as store_output in kernel_plan.cuh and the CPU reference.
__device__ __forceinline__ std::uint8_t to_output(float sum, std::uint8_t*) {
  return static_cast<std::uint8_t>(fminf(fmaxf(floorf(sum + 0.5f), 0.0f), 255.0f));
}
__device__ __forceinline__ float to_output(float sum, float*) {
  return sum;
}

// Copies the finished tile (rows of tile_w * C values, interleaved) to the image: 16-byte vectors
// where source and destination are aligned alike, single values elsewhere. One warp per row.
template <typename OutT>
__device__ void write_tile(const OutT* tile, OutT* out, int width, int height, int channels,
                           int x0, int y0, int tile_w, int tile_h) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int warps = blockDim.x >> 5;
  const int rows = min(tile_h, height - y0);
  const int values = min(tile_w, width - x0) * channels;
  constexpr int kPerVector = 16 / static_cast<int>(sizeof(OutT));
  for (int r = warp; r < rows; r += warps) {
    const OutT* src = tile + static_cast<size_t>(r) * tile_w * channels;
    OutT* dst = out + (static_cast<size_t>(y0 + r) * width + x0) * channels;
    const bool aligned = (reinterpret_cast<std::uintptr_t>(dst) % 16) == 0 &&
                         (reinterpret_cast<std::uintptr_t>(src) % 16) == 0;
    int done = 0;
    if (aligned) {
      const int vectors = values / kPerVector;
      for (int v = lane; v < vectors; v += 32)
        reinterpret_cast<uint4*>(dst)[v] = reinterpret_cast<const uint4*>(src)[v];
      done = vectors * kPerVector;
    }
    for (int v = done + lane; v < values; v += 32) dst[v] = src[v];
  }
}

}  // namespace convlab::cuda
