// cpu_fused's path for K = 3 in 16-bit lanes (u8 output, non-negative factors: word_weights.hpp).
// At K = 3 the ring of row-filtered lines costs more than the taps: each value is widened into a
// segment, row-filtered into the ring and read back for the column pass, three passes over the
// caches for six multiply-adds. Here the image is walked down in column blocks of a few vectors
// instead: an input row is loaded straight from the image and widened in registers (a vector of
// bytes read as words and split into its even and odd bytes, no shuffle), row-filtered there, and
// the last two row-filtered rows of the block stay in registers for the column pass, so nothing
// but the input and the output touches memory (docs/cpu.md, "K = 3 without a ring").
// The arithmetic is the one word_sum models (the same bytes as the ring path), and for OpenCV's
// [1 2 1] x [1 2 1] / 16 (the exact form with those weights) it is adds and shifts, no product:
//   h = x[-1] + 2 x[0] + x[+1] (at most 1020), out = (h[-1] + 2 h[0] + h[+1] + 8) >> 4
// (at most 4088, no sum near 16 bits), the correctly rounded value of the reference.
#pragma once

#include <cstdint>
#include <vector>

#include "core/border.hpp"
#include "core/types.hpp"
#include "impl/cpu_output.hpp"
#include "impl/strip_lines.hpp"
#include "impl/word_weights.hpp"

namespace convlab {

class ThreeTapWords {
 public:
  // Whether `weights` (a 16-bit form) has three taps per factor and takes bytes as its form does
  // (as they are for exact weights, times 2^8 for fixed point).
  static bool applies(const WordWeights& weights);

  // Scratch for `threads` threads and tiles up to `widest_tile` pixels.
  ThreeTapWords(const WordWeights& weights, Border border, int channels, int threads,
                int widest_tile);

  // Output rows `strip`, pixels `tile` of `in` filtered into `out`, on per-thread scratch
  // `thread`.
  void filter(const Image& in, RowRange strip, ColumnTile tile, HostOutput& out, int thread);

  // How the sums are formed: adds and shifts for [1 2 1] / 4 by [1 2 1] / 4, else products.
  enum class Form { binomial, exact_products, fixed_point_products };
  Form form() const { return form_; }

  // Output rows walked per column block before the next block (the two row sums above the
  // chunk carried over, so a chunk costs no extra row work). Few rows keep the lines and pages a
  // walk touches few: on the 2-core machine (one thread, RGB 2048^2, blocks of 2 vectors) chunks
  // of 32 rows took 2.4-2.7 ms, 16 rows 1.9-2.3, 8 rows 1.5-1.7, 4 and 6 about as 8.
  static constexpr int kRowsPerChunk = 8;

 private:
  struct Scratch {
    std::vector<std::uint8_t> segment;      // each row's bytes around an edge block, border applied
    lanes::AlignedFloats carry;             // two blocks of row sums per block, between chunks
    std::vector<const std::uint8_t*> rows;  // input row of each virtual row of a chunk (or null)
    std::vector<int> source_rows;           // its index (kOutsideImage: the zero border)
  };
  template <class Arithmetic>
  void filter_with(const Arithmetic& a, const Image& in, RowRange strip, ColumnTile tile,
                   HostOutput& out, Scratch& s) const;

  Border border_;
  WordWeights weights_;
  Form form_;
  std::vector<Scratch> scratch_;
};

}  // namespace convlab
