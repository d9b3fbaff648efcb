// cpu_rows: direct convolution reorganised for the CPU's vector units. Relative to `openmp`:
// - the input is converted to float once, with the horizontal border pre-applied (PaddedRows),
//   instead of a border lookup and a u8->float conversion per tap;
// - an output row is a weighted sum of K*K shifted padded rows (weighted_row_sum), computed in
//   blocks whose sums stay in vector registers across all taps: each tap is one contiguous,
//   branch-free load and multiply-add per value;
// - rows are shared among OpenMP threads with the point's schedule.
// Per value the taps are summed in the same order (ky, then kx) as the naive loops.
#include <algorithm>

#include "impl/cpu_output.hpp"
#include "impl/openmp_schedule.hpp"
#include "impl/padded_rows.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

class RowsPoint : public PreparedPoint {
 public:
  RowsPoint(const Problem& problem, const Params& params)
      : problem_(problem),
        settings_(openmp_settings(params)),
        padded_(problem.input, problem.filter.radius()),
        out_(problem.output, problem.input.value_count()) {}

  std::optional<PhaseTimes> execute() override {
    const Image& in = problem_.input;
    const int height = in.height;
    const int row_values = in.width * in.channels;
    const Filter& filter = problem_.filter;
    apply_schedule(settings_);
#pragma omp parallel num_threads(settings_.threads)
    {
#pragma omp for schedule(runtime)
      for (int y = 0; y < height; ++y) padded_.fill_row(y, problem_.border);
      std::vector<Tap> taps;
#pragma omp for schedule(runtime)
      for (int y = 0; y < height; ++y) {
        taps.clear();
        for (int ky = 0; ky < filter.size; ++ky) {
          const int sy = source_row(problem_, y, ky);
          if (sy == kOutsideImage) continue;
          for (int kx = 0; kx < filter.size; ++kx)
            taps.push_back({padded_.row(sy) + kx * in.channels, filter.at(ky, kx)});
        }
        const size_t base = static_cast<size_t>(y) * row_values;
        weighted_row_sum(taps, row_values, [&](int start, const float* sums, int n) {
          out_.store_row(base + start, sums, n);
        });
      }
    }
    return std::nullopt;
  }
  OutputView output() const override {
    return out_.view();
  }

 private:
  Problem problem_;
  OpenmpSettings settings_;
  PaddedRows padded_;
  HostOutput out_;
};

}  // namespace

Implementation make_cpu_rows_implementation() {
  Implementation impl;
  impl.name = "cpu_rows";
  impl.family = Family::cpu;
  impl.thread_pool = kOpenMpThreadPool;
  impl.description =
      "float rows with pre-applied border, register-blocked vectorised multiply-adds, OpenMP";
  impl.axes = openmp_axes();
  impl.unsupported = [](const Problem&, const Params&, const RunContext&) {
    return std::optional<std::string>();
  };
  impl.prepare = [](const Problem& problem, const Params& params, const RunContext&) {
    return std::unique_ptr<PreparedPoint>(new RowsPoint(problem, params));
  };
  return impl;
}

}  // namespace convlab
