// The output side of the rungs that assemble a tile in shared memory (5 register-blocked, 7
// tensor cores): the conversion of a float sum to the output type, and the copy of a finished tile
// (rows of tile_w * C interleaved values) to the image as 16-byte vectors.
#pragma once

#include <cstdint>

#include "impl/cuda/planar_staging.cuh"

namespace convlab::cuda {

// u8: round half up, then clamp, as store_output in kernel_plan.cuh and the CPU reference.
__device__ __forceinline__ std::uint8_t to_output(float sum, std::uint8_t*) {
  return static_cast<std::uint8_t>(fminf(fmaxf(floorf(sum + 0.5f), 0.0f), 255.0f));
}
__device__ __forceinline__ float to_output(float sum, float*) {
  return sum;
}

// Copies the finished tile (rows of tile_w * C values, interleaved) to the image: 16-byte vectors
// when every row starts 16-byte aligned in the image (the tile rows in shared memory are), single
// values otherwise. Each thread keeps one vector (or value) column and strides over the rows.
template <typename OutT>
__device__ void write_tile(const OutT* tile, OutT* out, int width, int height, int channels, int x0,
                           int y0, int tile_w, int tile_h) {
  const int rows = min(tile_h, height - y0);
  const int values = min(tile_w, width - x0) * channels;
  const int tile_values = tile_w * channels;
  constexpr int kPerVector = 16 / static_cast<int>(sizeof(OutT));
  OutT* first = out + (static_cast<size_t>(y0) * width + x0) * channels;
  const size_t image_row = static_cast<size_t>(width) * channels;
  const bool aligned = reinterpret_cast<std::uintptr_t>(first) % 16 == 0 &&
                       (image_row * sizeof(OutT)) % 16 == 0 && tile_values % kPerVector == 0;
  const int vectors = aligned ? values / kPerVector : 0;
  if (vectors > 0) {
    const RowColumnCover cover(vectors);
    for (int r = cover.row; r < rows; r += cover.row_step) {
      const uint4* src =
          reinterpret_cast<const uint4*>(tile + static_cast<size_t>(r) * tile_values);
      uint4* dst = reinterpret_cast<uint4*>(first + r * image_row);
      for (int v = cover.column; v < vectors; v += cover.column_step) dst[v] = src[v];
    }
  }
  const int rest = values - vectors * kPerVector;
  if (rest == 0) return;
  const RowColumnCover cover(rest);
  for (int r = cover.row; r < rows; r += cover.row_step)
    for (int v = cover.column; v < rest; v += cover.column_step) {
      const int i = vectors * kPerVector + v;
      first[r * image_row + i] = tile[static_cast<size_t>(r) * tile_values + i];
    }
}

}  // namespace convlab::cuda
