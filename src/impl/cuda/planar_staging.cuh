// Staging of interleaved u8 input rows into shared memory as planar float (or half), shared by the
// rungs that compute one channel per thread or warp (5 register-blocked, 6 fused separable, 7
// tensor cores).
//
// A staged row covers `span` pixels starting at image column `left`, for every channel: plane c
// holds channel c, row sy of the footprint at `sy * pitch`, pixel sx at `sx`. Each warp stages
// whole rows (rows strided over the block's warps), its lanes striding over the row's bytes, so no
// thread divides by the row length.
//
// Fast path (the span lies inside the image): the row's bytes are contiguous in the interleaved
// image; lanes read them as aligned 32-bit words (four values per load, coalesced) and only the
// partial words at either end byte by byte, never touching a byte outside the span. Slow path
// (a border tile): each value's column is mapped by the border rule. Rows outside the image are
// mapped by the border rule too, or filled with 0 for the zero border.
//
// Conversion: a byte b becomes the float 2^23 + b by placing it under the exponent bits of 2^23
// (one byte permute) and subtracting 2^23 (one add): exact, and cheaper than an integer-to-float
// conversion, which runs at a quarter of the FP32 rate.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

#include "core/border.hpp"

namespace convlab::cuda {

// Byte `index` (0..3) of `word` as a float, exactly.
__device__ __forceinline__ float byte_to_float(std::uint32_t word, int index) {
  const std::uint32_t selector = static_cast<std::uint32_t>(index) | 0x7440u;
  const std::uint32_t bits = __byte_perm(word, 0x4B000000u, selector);
  return __uint_as_float(bits) - 8388608.0f;
}

// Footprint geometry in shared memory: planes of rows of `pitch` elements (float or __half).
template <typename T>
struct Planar {
  T* data;
  int pitch;         // elements per row (rows start 16-byte aligned)
  int plane_stride;  // elements per plane
};
using PlanarFootprint = Planar<float>;

__device__ __forceinline__ void assign(float& dst, float v) {
  dst = v;
}
__device__ __forceinline__ void assign(__half& dst, float v) {
  dst = __float2half_rn(v);  // exact for 0..255
}

template <int C, typename T>
__device__ __forceinline__ void store_staged(const Planar<T>& dst, int sy, int value, float v) {
  const int sx = value / C;
  const int c = value - sx * C;
  assign(dst.data[c * dst.plane_stride + sy * dst.pitch + sx], v);
}

// One row inside the image in both directions: aligned words, partial words at the ends.
template <int C, typename T>
__device__ __forceinline__ void stage_inside_row(const Planar<T>& dst, int sy,
                                                 const std::uint8_t* first, int values,
                                                 int lane) {
  const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(first);
  const std::uintptr_t end = begin + static_cast<std::uintptr_t>(values);
  const std::uintptr_t aligned = begin & ~std::uintptr_t{3};
  const int words = static_cast<int>((end - aligned + 3) / 4);
  for (int w = lane; w < words; w += 32) {
    const std::uintptr_t address = aligned + 4 * static_cast<std::uintptr_t>(w);
    const int base = static_cast<int>(static_cast<std::intptr_t>(address - begin));
    if (address >= begin && address + 4 <= end) {
      const std::uint32_t word = *reinterpret_cast<const std::uint32_t*>(address);
#pragma unroll
      for (int b = 0; b < 4; ++b) store_staged<C, T>(dst, sy, base + b, byte_to_float(word, b));
    } else {
      for (int b = 0; b < 4; ++b) {
        const std::uintptr_t byte = address + b;
        if (byte < begin || byte >= end) continue;
        store_staged<C, T>(dst, sy, base + b, static_cast<float>(*reinterpret_cast<const std::uint8_t*>(byte)));
      }
    }
  }
}

// Stages footprint rows [0, rows) = image rows first_row + sy (border-mapped), columns
// [left, left + span) for all C channels. Called by every thread of the block; the caller
// synchronises afterwards.
template <int C, typename T>
__device__ void stage_rows_planar(const Planar<T>& dst, const std::uint8_t* __restrict__ in,
                                  int width, int height, int first_row, int rows, int left,
                                  int span, Border border) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int warps = blockDim.x >> 5;
  const int values = span * C;
  const bool columns_inside = left >= 0 && left + span <= width;
  for (int sy = warp; sy < rows; sy += warps) {
    const int gy = map_border_index(first_row + sy, height, border);
    if (gy == kOutsideImage) {
      for (int v = lane; v < values; v += 32) store_staged<C, T>(dst, sy, v, 0.0f);
      continue;
    }
    const std::uint8_t* row = in + static_cast<size_t>(gy) * width * C;
    if (columns_inside) {
      stage_inside_row<C, T>(dst, sy, row + static_cast<size_t>(left) * C, values, lane);
      continue;
    }
    for (int v = lane; v < values; v += 32) {
      const int sx = v / C;
      const int c = v - sx * C;
      const int gx = map_border_index(left + sx, width, border);
      store_staged<C, T>(dst, sy, v, gx == kOutsideImage ? 0.0f : static_cast<float>(row[gx * C + c]));
    }
  }
}

// Smallest multiple of 4 at least n.
__host__ __device__ constexpr int round_up4(int n) {
  return (n + 3) & ~3;
}

// A row pitch (floats) of at least `needed` floats, a multiple of 4 whose rows start 16 bytes
// apart modulo 32 bytes: two rows read by the same quarter-warp then fall into different bank
// groups.
__host__ __device__ constexpr int skewed_pitch(int needed) {
  const int p = round_up4(needed);
  return p % 8 == 0 ? p + 4 : p;
}

}  // namespace convlab::cuda
