// Staging of interleaved u8 input rows into shared memory as planar float (or half), shared by the
// rungs that compute one channel per thread or warp (5 register-blocked, 6 fused separable, 7
// tensor cores).
//
// A staged row covers `span` pixels starting at image column `left`, for every channel: plane c
// holds channel c, row sy of the footprint at `sy * pitch`, pixel sx at `sx`. Each warp stages
// whole rows (rows strided over the block's warps), its lanes striding over the row's bytes, so no
// thread divides by the row length.
//
// Two phases. The span of a row that lies inside the image is contiguous bytes of the interleaved
// image: it is copied to shared memory asynchronously (cp.async, 16 bytes per lane and
// instruction, nothing held in registers, so every warp can have all its rows in flight at once:
// what keeps DRAM busy). Once the copies have landed, the bytes are converted to planar float (or
// half) from shared memory. A tile at the left or right border maps each column by the border rule
// and reads it from global memory in the second phase; rows outside the image are mapped by the
// border rule too, or are 0 for the zero border.
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

// A byte value as a float, exactly, with an OR and an add (as byte_to_float).
__device__ __forceinline__ float u8_to_float(std::uint8_t b) {
  return __uint_as_float(0x4B000000u | b) - 8388608.0f;
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

// Where footprint rows come from: the image (or one channel plane of it) in device memory.
// `end` bounds the asynchronous copies, which read whole 16-byte chunks.
struct RowSource {
  const std::uint8_t* in;
  const std::uint8_t* end;
  int width;
  int height;
  Border border;
};

// Raw copies of footprint rows in shared memory: row sy at sy * pitch (a multiple of 16), holding
// the 16-byte chunks that cover the row's bytes; the row's first byte sits at its address
// modulo 16.
struct RawRows {
  std::uint8_t* data;
  int pitch;
};

__host__ __device__ constexpr int raw_row_pitch(int span, int channels) {
  return (span * channels + 15 + 15) / 16 * 16;
}

// One 16-byte asynchronous copy from global to shared memory (both 16-byte aligned).
__device__ __forceinline__ void copy16_async(std::uint8_t* dst, const std::uint8_t* src) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(address), "l"(src));
}
__device__ __forceinline__ void commit_async_copies() {
  asm volatile("cp.async.commit_group;\n" ::);
}
// Waits until at most `Pending` committed groups of this thread are still in flight.
template <int Pending>
__device__ __forceinline__ void wait_async_copies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending));
}

__device__ __forceinline__ bool columns_inside(const RowSource& src, int left, int span) {
  return left >= 0 && left + span <= src.width;
}

__device__ __forceinline__ const std::uint8_t* row_start(const RowSource& src, int gy, int left,
                                                         int channels) {
  return src.in + (static_cast<size_t>(gy) * src.width + left) * channels;
}

// How the block's threads cover a grid of `rows` x `columns` items: each thread keeps one column
// and strides over rows, so the division that places it happens once, not per item, and the
// per-row setup (border mapping, addresses) is shared by the lanes of the row.
struct RowColumnCover {
  int column, column_step, row, row_step;
  __device__ explicit RowColumnCover(int columns) {
    const int threads = static_cast<int>(blockDim.x);
    const int t = static_cast<int>(threadIdx.x);
    if (columns <= threads) {
      row_step = threads / columns;
      column = t % columns;
      row = t / columns;
      column_step = columns;
      if (row >= row_step) row = 1 << 30;  // the threads past the last full row of items idle
    } else {
      column = t;
      column_step = threads;
      row = 0;
      row_step = 1;
    }
  }
};

// Byte offset of footprint row gy's first byte within its 16-byte chunk.
__device__ __forceinline__ int chunk_offset(const RowSource& src, int gy, int left, int channels) {
  return static_cast<int>(reinterpret_cast<std::uintptr_t>(row_start(src, gy, left, channels)) &
                          15);
}

// Phase 1: starts asynchronous 16-byte copies (cp.async, no registers, many in flight) of the
// footprint rows [0, rows) = image rows first_row + sy (border-mapped), columns [left, left +
// span), when those columns lie inside the image; a tile at the left or right border is read in
// phase 2 instead. Every row copies raw.pitch / 16 chunks from its first byte's chunk on (the
// bytes past the span are never read); a chunk past the end of the buffer is not copied, one that
// crosses it is filled with zeros. Commits one group per thread.
template <int C>
__device__ void copy_rows_async(const RawRows& raw, const RowSource& src, int first_row, int rows,
                                int left, int span) {
  if (columns_inside(src, left, span)) {
    const int chunks = raw.pitch / 16;
    const RowColumnCover cover(chunks);
    for (int sy = cover.row; sy < rows; sy += cover.row_step) {
      const int gy = map_border_index(first_row + sy, src.height, src.border);
      if (gy == kOutsideImage) continue;
      const std::uint8_t* first = row_start(src, gy, left, C);
      const std::uint8_t* aligned = first - (reinterpret_cast<std::uintptr_t>(first) & 15);
      for (int k = cover.column; k < chunks; k += cover.column_step) {
        const std::uint8_t* from = aligned + 16 * k;
        std::uint8_t* to = raw.data + sy * raw.pitch + 16 * k;
        const long long in_buffer = src.end - from;
        if (in_buffer >= 16) {
          copy16_async(to, from);
        } else {
          // The chunk that crosses the end of the buffer: byte by byte, never reading past it.
          for (int b = 0; b < in_buffer; ++b) to[b] = from[b];
        }
      }
    }
  }
  commit_async_copies();
}

// Phase 2, after the copies are complete and visible (wait, then __syncthreads): converts the raw
// rows into the planar footprint, one pixel (its C bytes) per item; rows outside the image are 0
// for the zero border; tiles at a left or right border map each column from global memory.
template <int C, typename T>
__device__ void convert_rows(const Planar<T>& dst, const RawRows& raw, const RowSource& src,
                             int first_row, int rows, int left, int span) {
  const bool inside = columns_inside(src, left, span);
  const RowColumnCover cover(span);
  for (int sy = cover.row; sy < rows; sy += cover.row_step) {
    const int gy = map_border_index(first_row + sy, src.height, src.border);
    T* out = dst.data + sy * dst.pitch;
    const std::uint8_t* bytes = raw.data + sy * raw.pitch;
    const std::uint8_t* row = src.in + static_cast<size_t>(gy < 0 ? 0 : gy) * src.width * C;
    const int offset = inside && gy >= 0 ? chunk_offset(src, gy, left, C) : 0;
    for (int p = cover.column; p < span; p += cover.column_step) {
      int gx = p;  // where the pixel's bytes are: raw row (inside) or image row (border tile)
      if (!inside) gx = map_border_index(left + p, src.width, src.border);
#pragma unroll
      for (int c = 0; c < C; ++c) {
        float v = 0.0f;
        if (gy != kOutsideImage && gx != kOutsideImage)
          v = inside ? u8_to_float(bytes[offset + p * C + c]) : static_cast<float>(row[gx * C + c]);
        assign(out[c * dst.plane_stride + p], v);
      }
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
