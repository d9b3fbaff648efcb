// What the ring-buffer rungs (cpu_fused, cpu_direct) share: a thread filters horizontal strips of
// output rows and walks each in column tiles; an input row segment enters the tile's small ring of
// lines as floats, with the horizontal border already applied, so every tap of the hot loops is a
// contiguous, branch-free vector load. Nothing image-sized is allocated besides the output.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/border.hpp"
#include "impl/cpu_output.hpp"
#include "impl/float_lanes.hpp"
#include "impl/implementation.hpp"
#include "impl/word_lanes.hpp"

namespace convlab {

// Output rows [begin, end) of strip `index` of `count`: contiguous, sizes differing by at most 1.
struct RowRange {
  int begin = 0;
  int end = 0;
};

inline RowRange strip_of(int index, int count, int height) {
  const long long h = height;
  return {static_cast<int>(h * index / count), static_cast<int>(h * (index + 1) / count)};
}

// The axes of the ring-buffer rungs.
inline std::vector<AxisSpec> strip_axes() {
  return {
      {"threads",
       AxisKind::integer,
       "OpenMP threads; strips of rows are handed out one at a time",
       1,
       {},
       1,
       1024},
      {"tile",
       AxisKind::integer,
       "pixels per column tile (0: as wide as the ring fits L2)",
       0,
       {},
       0,
       1 << 20},
      {"strips",
       AxisKind::integer,
       "horizontal strips the threads share (0: one for one thread, otherwise up to four per "
       "thread, none lower than 8K rows)",
       0,
       {},
       0,
       1 << 20},
      {"stream",
       AxisKind::choice,
       "output written around the caches: auto (when larger than the last-level cache), always, "
       "never",
       "auto",
       {"auto", "always", "never"},
       0,
       0},
  };
}

// How many strips `threads` threads share (handed out one at a time, so a thread whose core is
// busy with something else takes fewer). `requested` > 0 fixes the count (at most one per row);
// otherwise one for one thread, else up to four per thread but no strip lower than 8K rows, since
// each strip converts and row-filters the K - 1 rows around it again.
inline int strip_count(int threads, int height, int k, int requested) {
  if (requested > 0) return std::min(requested, height);
  if (threads <= 1) return 1;
  return std::max(1, std::min({threads * 4, std::max(threads, height / (8 * k)), height}));
}

// Pixels [begin, end) of a row, one column tile.
struct ColumnTile {
  int begin = 0;
  int end = 0;
};

// Splits `width` pixels into tiles of at most `max_pixels` (rounded to whole vectors of values
// where possible), of nearly equal size so no thin last tile pays the halo for little work.
inline std::vector<ColumnTile> column_tiles(int width, int max_pixels) {
  max_pixels = std::max(1, std::min(max_pixels, width));
  const int count = (width + max_pixels - 1) / max_pixels;
  std::vector<ColumnTile> tiles;
  for (int i = 0; i < count; ++i) {
    const long long w = width;
    tiles.push_back({static_cast<int>(w * i / count), static_cast<int>(w * (i + 1) / count)});
  }
  return tiles;
}

// Widest tile whose `lines` lines of `channels` values per pixel, `value_bytes` each (4 for float
// rings, 2 for 16-bit ones), fit `budget_bytes` (the ring stays in the core's L2 while the strip
// streams through it), at least 64 pixels.
inline int tile_pixels_for(int lines, int channels, size_t budget_bytes,
                           size_t value_bytes = sizeof(float)) {
  const size_t per_pixel = static_cast<size_t>(lines) * channels * value_bytes;
  return std::max<int>(64, static_cast<int>(budget_bytes / per_pixel));
}

// n input bytes widened to the ring's value type, whole vectors first.
inline void widen(const std::uint8_t* src, float* dst, int n) {
  int i = 0;
  for (; i + lanes::kWidth <= n; i += lanes::kWidth) lanes::store(dst + i, lanes::load_u8(src + i));
  for (; i < n; ++i) dst[i] = static_cast<float>(src[i]);
}

inline void widen(const std::uint8_t* src, float* dst, int n, int shift) {
  (void)shift;  // floats take bytes as they are
  widen(src, dst, n);
}

// To words shifted left by `shift` bits (fixed-point arithmetic takes bytes in units of 2^-8).
inline void widen(const std::uint8_t* src, std::uint16_t* dst, int n, int shift) {
  int i = 0;
  for (; i + lanes::kWordWidth <= n; i += lanes::kWordWidth)
    lanes::store(dst + i, lanes::load_u8_words(src + i) << shift);
  for (; i < n; ++i) dst[i] = static_cast<std::uint16_t>(src[i] << shift);
}

// Bytes as they are (cpu_fused's K = 3 path widens them itself).
inline void widen(const std::uint8_t* src, std::uint8_t* dst, int n, int shift) {
  (void)shift;
  std::memcpy(dst, src, n);
}

// Converts input row `y`, pixels [first, first + count) -- which may reach outside the image by
// any amount -- to values at `out` (count * channels of them, float or 16-bit), mapping outside
// pixels through the border rule (0 for the zero border). 16-bit values are shifted left by
// `shift` bits.
template <typename Value>
void convert_row_segment(const Image& in, int y, int first, int count, Border border, Value* out,
                         int shift = 0) {
  const int c = in.channels;
  const std::uint8_t* row = &in.pixels[static_cast<size_t>(y) * in.width * c];
  const int inside_begin = std::clamp(first, 0, in.width);
  const int inside_end = std::clamp(first + count, 0, in.width);
  auto outside_pixel = [&](int p) {
    const int sx = map_border_index(p, in.width, border);
    Value* dst = out + static_cast<size_t>(p - first) * c;
    for (int k = 0; k < c; ++k)
      dst[k] = sx == kOutsideImage ? Value(0) : Value(row[sx * c + k] << shift);
  };
  for (int p = first; p < std::min(inside_begin, first + count); ++p) outside_pixel(p);
  if (inside_begin < inside_end)
    widen(row + static_cast<size_t>(inside_begin) * c,
          out + static_cast<size_t>(inside_begin - first) * c, (inside_end - inside_begin) * c,
          shift);
  for (int p = std::max(inside_end, first); p < first + count; ++p) outside_pixel(p);
}

// Stores Vectors sums (Vectors * kWidth values) at value `index` of the output, as u8 or f32; only
// the first `count` when the block reaches past the end of its row. Callers end with
// lanes::stream_fence().
template <int Vectors>
__attribute__((always_inline)) inline void store_sums(HostOutput& out, size_t index,
                                                      const lanes::Floats* sums, int count) {
  constexpr int kValues = Vectors * lanes::kWidth;
  if (count == kValues) {
    // Written once and not read back by the rung: streamed past the caches when it is too large
    // to stay in them anyway (HostOutput::set_streaming).
    if (out.type() == OutputType::u8)
      for (int b = 0; b < Vectors; ++b)
        lanes::store_u8(out.u8_data() + index + b * lanes::kWidth, sums[b], out.streaming());
    else
      for (int b = 0; b < Vectors; ++b)
        lanes::store(out.f32_data() + index + b * lanes::kWidth, sums[b], out.streaming());
    return;
  }
  alignas(64) float values[kValues];
  for (int b = 0; b < Vectors; ++b) lanes::store(values + b * lanes::kWidth, sums[b]);
  out.store_row(index, values, count);
}

// Runs filter(strip, tile, thread) for every column tile of every strip. Each (strip, tile) pair
// is one unit of work, handed out one at a time to `threads` OpenMP threads: with several tiles
// per row that is many more units than strips (strip_count) at no extra halo, so a core that runs
// slower under load (a shared physical core, a lower clock) simply takes fewer units and the team
// finishes together. `thread` indexes per-thread scratch; units write disjoint output pixels.
template <class FilterTile>
void for_each_strip(int threads, int strips_requested, int height, int k,
                    const std::vector<ColumnTile>& tiles, FilterTile filter) {
  const int strips = strip_count(threads, height, k, strips_requested);
  const int units = strips * static_cast<int>(tiles.size());
#pragma omp parallel num_threads(threads)
  {
    const int thread = omp_get_thread_num();
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < units; ++i) {
      const int t = i % static_cast<int>(tiles.size());
      filter(strip_of(i / static_cast<int>(tiles.size()), strips, height), tiles[t], thread);
    }
    lanes::stream_fence();
  }
}

inline int widest_tile(const std::vector<ColumnTile>& tiles) {
  int widest = 0;
  for (const ColumnTile& t : tiles) widest = std::max(widest, t.end - t.begin);
  return widest;
}

// Asks the cache for pixels [first, first + count) of input row y (clamped to the image) ahead of
// their conversion, one request per cache line.
inline void prefetch_row_segment(const Image& in, int y, int first, int count) {
  if (y < 0 || y >= in.height) return;
  const int begin = std::clamp(first, 0, in.width), end = std::clamp(first + count, 0, in.width);
  const std::uint8_t* row = &in.pixels[static_cast<size_t>(y) * in.width * in.channels];
  for (size_t i = static_cast<size_t>(begin) * in.channels;
       i < static_cast<size_t>(end) * in.channels; i += 64)
    __builtin_prefetch(row + i);
}

// Asks the cache for `count` output values from value `index` on, for writing (one request per
// cache line), so the stores of the next sweep find their lines. Not when the output is streamed.
inline void prefetch_output(const HostOutput& out, size_t index, int count) {
  if (out.streaming()) return;
  const bool u8 = out.type() == OutputType::u8;
  const char* first = u8 ? reinterpret_cast<const char*>(out.view().u8() + index)
                         : reinterpret_cast<const char*>(out.view().f32() + index);
  const size_t bytes = static_cast<size_t>(count) * (u8 ? 1 : sizeof(float));
  for (size_t b = 0; b < bytes; b += 64) __builtin_prefetch(first + b, 1);
}

}  // namespace convlab
