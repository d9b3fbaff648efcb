// What the ring-buffer rungs (cpu_fused, cpu_direct) share: a thread walks down column tiles of
// the image (TileWalks); an input row segment enters the thread's small ring of lines as floats,
// with the horizontal border already applied, so every tap of the hot loops is a contiguous,
// branch-free vector load. Nothing image-sized is allocated besides the output.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/border.hpp"
#include "impl/cpu_output.hpp"
#include "impl/float_lanes.hpp"
#include "impl/implementation.hpp"
#include "impl/word_lanes.hpp"

namespace convlab {

// Output rows [begin, end).
struct RowRange {
  int begin = 0;
  int end = 0;
};

// The axes of the ring-buffer rungs.
inline std::vector<AxisSpec> strip_axes() {
  return {
      {"threads",
       AxisKind::integer,
       "OpenMP threads; they walk down column tiles and steal half a walk when done",
       1,
       {},
       1,
       1024},
      {"tile",
       AxisKind::integer,
       "pixels per column tile (0: as wide as the ring fits L2, at least one tile per thread)",
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

// Widest tile whose `lines` float lines of `channels` values per pixel fit `budget_bytes` (the
// ring stays in the core's L2 while the tile's rows stream through it), at least 64 pixels.
inline int tile_pixels_for(int lines, int channels, size_t budget_bytes) {
  const size_t per_pixel = static_cast<size_t>(lines) * channels * sizeof(float);
  return std::max<int>(64, static_cast<int>(budget_bytes / per_pixel));
}

// n input bytes widened to the ring's value type, whole vectors first.
inline void widen(const std::uint8_t* src, float* dst, int n) {
  int i = 0;
  for (; i + lanes::kWidth <= n; i += lanes::kWidth) lanes::store(dst + i, lanes::load_u8(src + i));
  for (; i < n; ++i) dst[i] = static_cast<float>(src[i]);
}

inline void widen(const std::uint8_t* src, std::uint16_t* dst, int n) {
  int i = 0;
  for (; i + lanes::kWordWidth <= n; i += lanes::kWordWidth)
    lanes::store(dst + i, lanes::load_u8_words(src + i));
  for (; i < n; ++i) dst[i] = src[i];
}

// Converts input row `y`, pixels [first, first + count) -- which may reach outside the image by
// any amount -- to values at `out` (count * channels of them, float or 16-bit), mapping outside
// pixels through the border rule (0 for the zero border).
template <typename Value>
void convert_row_segment(const Image& in, int y, int first, int count, Border border, Value* out) {
  const int c = in.channels;
  const std::uint8_t* row = &in.pixels[static_cast<size_t>(y) * in.width * c];
  const int inside_begin = std::clamp(first, 0, in.width);
  const int inside_end = std::clamp(first + count, 0, in.width);
  auto outside_pixel = [&](int p) {
    const int sx = map_border_index(p, in.width, border);
    Value* dst = out + static_cast<size_t>(p - first) * c;
    for (int k = 0; k < c; ++k) dst[k] = sx == kOutsideImage ? Value(0) : Value(row[sx * c + k]);
  };
  for (int p = first; p < std::min(inside_begin, first + count); ++p) outside_pixel(p);
  if (inside_begin < inside_end)
    widen(row + static_cast<size_t>(inside_begin) * c,
          out + static_cast<size_t>(inside_begin - first) * c, (inside_end - inside_begin) * c);
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

// Hands out the work of a ring-buffer rung: runs of output rows of one column tile. A thread walks
// down a column tile in chunks of kChunkRows rows, and each chunk that starts where its previous
// one ended in the same tile continues the thread's ring, so no input row is filtered twice. Work
// is balanced by stealing rather than by cutting the image into many strips (each strip would
// re-filter the K - 1 rows around its edges): a thread whose tiles are done takes a whole tile no
// one has started, or else the lower half of the walk with the most rows left. Slow cores (a busy
// or shared core, a lower clock under load) thus give work away instead of holding up the team,
// and only a steal costs a ring refill. A mutex guards the walks: one short critical section per
// chunk of kChunkRows x tile width pixels.
class TileWalks {
 public:
  static constexpr int kChunkRows = 32;  // rows claimed at a time: multiple of the 4-row sweep

  TileWalks(int threads, int height, int tiles) : walks_(threads), height_(height), tiles_(tiles) {}

  // The next rows for `thread`: false when nothing is left. `continues`: the thread's previous
  // chunk ended at rows.begin in the same tile, so its ring already holds the rows above.
  bool next(int thread, int& tile, RowRange& rows, bool& continues) {
    const std::lock_guard<std::mutex> lock(mutex_);
    Walk& w = walks_[thread];
    if (w.next >= w.end && !refill(w)) return false;
    tile = w.tile;
    rows = {w.next, std::min(w.next + kChunkRows, w.end)};
    continues = w.tile == w.last_tile && rows.begin == w.last_end;
    w.next = w.last_end = rows.end;
    w.last_tile = w.tile;
    return true;
  }

 private:
  struct Walk {
    int tile = -1, next = 0, end = 0;   // rows [next, end) of `tile` still to do
    int last_tile = -1, last_end = -1;  // where the thread's ring stands
  };

  // A tile no one has started, else the lower half of the longest walk left.
  bool refill(Walk& w) {
    if (next_fresh_tile_ < tiles_) {
      w.tile = next_fresh_tile_++;
      w.next = 0;
      w.end = height_;
      return true;
    }
    Walk* victim = nullptr;
    for (Walk& v : walks_)
      if (!victim || v.end - v.next > victim->end - victim->next) victim = &v;
    const int left = victim->end - victim->next;
    if (left < 2 * kChunkRows) return false;  // its owner finishes it sooner than a refill would
    const int middle = victim->next + left / 2 / 4 * 4;
    w.tile = victim->tile;
    w.next = middle;
    w.end = victim->end;
    victim->end = middle;
    return true;
  }

  std::mutex mutex_;
  std::vector<Walk> walks_;
  int height_, tiles_;
  int next_fresh_tile_ = 0;
};

// Runs filter(rows, tile, thread, continues) over every row of every column tile, on `threads`
// OpenMP threads sharing the work through TileWalks; `thread` indexes per-thread scratch (its
// ring), `continues` says the thread's ring already holds the rows above `rows`. Calls write
// disjoint output pixels.
template <class FilterRows>
void for_each_tile_walk(int threads, int height, const std::vector<ColumnTile>& tiles,
                        FilterRows filter) {
  TileWalks walks(threads, height, static_cast<int>(tiles.size()));
#pragma omp parallel num_threads(threads)
  {
    const int thread = omp_get_thread_num();
    int tile = 0;
    RowRange rows;
    bool continues = false;
    while (walks.next(thread, tile, rows, continues)) filter(rows, tiles[tile], thread, continues);
    lanes::stream_fence();
  }
}

// Column tiles for `threads` threads: as wide as the ring fits L2 (`ring_pixels`), but at least
// one per thread so every thread starts on a walk of its own, unless tiles would get narrower
// than 8 r (the r pixels a tile re-reads on each side stay below 12% of its row work) or 64.
inline int tile_pixels_for_threads(int width, int threads, int radius, int ring_pixels) {
  const int per_thread = (width + threads - 1) / threads;
  return std::min(ring_pixels, std::max({per_thread, 8 * radius, 64}));
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
