// cpu_fused: the separable filter of `cpu_separable` with its two passes fused through a small ring
// buffer, for rank-1 kernels. What changes relative to cpu_separable, and why it is faster:
// - No image-sized intermediate. cpu_separable writes the whole row-filtered image as floats (4
//   bytes per value) and reads it back K times in the column pass, so at large images it is bound
//   by memory bandwidth whatever K is. Here a thread filters a horizontal strip of output rows; an
//   input row is converted (border applied), row-filtered once into a ring of K + 3 filtered lines,
//   and the column pass reads the ring while it is in the core's cache. DRAM sees the input once
//   and the output once; an output larger than the last-level cache is streamed (non-temporal
//   stores: no read of each output line before it is written).
// - Column tiles: the ring holds one column tile, as wide as fits kRingBudgetBytes (L2-sized), so
//   an 8192-pixel RGB row does not push the ring out of L2 at K = 21. A tile re-reads r pixels on
//   each side (2r / tile width more row work; about 2%).
// - Register blocking: a block of 4 vectors along the row, and the column pass makes four output
//   rows per sweep of the ring: each ring vector loaded feeds every row whose window holds it
//   (K + 3 loads for 4K multiply-adds instead of 4K); sixteen sums stay in registers.
// - K = 3, 5, 7, 9 and 11 compiled with K fixed: the tap and line loops unroll, every "does line j
//   feed output row p" test is decided by the compiler, and the sixteen sums (one array per output
//   row) stay in registers; with K read at run time they went to the stack. Measured on the GPU
//   machine's Xeon, RGB 8192^2, one thread, median of five alternating runs: 12 / 8 / 16 % faster
//   at K = 3 / 7 / 11 (docs/cpu.md). Other sizes take K at run time.
// - Wide vectors (lanes::Floats: AVX-512 with -march=native on this project's machines).
// - A 16-bit integer path for u8 output when both factors are small dyadic fractions (OpenCV's
//   default Gaussians up to K = 9: [1 2 1]/4 ... [4 13 30 51 60 51 30 13 4]/256): the row pass
//   sums integer weights times bytes, the column pass integer weights times those sums, and one
//   shift rounds (half up) at the end: twice the lanes of a float vector. For K = 3 and 5 every
//   sum fits 16 bits and the output is bit-identical to the correctly rounded reference; for
//   K = 7 and 9 the row sums are rounded by a few bits first, which moves an output by at most
//   0.125 and 0.5 levels (integer_weights), within the u8 tolerance.
// - Parallel: the image is cut into horizontal strips (up to four per thread, strip_count), and
//   every (strip, column tile) pair is handed out one at a time (for_each_strip), so a thread
//   whose core runs slower under load takes fewer; a strip filters r rows above and below itself
//   that its neighbours also filter (2r / strip height).
// Float sums run in tap order (row pass kx, then column pass ky) and round half up at the end:
// within the u8 tolerance of the double reference (values_not_exact counts the differences).
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "impl/registry.hpp"
#include "impl/strip_lines.hpp"

namespace convlab {
namespace {

constexpr int kRowsPerSweep = 4;                 // output rows per column sweep
constexpr size_t kRingBudgetBytes = 384 * 1024;  // ring of one tile, per thread

// Float arithmetic: any rank-1 kernel, u8 or f32 output.
struct FloatPath {
  using Value = float;
  using Vec = lanes::Floats;
  using Weight = float;
  static constexpr int kWidth = lanes::kWidth;
  // Sums of kRowsPerSweep rows x kBlockVectors vectors, plus the loaded vectors, fit the registers.
  static constexpr int kBlockVectors = lanes::kRegisters >= 32 ? 4 : 2;
  static Vec load(const Value* p) { return lanes::load(p); }
  static void store(Value* p, Vec v) { lanes::store(p, v); }
  static Vec splat(Weight w) { return lanes::splat(w); }
  static Vec finish_row(Vec sum, int) { return sum; }
  static void store_output(HostOutput& out, size_t index, const Vec* sums, int count, int) {
    store_sums<kBlockVectors>(out, index, sums, count);
  }
};

// Integer arithmetic in 16-bit lanes: u8 output, weights a / 2^s with small a (see
// integer_weights). Row sums are rounded by row_shift bits (0: kept exact) so the column sums fit
// 16 bits; the output is (sum + 2^(shift-1)) >> shift, rounded half up.
struct WordPath {
  using Value = std::uint16_t;
  using Vec = lanes::Words;
  using Weight = std::uint16_t;
  static constexpr int kWidth = lanes::kWordWidth;
  static constexpr int kBlockVectors = lanes::kRegisters >= 32 ? 4 : 2;
  static Vec load(const Value* p) { return lanes::load(p); }
  static void store(Value* p, Vec v) { lanes::store(p, v); }
  static Vec splat(Weight w) { return lanes::splat_word(w); }
  static Vec finish_row(Vec sum, int row_shift) {
    if (row_shift == 0) return sum;
    return (sum + std::uint16_t(1u << (row_shift - 1))) >> row_shift;
  }
  static void store_output(HostOutput& out, size_t index, const Vec* sums, int count, int shift) {
    const std::uint16_t half = shift > 0 ? std::uint16_t(1u << (shift - 1)) : 0;
    std::uint8_t* dst = out.u8_data() + index;
    if (count == kBlockVectors * kWidth) {
#pragma GCC unroll 4
      for (int b = 0; b < kBlockVectors; ++b)
        lanes::store_words_u8(dst + b * kWidth, (sums[b] + half) >> shift, out.streaming());
      return;
    }
    for (int b = 0; b < kBlockVectors && b * kWidth < count; ++b) {
      const Vec rounded = (sums[b] + half) >> shift;
      for (int i = 0; i < std::min(kWidth, count - b * kWidth); ++i)
        dst[b * kWidth + i] = static_cast<std::uint8_t>(rounded[i]);
    }
  }
};

// The factors as integers over a power of two, when the 16-bit path can run them.
struct IntegerWeights {
  std::vector<std::uint16_t> row, column;
  int row_shift = 0;  // bits the row sums are rounded by before the column pass
  int shift = 0;      // bits the column sums are rounded by: row_shift + shift = s_row + s_column
};

// Smallest s <= 8 with every weight w = a / 2^s, a a non-negative integer, or -1.
int dyadic_exponent(const std::vector<float>& weights) {
  for (int s = 0; s <= 8; ++s) {
    const bool integral = std::all_of(weights.begin(), weights.end(), [s](float w) {
      const double a = std::ldexp(double(w), s);
      return a >= 0 && a == std::floor(a);
    });
    if (integral) return s;
  }
  return -1;
}

std::optional<IntegerWeights> integer_weights(const Filter& filter, OutputType output) {
  if (output != OutputType::u8 || !filter.separable) return std::nullopt;
  const int s_row = dyadic_exponent(filter.row), s_column = dyadic_exponent(filter.column);
  if (s_row < 0 || s_column < 0) return std::nullopt;
  IntegerWeights w;
  long row_sum = 0, column_sum = 0;
  for (float v : filter.row) w.row.push_back(std::uint16_t(std::ldexp(double(v), s_row)));
  for (float v : filter.column) w.column.push_back(std::uint16_t(std::ldexp(double(v), s_column)));
  for (auto a : w.row) row_sum += a;
  for (auto a : w.column) column_sum += a;
  // Weights summing to at most 1 keep outputs within 0..255.
  const int total = s_row + s_column;
  if (row_sum * column_sum > (1L << total) || 255 * row_sum > 65535 - 128) return std::nullopt;
  // The fewest row bits to drop so the column sums (and their rounding half) fit 16 bits. Each
  // rounded row sum is off by at most half of 2^t, which moves an output by at most
  // 2^(t-1) * column_sum / 2^total levels: below 1, an output stays within 1 of the reference
  // (and is exact when t = 0: OpenCV's K = 3 and 5 Gaussians).
  for (int t = 0; t <= total; ++t) {
    const long row_max = (255 * row_sum + (t > 0 ? 1L << (t - 1) : 0)) >> t;
    const long half = total - t > 0 ? 1L << (total - t - 1) : 0;
    const double moved = t > 0 ? std::ldexp(double(column_sum), t - 1 - total) : 0.0;
    if (row_max * column_sum + half <= 65535 && moved < 1.0) {
      w.row_shift = t;
      w.shift = total - t;
      return w;
    }
  }
  return std::nullopt;
}

template <class P>
inline void load_block(const typename P::Value* line, typename P::Vec (&x)[P::kBlockVectors]) {
#pragma GCC unroll 4
  for (int b = 0; b < P::kBlockVectors; ++b) x[b] = P::load(line + b * P::kWidth);
}

// acc[b] += w * x[b] over one block, the sums given by pointer.
template <class P>
inline void multiply_add_into(typename P::Vec* acc, typename P::Weight w,
                              const typename P::Vec (&x)[P::kBlockVectors]) {
  const typename P::Vec wk = P::splat(w);
#pragma GCC unroll 4
  for (int b = 0; b < P::kBlockVectors; ++b) acc[b] += wk * x[b];
}

// line[i] = sum over k of w[k] * source[i + k * step], for i < count (a multiple of the block).
// Two blocks at a time where the line has them: 2 * kBlockVectors independent sums keep both
// multiply-add pipes busy through the latency of each.
template <class P, int Taps>
void row_pass(const typename P::Value* source, int step, const typename P::Weight* w,
              int runtime_taps, int row_shift, typename P::Value* line, int count) {
  constexpr int kBlockValues = P::kBlockVectors * P::kWidth;
  const int taps = Taps > 0 ? Taps : runtime_taps;  // Taps > 0: K fixed at compile time
  int i = 0;
  for (; i + 2 * kBlockValues <= count; i += 2 * kBlockValues) {
    typename P::Vec acc[P::kBlockVectors] = {}, acc2[P::kBlockVectors] = {}, x[P::kBlockVectors],
                    x2[P::kBlockVectors];
    for (int k = 0; k < taps; ++k) {
      load_block<P>(source + i + k * step, x);
      load_block<P>(source + i + kBlockValues + k * step, x2);
      multiply_add_into<P>(acc, w[k], x);
      multiply_add_into<P>(acc2, w[k], x2);
    }
#pragma GCC unroll 4
    for (int b = 0; b < P::kBlockVectors; ++b) {
      P::store(line + i + b * P::kWidth, P::finish_row(acc[b], row_shift));
      P::store(line + i + kBlockValues + b * P::kWidth, P::finish_row(acc2[b], row_shift));
    }
  }
  for (; i < count; i += kBlockValues) {
    typename P::Vec acc[P::kBlockVectors] = {}, x[P::kBlockVectors];
    for (int k = 0; k < taps; ++k) {
      load_block<P>(source + i + k * step, x);
      multiply_add_into<P>(acc, w[k], x);
    }
#pragma GCC unroll 4
    for (int b = 0; b < P::kBlockVectors; ++b)
      P::store(line + i + b * P::kWidth, P::finish_row(acc[b], row_shift));
  }
}

// Output rows y .. y + Rows - 1 from ring lines lines[0 .. K + Rows - 2] (line j holds input row
// y - r + j): row p = sum over ky of w[ky] * lines[p + ky]. Each line is loaded once per block and
// feeds every row whose window holds it, so a sweep loads K + Rows - 1 lines for Rows * K
// multiply-adds; the Rows x kBlockVectors sums stay in registers.
template <class P, int Rows, int Taps>
void column_sweep(const typename P::Value* const* lines, const typename P::Weight* w,
                  int runtime_taps, int values, int shift, HostOutput& out,
                  const size_t* row_index) {
  using Vec = typename P::Vec;
  constexpr int kBlockValues = P::kBlockVectors * P::kWidth;
  const int taps = Taps > 0 ? Taps : runtime_taps;  // Taps > 0: K fixed, the line loop unrolls
  for (int i = 0; i < values; i += kBlockValues) {
    // One array of sums per output row, each zeroed vector by vector: a single Rows x blocks
    // array is too large for the compiler to keep in registers (it went to the stack, zeroed by
    // a memset per block).
    Vec acc0[P::kBlockVectors], acc1[P::kBlockVectors], acc2[P::kBlockVectors],
        acc3[P::kBlockVectors], x[P::kBlockVectors];
    static_assert(Rows <= 4, "four arrays of sums");
    Vec* const acc[4] = {acc0, acc1, acc2, acc3};
#pragma GCC unroll 4
    for (int b = 0; b < P::kBlockVectors; ++b) acc0[b] = acc1[b] = acc2[b] = acc3[b] = Vec{};
    for (int j = 0; j < taps + Rows - 1; ++j) {
      load_block<P>(lines[j] + i, x);
      if (j >= Rows - 1 && j < taps) {  // every row's window holds line j: no test per row
#pragma GCC unroll 4
        for (int p = 0; p < Rows; ++p) multiply_add_into<P>(acc[p], w[j - p], x);
      } else {
#pragma GCC unroll 4
        for (int p = 0; p < Rows; ++p)
          if (j - p >= 0 && j - p < taps) multiply_add_into<P>(acc[p], w[j - p], x);
      }
    }
    const int count = std::min(kBlockValues, values - i);
#pragma GCC unroll 4
    for (int p = 0; p < Rows; ++p) P::store_output(out, row_index[p] + i, acc[p], count, shift);
  }
}

// Per-thread memory, allocated when the point is prepared; float or 16-bit values by the path.
struct Scratch {
  lanes::AlignedFloats segment;            // one converted input row segment (tile plus halo)
  lanes::AlignedFloats ring;               // ring_lines lines of `stride` values
  std::vector<const float*> float_window;  // the ring lines of one sweep
  std::vector<const std::uint16_t*> word_window;
  const float** window(FloatPath) { return float_window.data(); }
  const std::uint16_t** window(WordPath) { return word_window.data(); }
};

class FusedPoint : public PreparedPoint {
 public:
  FusedPoint(const Problem& problem, const Params& params)
      : problem_(problem),
        threads_(params.value("threads", 1)),
        strips_(params.value("strips", 0)),
        out_(problem.output, problem.input.value_count()),
        integer_(integer_weights(problem.filter, problem.output)) {
    out_.set_streaming(params.value("stream", std::string("auto")));
    const Image& in = problem.input;
    const int k = problem.filter.size;
    ring_lines_ = k + kRowsPerSweep - 1;
    const size_t value_bytes = integer_ ? sizeof(std::uint16_t) : sizeof(float);
    const int block_values = integer_ ? WordPath::kBlockVectors * WordPath::kWidth
                                      : FloatPath::kBlockVectors * FloatPath::kWidth;
    const int tile_param = params.value("tile", 0);
    tiles_ = column_tiles(
        in.width,
        tile_param > 0 ? tile_param : tile_pixels_for(ring_lines_, in.channels, kRingBudgetBytes));
    stride_ = lanes::round_up(widest_tile(tiles_) * in.channels, block_values);
    const size_t segment = static_cast<size_t>(stride_) + (k - 1) * in.channels + block_values;
    auto floats_for = [&](size_t values) { return (values * value_bytes + 3) / 4; };
    scratch_.resize(threads_);
    for (Scratch& s : scratch_) {
      s.segment = lanes::AlignedFloats(floats_for(segment));
      s.ring = lanes::AlignedFloats(floats_for(static_cast<size_t>(ring_lines_) * stride_));
      s.float_window.resize(ring_lines_);
      s.word_window.resize(ring_lines_);
    }
  }

  std::optional<PhaseTimes> execute() override {
    for_each_strip(threads_, strips_, problem_.input.height, problem_.filter.size, tiles_,
                   [this](RowRange strip, ColumnTile tile, int thread) {
                     if (integer_)
                       filter_tile_for_size<WordPath>(strip, tile, scratch_[thread],
                                                      integer_->row.data(), integer_->column.data(),
                                                      integer_->row_shift, integer_->shift);
                     else
                       filter_tile_for_size<FloatPath>(strip, tile, scratch_[thread],
                                                       problem_.filter.row.data(),
                                                       problem_.filter.column.data(), 0, 0);
                   });
    return std::nullopt;
  }

  OutputView output() const override { return out_.view(); }

 private:
  // K = 3 .. 11 compiled with K fixed (the common sizes: the tap loops unroll and each row's
  // window test is decided at compile time); any other K with K taken at run time.
  template <class P>
  void filter_tile_for_size(RowRange strip, ColumnTile tile, Scratch& s,
                            const typename P::Weight* row_w, const typename P::Weight* column_w,
                            int row_shift, int shift) {
    switch (problem_.filter.size) {
      case 3:
        return filter_tile<P, 3>(strip, tile, s, row_w, column_w, row_shift, shift);
      case 5:
        return filter_tile<P, 5>(strip, tile, s, row_w, column_w, row_shift, shift);
      case 7:
        return filter_tile<P, 7>(strip, tile, s, row_w, column_w, row_shift, shift);
      case 9:
        return filter_tile<P, 9>(strip, tile, s, row_w, column_w, row_shift, shift);
      case 11:
        return filter_tile<P, 11>(strip, tile, s, row_w, column_w, row_shift, shift);
      default:
        return filter_tile<P, 0>(strip, tile, s, row_w, column_w, row_shift, shift);
    }
  }

  template <class P, int Taps>
  void filter_tile(RowRange strip, ColumnTile tile, Scratch& s, const typename P::Weight* row_w,
                   const typename P::Weight* column_w, int row_shift, int shift) {
    using Value = typename P::Value;
    constexpr int kBlockValues = P::kBlockVectors * P::kWidth;
    using Sweep = void (*)(const Value* const*, const typename P::Weight*, int, int, int,
                           HostOutput&, const size_t*);
    static constexpr Sweep kSweeps[kRowsPerSweep] = {
        column_sweep<P, 1, Taps>, column_sweep<P, 2, Taps>, column_sweep<P, 3, Taps>,
        column_sweep<P, 4, Taps>};
    const Image& in = problem_.input;
    const int r = problem_.filter.radius(), c = in.channels, k = problem_.filter.size;
    const int values = (tile.end - tile.begin) * c;
    const int padded = lanes::round_up(values, kBlockValues);
    Value* const ring = reinterpret_cast<Value*>(s.ring.data());
    Value* const segment = reinterpret_cast<Value*>(s.segment.data());
    auto line_of = [&](int v) {
      return ring + static_cast<size_t>(positive_modulo(v, ring_lines_)) * stride_;
    };
    // Row-filters virtual input row v (v outside the image maps through the border) into the ring.
    auto filter_input_row = [&](int v) {
      Value* line = line_of(v);
      const int sy = map_border_index(v, in.height, problem_.border);
      if (sy == kOutsideImage) {
        std::fill(line, line + padded, Value(0));
        return;
      }
      convert_row_segment(in, sy, tile.begin - r, tile.end - tile.begin + 2 * r, problem_.border,
                          segment);
      // The rows of the next sweep are converted after this sweep: fetch them meanwhile.
      prefetch_row_segment(in, v + kRowsPerSweep, tile.begin - r, tile.end - tile.begin + 2 * r);
      row_pass<P, Taps>(segment, c, row_w, k, row_shift, line, padded);
    };
    const Value** lines = s.window(P{});
    int next = strip.begin - r;  // next virtual input row to enter the ring
    for (int y = strip.begin; y < strip.end; y += kRowsPerSweep) {
      const int rows = std::min(kRowsPerSweep, strip.end - y);
      while (next <= y + rows - 1 + r) filter_input_row(next++);
      for (int j = 0; j < k + rows - 1; ++j) lines[j] = line_of(y - r + j);
      size_t row_index[kRowsPerSweep];
      for (int p = 0; p < rows; ++p)
        row_index[p] = (static_cast<size_t>(y + p) * in.width + tile.begin) * c;
      // The output rows of the next sweep: fetched now, their stores do not wait for them.
      for (int p = y + kRowsPerSweep; p < std::min(y + 2 * kRowsPerSweep, strip.end); ++p)
        prefetch_output(out_, (static_cast<size_t>(p) * in.width + tile.begin) * c, values);
      kSweeps[rows - 1](lines, column_w, k, values, shift, out_, row_index);
    }
  }

  Problem problem_;
  int threads_;
  int strips_;
  HostOutput out_;
  std::optional<IntegerWeights> integer_;
  int ring_lines_ = 0;
  int stride_ = 0;  // values per ring line
  std::vector<ColumnTile> tiles_;
  std::vector<Scratch> scratch_;  // one per thread
};

}  // namespace

Implementation make_cpu_fused_implementation() {
  Implementation impl;
  impl.name = "cpu_fused";
  impl.family = "cpu";
  impl.thread_pool = "openmp";
  impl.description =
      "rank-1 kernels: per-thread strips, row pass into a ring of K+3 lines, column pass from it "
      "4 rows at a time (no image-sized intermediate); exact 16-bit integers for dyadic weights";
  impl.factored = true;
  impl.axes = strip_axes();
  impl.unmet_need = [](const Problem& problem, const Params&) { return unless_separable(problem); };
  impl.unsupported = [](const Problem& problem, const Params&, const RunContext&) {
    return reason_of(unless_separable(problem));
  };
  impl.prepare = [](const Problem& problem, const Params& params, const RunContext&) {
    return std::unique_ptr<PreparedPoint>(new FusedPoint(problem, params));
  };
  return impl;
}

}  // namespace convlab
