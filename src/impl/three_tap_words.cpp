#include "impl/three_tap_words.hpp"

#include <algorithm>
#include <cstring>

namespace convlab {
namespace {

using lanes::Words;
// Bytes per loaded vector: a vector of words read as byte pairs, split into its even and odd
// bytes (word_lanes.hpp), so one load feeds two vectors of 16-bit sums without a shuffle.
constexpr int kVectorBytes = static_cast<int>(sizeof(Words));
// Three blocks of row sums (two kept, one new), each an even and an odd half, and the loaded
// vectors stay in the registers: 3 vectors per block with 32 registers (AVX-512: 192 values; on
// the 2-core machine, one thread, RGB 2048^2, 2 vectors took 1.70-1.83 ms, 3 1.55-1.65 and 4
// 1.64-1.86), 1 with 16.
constexpr int kBlockVectors = lanes::kRegisters >= 32 ? 3 : 1;
constexpr int kBlockValues = kBlockVectors * kVectorBytes;

// Sums of one block: the values at even and at odd byte positions of each vector.
struct Block {
  Words even[kBlockVectors], odd[kBlockVectors];
};

// OpenCV's K = 3 Gaussian, [1 2 1] / 4 both ways: adds and shifts, no product, exact.
struct Binomial {
  static constexpr bool kFixedPoint = false;
  Words row(Words x0, Words x1, Words x2) const { return (x0 + x2) + (x1 + x1); }
  Words column(Words h0, Words h1, Words h2) const {
    return ((h0 + h2) + (h1 + h1) + 8) >> 4;  // 8: the rounding half of the shift by 4
  }
};

// Any other 16-bit form (word_weights.hpp): low-half products of integer weights (exact), or
// high-half products of weights in units of 2^-16 with bytes entering as x 2^8 (fixed point), as
// word_sum models them. The sums are of integers, so their order does not change them.
template <bool kHighHalf>
struct Products {
  static constexpr bool kFixedPoint = kHighHalf;
  Words a0, a1, a2, b0, b1, b2, row_start, column_start;
  int shift;
  explicit Products(const WordWeights& w)
      : a0(lanes::splat_word(w.row[0])),
        a1(lanes::splat_word(w.row[1])),
        a2(lanes::splat_word(w.row[2])),
        b0(lanes::splat_word(w.column[0])),
        b1(lanes::splat_word(w.column[1])),
        b2(lanes::splat_word(w.column[2])),
        row_start(lanes::splat_word(w.row_start)),
        column_start(lanes::splat_word(w.column_start)),
        shift(w.shift) {}
  static Words product(Words x, Words w) {
    if constexpr (kHighHalf)
      return lanes::mulhi(x, w);
    else
      return x * w;
  }
  Words row(Words x0, Words x1, Words x2) const {
    return row_start + product(x0, a0) + product(x1, a1) + product(x2, a2);
  }
  Words column(Words h0, Words h1, Words h2) const {
    return (column_start + product(h0, b0) + product(h1, b1) + product(h2, b2)) >> shift;
  }
};

// The even and odd bytes of a vector as the arithmetic takes them: as they are, or times 2^8
// for fixed point (one operation each way).
template <class A>
inline void split(Words v, Words& even, Words& odd) {
  if constexpr (A::kFixedPoint) {
    even = v << 8;
    odd = v & 0xFF00;
  } else {
    even = v & 0xFF;
    odd = v >> 8;
  }
}

// Row-filters one block from bytes at p (the image row, or a segment with the border applied):
// p - c .. p + kBlockValues + c - 1 must be readable; c is the channel count, the distance
// between horizontal neighbours. Loads at p - c and p + c split the same way give each even
// (odd) value its neighbours in the same lane.
template <class A>
inline void row_from_bytes(const A& a, const std::uint8_t* p, int c, Block& h) {
#pragma GCC unroll 4
  for (int b = 0; b < kBlockVectors; ++b) {
    const std::uint8_t* q = p + b * kVectorBytes;
    Words e0, o0, e1, o1, e2, o2;
    split<A>(lanes::load_byte_pairs(q - c), e0, o0);
    split<A>(lanes::load_byte_pairs(q), e1, o1);
    split<A>(lanes::load_byte_pairs(q + c), e2, o2);
    h.even[b] = a.row(e0, e1, e2);
    h.odd[b] = a.row(o0, o1, o2);
  }
}

template <class A>
inline void column_of(const A& a, const Block& h0, const Block& h1, const Block& h2, Block& o) {
#pragma GCC unroll 4
  for (int b = 0; b < kBlockVectors; ++b) {
    o.even[b] = a.column(h0.even[b], h1.even[b], h2.even[b]);
    o.odd[b] = a.column(h0.odd[b], h1.odd[b], h2.odd[b]);
  }
}

// Outputs (0..255 in every half) joined back into bytes in order.
inline void store_block(std::uint8_t* dst, const Block& o, bool stream) {
#pragma GCC unroll 4
  for (int b = 0; b < kBlockVectors; ++b)
    lanes::store_byte_pairs(dst + b * kVectorBytes, o.even[b] | (o.odd[b] << 8), stream);
}

inline void zero(Block& h) {
#pragma GCC unroll 4
  for (int b = 0; b < kBlockVectors; ++b) h.even[b] = h.odd[b] = Words{};
}

// The walk goes down the rows of a chunk, so each row of a block starts on cache lines the
// hardware has not yet been asked for (profiled: most of the time went to waiting for the first
// loads of each row). The lines of the same row for the next block are requested now, a whole
// chunk of rows before they are used; `left` values remain in the row from p.
inline void prefetch_next_block(const std::uint8_t* p, int left, bool for_writing) {
  for (int v = kBlockValues; v < std::min(2 * kBlockValues + 64, left); v += 64)
    __builtin_prefetch(p + v, for_writing ? 1 : 0);
}

// One block down the output rows of a chunk: row_of(j, h) row-filters virtual input row j of the
// chunk (0 is the row above the first output row) into h; store(y, out) writes output row y.
// The two row sums above each output row arrive from the chunk before (carry) unless `fresh`,
// and are left there for the next one.
template <class A, class RowOf, class Store>
inline void walk_block(const A& a, int rows, bool fresh, Block& carry0, Block& carry1, RowOf row_of,
                       Store store) {
  Block h0, h1, h2, o;
  if (fresh) {
    row_of(0, h0);
    row_of(1, h1);
  } else {
    h0 = carry0;
    h1 = carry1;
  }
  for (int y = 0; y < rows; ++y) {
    row_of(y + 2, h2);
    column_of(a, h0, h1, h2, o);
    h0 = h1;
    h1 = h2;
    store(y, o);
  }
  carry0 = h0;
  carry1 = h1;
}

bool is_binomial(const WordWeights& w) {
  const std::vector<std::uint16_t> taps{1, 2, 1};
  return w.kind == WordWeights::Kind::exact && w.row == taps && w.column == taps && w.shift == 4 &&
         w.row_start == 0 && w.column_start == 8 && w.input_shift == 0;
}

}  // namespace

bool ThreeTapWords::applies(const WordWeights& weights) {
  const int expected_shift = weights.kind == WordWeights::Kind::fixed_point ? 8 : 0;
  return weights.row.size() == 3 && weights.column.size() == 3 &&
         weights.input_shift == expected_shift;
}

ThreeTapWords::ThreeTapWords(const WordWeights& weights, Border border, int channels, int threads,
                             int widest_tile)
    : border_(border),
      weights_(weights),
      form_(is_binomial(weights)                       ? Form::binomial
            : weights.kind == WordWeights::Kind::exact ? Form::exact_products
                                                       : Form::fixed_point_products) {
  const int blocks = (widest_tile * channels + kBlockValues - 1) / kBlockValues;
  scratch_.resize(threads);
  for (Scratch& s : scratch_) {
    // The pixels around one block: up to 2c - 1 values before it (a block need not start a
    // pixel) and 2c after.
    s.segment.resize((kRowsPerChunk + 2) * static_cast<size_t>(kBlockValues + 4 * channels));
    s.carry = lanes::AlignedFloats(2 * static_cast<size_t>(blocks) * sizeof(Block) / sizeof(float));
    s.rows.resize(kRowsPerChunk + 2);
    s.source_rows.resize(kRowsPerChunk + 2);
  }
}

void ThreeTapWords::filter(const Image& in, RowRange strip, ColumnTile tile, HostOutput& out,
                           int thread) {
  Scratch& s = scratch_[thread];
  switch (form_) {
    case Form::binomial:
      return filter_with(Binomial{}, in, strip, tile, out, s);
    case Form::exact_products:
      return filter_with(Products<false>(weights_), in, strip, tile, out, s);
    case Form::fixed_point_products:
      return filter_with(Products<true>(weights_), in, strip, tile, out, s);
  }
}

template <class A>
void ThreeTapWords::filter_with(const A& a, const Image& in, RowRange strip, ColumnTile tile,
                                HostOutput& out, Scratch& s) const {
  const int c = in.channels;
  const int row_values = in.width * c;
  const int first = tile.begin * c, end = tile.end * c;  // the tile's values in a row
  const bool stream = out.streaming();
  std::uint8_t* const out_pixels = out.u8_data();
  Block* const carry = reinterpret_cast<Block*>(s.carry.data());
  for (int top = strip.begin; top < strip.end; top += kRowsPerChunk) {
    const int rows = std::min(kRowsPerChunk, strip.end - top);
    // Input row of each virtual row top - 1 .. top + rows (null: outside, the zero border).
    for (int j = 0; j < rows + 2; ++j) {
      const int sy = map_border_index(top - 1 + j, in.height, border_);
      s.source_rows[j] = sy;
      s.rows[j] = sy == kOutsideImage ? nullptr : &in.pixels[static_cast<size_t>(sy) * row_values];
    }
    const bool fresh = top == strip.begin;
    for (int i = first, block = 0; i < end; i += kBlockValues, ++block) {
      const int count = std::min(kBlockValues, end - i);
      std::uint8_t* const out_block = out_pixels + static_cast<size_t>(top) * row_values + i;
      Block& carry0 = carry[2 * block];
      Block& carry1 = carry[2 * block + 1];
      if (count == kBlockValues && i >= c && i + kBlockValues + c <= row_values) {
        // Inside the row: straight from the image, whole vectors stored.
        walk_block(
            a, rows, fresh, carry0, carry1,
            [&](int j, Block& h) {
              if (!s.rows[j]) return zero(h);
              row_from_bytes(a, s.rows[j] + i, c, h);
              prefetch_next_block(s.rows[j] + i, row_values - i, false);
            },
            [&](int y, const Block& o) {
              std::uint8_t* dst = out_block + static_cast<size_t>(y) * row_values;
              store_block(dst, o, stream);
              if (!stream) prefetch_next_block(dst, row_values - i, true);
            });
        continue;
      }
      // At an edge of the row, or its last partial block: each input row's bytes copied with the
      // border applied, from the pixel before the block's first value (which need not start a
      // pixel) to the pixel after its last, and only `count` values stored.
      const int pixel = i / c - 1;
      const int offset = i - pixel * c;  // the block's first value in the segment: c .. 2c - 1
      const int pixels = (offset + kBlockValues + c + c - 1) / c;
      // Every row of the chunk first: a vector load right after the bytes' own stores would wait
      // for them (no store forwarding across differently sized stores), and the copy's call would
      // push the sums out of the registers in the walk.
      const size_t stride = s.segment.size() / (kRowsPerChunk + 2);
      for (int j = 0; j < rows + 2; ++j)
        if (s.rows[j])
          convert_row_segment(in, s.source_rows[j], pixel, pixels, border_, &s.segment[j * stride]);
      walk_block(
          a, rows, fresh, carry0, carry1,
          [&](int j, Block& h) {
            if (!s.rows[j]) return zero(h);
            row_from_bytes(a, &s.segment[j * stride + offset], c, h);
          },
          [&](int y, const Block& o) {
            std::uint8_t* dst = out_block + static_cast<size_t>(y) * row_values;
            if (count == kBlockValues) return store_block(dst, o, stream);
            alignas(64) std::uint8_t bytes[kBlockValues];
            store_block(bytes, o, false);
            std::memcpy(dst, bytes, count);
          });
    }
  }
}

}  // namespace convlab
