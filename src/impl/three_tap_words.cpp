#include "impl/three_tap_words.hpp"

#include <algorithm>
#include <cstring>

namespace convlab {
namespace {

using lanes::Words;
constexpr int kWidth = lanes::kWordWidth;
// Three blocks of row sums (two kept, one new) and the three loaded vectors of each stay in the
// registers: 4 vectors per block with 32 registers (AVX-512), 2 with 16.
constexpr int kBlockVectors = lanes::kRegisters >= 32 ? 4 : 2;
constexpr int kBlockValues = kBlockVectors * kWidth;

using Block = Words[kBlockVectors];

// OpenCV's K = 3 Gaussian, [1 2 1] / 4 both ways: adds and shifts, no product, exact.
struct Binomial {
  static constexpr int input_shift = 0;
  Words row(Words x0, Words x1, Words x2) const { return (x0 + x2) + (x1 + x1); }
  Words column(Words h0, Words h1, Words h2) const {
    return ((h0 + h2) + (h1 + h1) + 8) >> 4;  // 8: the rounding half of the shift by 4
  }
};

// Any other 16-bit form (word_weights.hpp): low-half products of integer weights (exact), or
// high-half products of weights in units of 2^-16 (fixed point), as word_sum models them. The
// sums are of integers, so their order does not change them.
template <bool kHighHalf>
struct Products {
  Words a0, a1, a2, b0, b1, b2, row_start, column_start;
  int input_shift, shift;
  explicit Products(const WordWeights& w)
      : a0(lanes::splat_word(w.row[0])),
        a1(lanes::splat_word(w.row[1])),
        a2(lanes::splat_word(w.row[2])),
        b0(lanes::splat_word(w.column[0])),
        b1(lanes::splat_word(w.column[1])),
        b2(lanes::splat_word(w.column[2])),
        row_start(lanes::splat_word(w.row_start)),
        column_start(lanes::splat_word(w.column_start)),
        input_shift(w.input_shift),
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

// Bytes widened to words as the arithmetic takes them (shifted for fixed point).
template <class A>
inline Words widen_words(const A& a, const std::uint8_t* p) {
  return lanes::load_u8_words(p) << a.input_shift;
}

// Row-filters one block straight from the image: p is the block's first value in its input row,
// c the channels (the distance between horizontal neighbours); p - c .. p + kBlockValues + c - 1
// lie inside the row.
template <class A>
inline void row_from_image(const A& a, const std::uint8_t* p, int c, Block& h) {
#pragma GCC unroll 4
  for (int b = 0; b < kBlockVectors; ++b) {
    const std::uint8_t* q = p + b * kWidth;
    h[b] = a.row(widen_words(a, q - c), widen_words(a, q), widen_words(a, q + c));
  }
}

// The same from a converted segment (border applied, already widened): q is the block's first
// value there.
template <class A>
inline void row_from_segment(const A& a, const std::uint16_t* q, int c, Block& h) {
#pragma GCC unroll 4
  for (int b = 0; b < kBlockVectors; ++b) {
    const std::uint16_t* v = q + b * kWidth;
    h[b] = a.row(lanes::load(v - c), lanes::load(v), lanes::load(v + c));
  }
}

// One block down the output rows of a chunk: row_of(j, h) row-filters virtual input row j of the
// chunk (0 is the row above the first output row) into h; store(y, out) writes output row y.
// The two row sums above each output row arrive from the chunk before (carry) unless `fresh`,
// and are left there for the next one.
template <class A, class RowOf, class Store>
inline void walk_block(const A& a, int rows, bool fresh, std::uint16_t* carry, RowOf row_of,
                       Store store) {
  Block h0, h1, h2, o;
  if (fresh) {
    row_of(0, h0);
    row_of(1, h1);
  } else {
#pragma GCC unroll 4
    for (int b = 0; b < kBlockVectors; ++b) {
      h0[b] = lanes::load(carry + b * kWidth);
      h1[b] = lanes::load(carry + kBlockValues + b * kWidth);
    }
  }
  for (int y = 0; y < rows; ++y) {
    row_of(y + 2, h2);
#pragma GCC unroll 4
    for (int b = 0; b < kBlockVectors; ++b) {
      o[b] = a.column(h0[b], h1[b], h2[b]);
      h0[b] = h1[b];
      h1[b] = h2[b];
    }
    store(y, o);
  }
#pragma GCC unroll 4
  for (int b = 0; b < kBlockVectors; ++b) {
    lanes::store(carry + b * kWidth, h0[b]);
    lanes::store(carry + kBlockValues + b * kWidth, h1[b]);
  }
}

// The walk goes down the rows of a chunk, so each row of a block starts on cache lines the
// hardware has not yet been asked for (profiled: most of the time went to waiting for the first
// loads of each row). The lines of the same row for the next block are requested now, a whole
// chunk of rows before they are used; `left` values remain in the row from p.
inline void prefetch_next_block(const std::uint8_t* p, int left, bool for_writing) {
  for (int v = kBlockValues; v < std::min(2 * kBlockValues + 64, left); v += 64)
    __builtin_prefetch(p + v, for_writing ? 1 : 0);
}

inline void store_block(std::uint8_t* dst, const Block& o, bool stream) {
#pragma GCC unroll 4
  for (int b = 0; b < kBlockVectors; ++b) lanes::store_words_u8(dst + b * kWidth, o[b], stream);
}

inline void zero(Block& h) {
#pragma GCC unroll 4
  for (int b = 0; b < kBlockVectors; ++b) h[b] = Words{};
}

bool is_binomial(const WordWeights& w) {
  const std::vector<std::uint16_t> taps{1, 2, 1};
  return w.kind == WordWeights::Kind::exact && w.row == taps && w.column == taps && w.shift == 4 &&
         w.row_start == 0 && w.column_start == 8 && w.input_shift == 0;
}

}  // namespace

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
    s.segment.resize(kBlockValues + 4 * channels + kWidth);
    s.carry.resize(static_cast<size_t>(blocks) * 2 * kBlockValues);
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
  for (int top = strip.begin; top < strip.end; top += kRowsPerChunk) {
    const int rows = std::min(kRowsPerChunk, strip.end - top);
    // Input row of each virtual row top - 1 .. top + rows (null: outside, the zero border).
    for (int j = 0; j < rows + 2; ++j) {
      const int sy = map_border_index(top - 1 + j, in.height, border_);
      s.source_rows[j] = sy;
      s.rows[j] = sy == kOutsideImage ? nullptr : &in.pixels[static_cast<size_t>(sy) * row_values];
    }
    for (int i = first, block = 0; i < end; i += kBlockValues, ++block) {
      const int count = std::min(kBlockValues, end - i);
      std::uint8_t* const out_block = out_pixels + static_cast<size_t>(top) * row_values + i;
      std::uint16_t* const carry = &s.carry[static_cast<size_t>(block) * 2 * kBlockValues];
      const bool fresh = top == strip.begin;
      if (count == kBlockValues && i >= c && i + kBlockValues + c <= row_values) {
        // Inside the row: straight from the image, whole vectors stored.
        walk_block(
            a, rows, fresh, carry,
            [&](int j, Block& h) {
              if (!s.rows[j]) return zero(h);
              row_from_image(a, s.rows[j] + i, c, h);
              prefetch_next_block(s.rows[j] + i, row_values - i, false);
            },
            [&](int y, const Block& o) {
              std::uint8_t* dst = out_block + static_cast<size_t>(y) * row_values;
              store_block(dst, o, stream);
              if (!stream) prefetch_next_block(dst, row_values - i, true);
            });
        continue;
      }
      // At an edge of the row, or its last partial block: each input row converted with the
      // border applied, from the pixel before the block's first value (which need not start a
      // pixel) to the pixel after its last, and only `count` values stored.
      const int pixel = i / c - 1;
      const int offset = i - pixel * c;  // the block's first value in the segment: c .. 2c - 1
      const int pixels = (offset + kBlockValues + c + c - 1) / c;
      std::uint16_t* const segment = s.segment.data();
      walk_block(
          a, rows, fresh, carry,
          [&](int j, Block& h) {
            if (!s.rows[j]) return zero(h);
            convert_row_segment(in, s.source_rows[j], pixel, pixels, border_, segment,
                                a.input_shift);
            row_from_segment(a, segment + offset, c, h);
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
