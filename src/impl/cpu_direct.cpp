// cpu_direct: direct KxK convolution for kernels that are not separable (LoG, DoG, emboss,
// custom), the register-blocked successor of `cpu_rows`. What changes relative to cpu_rows, and
// why it is faster:
// - No image-sized float copy. cpu_rows converts the whole image to padded float rows first (4
//   bytes written and read back per input byte). Here a thread filters a horizontal strip and keeps
//   only a ring of K + 3 converted input lines of one column tile (border applied), small enough to
//   stay in the core's cache (kRingBudgetBytes).
// - Four output rows per sweep: each input vector loaded from the ring feeds the multiply-adds of
//   every output row whose window holds that line (up to four), so a tap costs about
//   (K + 3) / (4K) loads instead of one; sixteen independent sums (4 rows x 64 values) hide the
//   multiply-add latency. cpu_rows holds 64 values of one row in eight 8-float vectors.
// - Wide vectors: lanes::Floats, one AVX-512 register each with -march=native.
// - Kernel size known at compile time for K = 3, 5, 7, 9, 11: the tap loops unroll completely and
//   each weight is a broadcast operand of its multiply-add; other sizes take the same loop with K
//   at run time.
// - Parallel: horizontal strips (up to four per thread, strip_count), each (strip, column tile)
//   pair handed out one at a time (for_each_strip); a strip converts the r rows above and below
//   it that its neighbours convert too.
// Sums are float with the taps in the naive loops' order (ky, then kx), so results are those of
// cpu_rows up to the order of float additions.
#include <omp.h>

#include <algorithm>

#include "impl/registry.hpp"
#include "impl/strip_lines.hpp"

namespace convlab {
namespace {

using lanes::Floats;

// Sums of 4 rows x kBlockVectors vectors, plus the loaded vectors, must fit the register file.
constexpr int kBlockVectors = lanes::kRegisters >= 32 ? 4 : 2;  // vectors per row of a block
constexpr int kBlockValues = kBlockVectors * lanes::kWidth;     // 64 values
constexpr int kRowsPerSweep = 4;                                // output rows per sweep
constexpr size_t kRingBudgetBytes = 256 * 1024;                 // ring of one tile, per thread

// Output rows p = 0 .. Rows - 1 of one block of 64 values at value offset i:
// out[p] = sum over ky, kx of w[ky * K + kx] * lines[p + ky][i + kx * step].
// KC is K when it is known at compile time (0 otherwise, then `taps` is used).
template <int KC, int Rows>
void direct_block(const float* const* lines, const float* w, int taps, int step, int i,
                  Floats (&acc)[Rows][kBlockVectors]) {
  const int k = KC > 0 ? KC : taps;
  for (int j = 0; j < k + Rows - 1; ++j) {
    const float* line = lines[j] + i;
    for (int kx = 0; kx < k; ++kx) {
      Floats x[kBlockVectors];
      for (int b = 0; b < kBlockVectors; ++b)
        x[b] = lanes::load(line + kx * step + b * lanes::kWidth);
      for (int p = 0; p < Rows; ++p) {
        const int ky = j - p;
        if (ky < 0 || ky >= k) continue;
        const Floats wk = lanes::splat(w[ky * k + kx]);
        for (int b = 0; b < kBlockVectors; ++b) acc[p][b] += wk * x[b];
      }
    }
  }
}

template <int KC, int Rows>
void direct_sweep(const float* const* lines, const float* w, int taps, int step, int values,
                  HostOutput& out, const size_t* row_index) {
  for (int i = 0; i < values; i += kBlockValues) {
    Floats acc[Rows][kBlockVectors] = {};
    direct_block<KC, Rows>(lines, w, taps, step, i, acc);
    const int count = std::min(kBlockValues, values - i);
    for (int p = 0; p < Rows; ++p) store_sums<kBlockVectors>(out, row_index[p] + i, acc[p], count);
  }
}

using SweepFunction = void (*)(const float* const*, const float*, int, int, int, HostOutput&,
                               const size_t*);

// Sweeps for 1 .. kRowsPerSweep rows (a strip's last rows), with K fixed when it is one of the
// unrolled sizes.
template <int KC>
std::vector<SweepFunction> sweeps_for() {
  return {direct_sweep<KC, 1>, direct_sweep<KC, 2>, direct_sweep<KC, 3>, direct_sweep<KC, 4>};
}

std::vector<SweepFunction> sweeps_for_size(int k) {
  static_assert(kRowsPerSweep == 4, "sweeps_for lists one sweep per row count");
  switch (k) {
    case 3:
      return sweeps_for<3>();
    case 5:
      return sweeps_for<5>();
    case 7:
      return sweeps_for<7>();
    case 9:
      return sweeps_for<9>();
    case 11:
      return sweeps_for<11>();
    default:
      return sweeps_for<0>();
  }
}

struct Scratch {
  lanes::AlignedFloats ring;  // ring_lines converted input lines of `stride` floats
  std::vector<const float*> window;
};

class DirectPoint : public PreparedPoint {
 public:
  DirectPoint(const Problem& problem, const Params& params)
      : problem_(problem),
        threads_(params.value("threads", 1)),
        strips_(params.value("strips", 0)),
        out_(problem.output, problem.input.value_count()),
        sweeps_(sweeps_for_size(problem.filter.size)) {
    out_.set_streaming(params.value("stream", std::string("auto")));
    const Image& in = problem.input;
    const int k = problem.filter.size;
    ring_lines_ = k + kRowsPerSweep - 1;
    const int tile_param = params.value("tile", 0);
    tiles_ = column_tiles(
        in.width,
        tile_param > 0 ? tile_param : tile_pixels_for(ring_lines_, in.channels, kRingBudgetBytes));
    // A line holds the tile plus r pixels each side, and reads run up to 64 values past the tile.
    stride_ = lanes::round_up(widest_tile(tiles_) * in.channels, kBlockValues) +
              (k - 1) * in.channels + kBlockValues;
    scratch_.resize(threads_);
    for (Scratch& s : scratch_) {
      s.ring = lanes::AlignedFloats(static_cast<size_t>(ring_lines_) * stride_);
      s.window.resize(ring_lines_);
    }
  }

  std::optional<PhaseTimes> execute() override {
    for_each_strip(threads_, strips_, problem_.input.height, problem_.filter.size, tiles_,
                   [this](RowRange strip, ColumnTile tile, int thread) {
                     filter_tile(strip, tile, scratch_[thread]);
                   });
    return std::nullopt;
  }

  OutputView output() const override { return out_.view(); }

 private:
  void filter_tile(RowRange strip, ColumnTile tile, Scratch& s) {
    const Image& in = problem_.input;
    const Filter& f = problem_.filter;
    const int r = f.radius(), c = in.channels;
    const int values = (tile.end - tile.begin) * c;
    auto line_of = [&](int v) {
      return s.ring.data() + static_cast<size_t>(positive_modulo(v, ring_lines_)) * stride_;
    };
    auto convert_input_row = [&](int v) {
      float* line = line_of(v);
      const int sy = map_border_index(v, in.height, problem_.border);
      if (sy == kOutsideImage)
        std::fill(line, line + stride_, 0.f);
      else
        convert_row_segment(in, sy, tile.begin - r, tile.end - tile.begin + 2 * r, problem_.border,
                            line);
    };
    int next = strip.begin - r;  // next virtual input row to enter the ring
    for (int y = strip.begin; y < strip.end; y += kRowsPerSweep) {
      const int rows = std::min(kRowsPerSweep, strip.end - y);
      while (next <= y + rows - 1 + r) convert_input_row(next++);
      for (int j = 0; j < f.size + rows - 1; ++j) s.window[j] = line_of(y - r + j);
      size_t row_index[kRowsPerSweep];
      for (int p = 0; p < rows; ++p)
        row_index[p] = (static_cast<size_t>(y + p) * in.width + tile.begin) * c;
      sweeps_[rows - 1](s.window.data(), f.weights.data(), f.size, c, values, out_, row_index);
    }
  }

  Problem problem_;
  int threads_;
  int strips_;
  HostOutput out_;
  std::vector<SweepFunction> sweeps_;
  int ring_lines_ = 0;
  int stride_ = 0;
  std::vector<ColumnTile> tiles_;
  std::vector<Scratch> scratch_;  // one per thread
};

}  // namespace

Implementation make_cpu_direct_implementation() {
  Implementation impl;
  impl.name = "cpu_direct";
  impl.family = Family::cpu;
  impl.thread_pool = kOpenMpThreadPool;
  impl.description =
      "direct KxK: per-thread strips, ring of K+3 converted lines, 4 output rows x 64 values of "
      "sums in registers, K unrolled for 3..11";
  impl.axes = strip_axes();
  impl.unsupported = [](const Problem&, const Params&, const RunContext&) {
    return std::optional<std::string>();
  };
  impl.prepare = [](const Problem& problem, const Params& params, const RunContext&) {
    return std::unique_ptr<PreparedPoint>(new DirectPoint(problem, params));
  };
  return impl;
}

}  // namespace convlab
