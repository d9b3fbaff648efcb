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
// - 16-bit integer lanes for u8 output (word_weights.hpp), twice the lanes of a float vector, for
//   every kernel whose factors are non-negative: the exact form where the weights are small
//   dyadic fractions whose sums fit 16 bits (OpenCV's K = 3 and 5 Gaussians; the output is the
//   correctly rounded reference), otherwise fixed point (weights in units of 2^-16, the high half
//   of each product, vpmulhuw) with an error bound computed per kernel and required below one
//   level (0.015 at K = 7, 0.06 at K = 11, 0.12 at K = 21). Why it matters: the step from K = 7
//   to K = 11 took about twice the time at 1.57 times the taps because K = 7 ran in 16-bit lanes
//   and K = 11 in floats, and the float path costs about 1.55 times the 16-bit path at the same K
//   (docs/cpu.md, "Where the time goes"); now both run in 16-bit lanes. Kernels with a negative
//   weight and f32 output keep float arithmetic.
// - K = 3 on the 16-bit path has no ring at all (three_tap_words.hpp): column blocks walked down
//   the image with the two previous row sums in registers, bytes split into even and odd words
//   without shuffles, OpenCV's [1 2 1] Gaussian in adds and shifts. At three taps the ring's
//   passes through the caches cost more than the arithmetic: one thread, RGB 2048^2, 2.7-2.8 ms
//   -> 1.4-1.5 ms (docs/cpu.md, "K = 3 without a ring").
// - Portable: the vector types follow the target (AVX-512BW, AVX2, SSE2; a plain loop elsewhere),
//   chosen at compile time (-march=native unless CONVLAB_NATIVE_ARCH is off), the same source on
//   each; only the conversions and the high-half multiply use intrinsics, each with a fallback.
// - Parallel: the image is cut into horizontal strips (up to four per thread, strip_count), and
//   every (strip, column tile) pair is handed out one at a time (for_each_strip), so a thread
//   whose core runs slower under load takes fewer; a strip filters r rows above and below itself
//   that its neighbours also filter (2r / strip height).
// Float sums run in tap order (row pass kx, then column pass ky) and round half up at the end:
// within the u8 tolerance of the double reference (values_not_exact counts the differences).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "impl/registry.hpp"
#include "impl/strip_lines.hpp"
#include "impl/three_tap_words.hpp"
#include "impl/word_weights.hpp"

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
  static Vec multiply_add(Vec acc, Vec w, Vec x) { return acc + w * x; }  // one FMA
  static void store_block(HostOutput& out, size_t index, const Vec* sums, int) {
    store_sums<kBlockVectors>(out, index, sums, kBlockVectors * kWidth);
  }
  static void store_part(HostOutput& out, size_t index, const Vec* sums, int count, int) {
    store_sums<kBlockVectors>(out, index, sums, count);
  }
};

// Integer arithmetic in 16-bit lanes for u8 output (word_weights.hpp): twice the lanes of a float
// vector. kHighHalf false: exact integer weights, the low half of each product (vpmullw);
// true: fixed-point weights in units of 2^-16, the high half (vpmulhuw). Sums start at the
// weights' row_start / column_start (truncation biases, the final rounding half); the column
// sums are shifted right by `shift`, which gives the output.
template <bool kHighHalf>
struct WordPath {
  using Value = std::uint16_t;
  using Vec = lanes::Words;
  using Weight = std::uint16_t;
  static constexpr int kWidth = lanes::kWordWidth;
  static constexpr int kBlockVectors = lanes::kRegisters >= 32 ? 4 : 2;
  static Vec load(const Value* p) { return lanes::load(p); }
  static void store(Value* p, Vec v) { lanes::store(p, v); }
  static Vec splat(Weight w) { return lanes::splat_word(w); }
  static Vec multiply_add(Vec acc, Vec w, Vec x) {
    if constexpr (kHighHalf)
      return acc + lanes::mulhi(x, w);
    else
      return acc + w * x;
  }
  static void store_block(HostOutput& out, size_t index, const Vec* sums, int shift) {
    std::uint8_t* dst = out.u8_data() + index;
#pragma GCC unroll 4
    for (int b = 0; b < kBlockVectors; ++b)
      lanes::store_words_u8(dst + b * kWidth, sums[b] >> shift, out.streaming());
  }
  static void store_part(HostOutput& out, size_t index, const Vec* sums, int count, int shift) {
    std::uint8_t* dst = out.u8_data() + index;
    for (int b = 0; b < kBlockVectors && b * kWidth < count; ++b) {
      const Vec rounded = sums[b] >> shift;
      for (int i = 0; i < std::min(kWidth, count - b * kWidth); ++i)
        dst[b * kWidth + i] = static_cast<std::uint8_t>(rounded[i]);
    }
  }
};
using ExactWords = WordPath<false>;
using FixedWords = WordPath<true>;

// How one path forms its sums: the factors, the initial sums and the shifts (0 for floats).
template <class P>
struct Arithmetic {
  const typename P::Weight* row = nullptr;
  const typename P::Weight* column = nullptr;
  typename P::Value row_start = 0, column_start = 0;
  int input_shift = 0, shift = 0;
};

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
  for (int b = 0; b < P::kBlockVectors; ++b) acc[b] = P::multiply_add(acc[b], wk, x[b]);
}

// line[i] = row_start + sum over k of w[k] * source[i + k * step], for i < count (a multiple of
// the block). Two blocks at a time where the line has them:
// 2 * kBlockVectors independent sums keep both multiply-add pipes busy through the latency of each.
template <class P, int Taps>
void row_pass(const typename P::Value* source, int step, const Arithmetic<P>& a, int runtime_taps,
              typename P::Value* line, int count) {
  using Vec = typename P::Vec;
  constexpr int kBlockValues = P::kBlockVectors * P::kWidth;
  const int taps = Taps > 0 ? Taps : runtime_taps;  // Taps > 0: K fixed at compile time
  const Vec start = P::splat(a.row_start);
  int i = 0;
  for (; i + 2 * kBlockValues <= count; i += 2 * kBlockValues) {
    Vec acc[P::kBlockVectors], acc2[P::kBlockVectors], x[P::kBlockVectors], x2[P::kBlockVectors];
#pragma GCC unroll 4
    for (int b = 0; b < P::kBlockVectors; ++b) acc[b] = acc2[b] = start;
    for (int k = 0; k < taps; ++k) {
      load_block<P>(source + i + k * step, x);
      load_block<P>(source + i + kBlockValues + k * step, x2);
      multiply_add_into<P>(acc, a.row[k], x);
      multiply_add_into<P>(acc2, a.row[k], x2);
    }
#pragma GCC unroll 4
    for (int b = 0; b < P::kBlockVectors; ++b) {
      P::store(line + i + b * P::kWidth, acc[b]);
      P::store(line + i + kBlockValues + b * P::kWidth, acc2[b]);
    }
  }
  for (; i < count; i += kBlockValues) {
    Vec acc[P::kBlockVectors], x[P::kBlockVectors];
#pragma GCC unroll 4
    for (int b = 0; b < P::kBlockVectors; ++b) acc[b] = start;
    for (int k = 0; k < taps; ++k) {
      load_block<P>(source + i + k * step, x);
      multiply_add_into<P>(acc, a.row[k], x);
    }
#pragma GCC unroll 4
    for (int b = 0; b < P::kBlockVectors; ++b) P::store(line + i + b * P::kWidth, acc[b]);
  }
}

// Output rows y .. y + Rows - 1 from ring lines lines[0 .. K + Rows - 2] (line j holds input row
// y - r + j): row p = column_start + sum over ky of w[ky] * lines[p + ky]. Each line is loaded once
// per block and feeds every row whose window holds it, so a sweep loads K + Rows - 1 lines for
// Rows * K multiply-adds; the Rows x kBlockVectors sums stay in registers.
template <class P, int Rows, int Taps>
void column_sweep(const typename P::Value* const* lines, const Arithmetic<P>& a, int runtime_taps,
                  int values, HostOutput& out, const size_t* row_index) {
  using Vec = typename P::Vec;
  constexpr int kBlockValues = P::kBlockVectors * P::kWidth;
  const int taps = Taps > 0 ? Taps : runtime_taps;  // Taps > 0: K fixed, the line loop unrolls
  const typename P::Weight* w = a.column;
  const Vec start = P::splat(a.column_start);
  // One block of kBlockValues values of every row; whole blocks store straight from registers,
  // and only the last block of a row that ends inside it (kWhole false) goes through memory, in
  // its own copy of the loop so the whole blocks' sums are never spilled for it.
  auto block = [&](int i, auto whole) {
    // One array of sums per output row, each set vector by vector: a single Rows x blocks
    // array is too large for the compiler to keep in registers (it went to the stack, zeroed by
    // a memset per block).
    Vec acc0[P::kBlockVectors], acc1[P::kBlockVectors], acc2[P::kBlockVectors],
        acc3[P::kBlockVectors], x[P::kBlockVectors];
    static_assert(Rows <= 4, "four arrays of sums");
    Vec* const acc[4] = {acc0, acc1, acc2, acc3};
#pragma GCC unroll 4
    for (int b = 0; b < P::kBlockVectors; ++b) acc0[b] = acc1[b] = acc2[b] = acc3[b] = start;
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
#pragma GCC unroll 4
    for (int p = 0; p < Rows; ++p) {
      if constexpr (decltype(whole)::value)
        P::store_block(out, row_index[p] + i, acc[p], a.shift);
      else
        P::store_part(out, row_index[p] + i, acc[p], values - i, a.shift);
    }
  };
  int i = 0;
  for (; i + kBlockValues <= values; i += kBlockValues) block(i, std::true_type{});
  if (i < values) block(i, std::false_type{});
}

// Per-thread memory, allocated when the point is prepared; float or 16-bit values by the path.
struct Scratch {
  lanes::AlignedFloats segment;            // one converted input row segment (tile plus halo)
  lanes::AlignedFloats ring;               // ring_lines lines of `stride` values
  std::vector<const float*> float_window;  // the ring lines of one sweep
  std::vector<const std::uint16_t*> word_window;
  const float** window(const float*) { return float_window.data(); }
  const std::uint16_t** window(const std::uint16_t*) { return word_window.data(); }
};

class FusedPoint : public PreparedPoint {
 public:
  FusedPoint(const Problem& problem, const Params& params)
      : problem_(problem),
        threads_(params.value("threads", 1)),
        strips_(params.value("strips", 0)),
        out_(problem.output, problem.input.value_count()),
        words_(word_weights(problem.filter, problem.output)) {
    out_.set_streaming(params.value("stream", std::string("auto")));
    const Image& in = problem.input;
    const int k = problem.filter.size;
    ring_lines_ = k + kRowsPerSweep - 1;
    const size_t value_bytes = words_ ? sizeof(std::uint16_t) : sizeof(float);
    const int block_values = words_ ? ExactWords::kBlockVectors * ExactWords::kWidth
                                    : FloatPath::kBlockVectors * FloatPath::kWidth;
    const int tile_param = params.value("tile", 0);
    tiles_ = column_tiles(
        in.width, tile_param > 0
                      ? tile_param
                      : tile_pixels_for(ring_lines_, in.channels, kRingBudgetBytes, value_bytes));
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
    if (words_ && k == 3 && ThreeTapWords::applies(*words_))
      three_taps_.emplace(*words_, problem.border, in.channels, threads_, widest_tile(tiles_));
  }

  std::optional<PhaseTimes> execute() override {
    for_each_strip(
        threads_, strips_, problem_.input.height, problem_.filter.size, tiles_,
        [this](RowRange strip, ColumnTile tile, int thread) {
          Scratch& s = scratch_[thread];
          if (three_taps_)
            three_taps_->filter(problem_.input, strip, tile, out_, thread);
          else if (!words_)
            filter_tile_for_size<FloatPath>(strip, tile, s, float_arithmetic());
          else if (words_->kind == WordWeights::Kind::exact)
            filter_tile_for_size<ExactWords>(strip, tile, s, word_arithmetic<ExactWords>());
          else
            filter_tile_for_size<FixedWords>(strip, tile, s, word_arithmetic<FixedWords>());
        });
    return std::nullopt;
  }

  OutputView output() const override { return out_.view(); }

 private:
  Arithmetic<FloatPath> float_arithmetic() const {
    Arithmetic<FloatPath> a;
    a.row = problem_.filter.row.data();
    a.column = problem_.filter.column.data();
    return a;
  }

  template <class P>
  Arithmetic<P> word_arithmetic() const {
    Arithmetic<P> a;
    a.row = words_->row.data();
    a.column = words_->column.data();
    a.row_start = words_->row_start;
    a.column_start = words_->column_start;
    a.input_shift = words_->input_shift;
    a.shift = words_->shift;
    return a;
  }

  // K = 3 .. 11 compiled with K fixed (the common sizes: the tap loops unroll and each row's
  // window test is decided at compile time); any other K with K taken at run time.
  template <class P>
  void filter_tile_for_size(RowRange strip, ColumnTile tile, Scratch& s, const Arithmetic<P>& a) {
    switch (problem_.filter.size) {
      case 3:
        return filter_tile<P, 3>(strip, tile, s, a);
      case 5:
        return filter_tile<P, 5>(strip, tile, s, a);
      case 7:
        return filter_tile<P, 7>(strip, tile, s, a);
      case 9:
        return filter_tile<P, 9>(strip, tile, s, a);
      case 11:
        return filter_tile<P, 11>(strip, tile, s, a);
      default:
        return filter_tile<P, 0>(strip, tile, s, a);
    }
  }

  template <class P, int Taps>
  void filter_tile(RowRange strip, ColumnTile tile, Scratch& s, const Arithmetic<P>& a) {
    using Value = typename P::Value;
    constexpr int kBlockValues = P::kBlockVectors * P::kWidth;
    using Sweep =
        void (*)(const Value* const*, const Arithmetic<P>&, int, int, HostOutput&, const size_t*);
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
                          segment, a.input_shift);
      // The rows of the next sweep are converted after this sweep: fetch them meanwhile.
      prefetch_row_segment(in, v + kRowsPerSweep, tile.begin - r, tile.end - tile.begin + 2 * r);
      row_pass<P, Taps>(segment, c, a, k, line, padded);
    };
    const Value** lines = s.window(segment);
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
      kSweeps[rows - 1](lines, a, k, values, out_, row_index);
    }
  }

  Problem problem_;
  int threads_;
  int strips_;
  HostOutput out_;
  std::optional<WordWeights> words_;  // 16-bit arithmetic, when the kernel and output allow it
  std::optional<ThreeTapWords> three_taps_;  // K = 3 in 16-bit lanes: no ring (three_tap_words.hpp)
  int ring_lines_ = 0;
  int stride_ = 0;  // values per ring line
  std::vector<ColumnTile> tiles_;
  std::vector<Scratch> scratch_;  // one per thread
};

}  // namespace

Implementation make_cpu_fused_implementation() {
  Implementation impl;
  impl.name = "cpu_fused";
  impl.family = Family::cpu;
  impl.thread_pool = kOpenMpThreadPool;
  impl.description =
      "rank-1 kernels: per-thread strips, row pass into a ring of K+3 lines, column pass from it "
      "4 rows at a time (no image-sized intermediate); u8 with non-negative weights in 16-bit "
      "integers (exact for small dyadic weights, else fixed point within a proven bound); K=3 "
      "there without a ring: column blocks walked down with the row sums in registers";
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
