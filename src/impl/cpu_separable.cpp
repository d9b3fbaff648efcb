// cpu_separable: for rank-1 kernels, a row pass then a column pass (2K instead of K^2 multiply-
// adds per value). Builds on cpu_rows' padded float rows; the intermediate image stays float and
// is never rounded between the passes. Non-separable kernels are skipped.
#include <algorithm>

#include "impl/cpu_output.hpp"
#include "impl/openmp_schedule.hpp"
#include "impl/padded_rows.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

class SeparablePoint : public PreparedPoint {
 public:
  SeparablePoint(const Problem& problem, const Params& params)
      : problem_(problem),
        settings_(openmp_settings(params)),
        padded_(problem.input, problem.filter.radius()),
        horizontal_(problem.input.value_count()),
        out_(problem.output, problem.input.value_count()) {}

  std::optional<PhaseTimes> execute() override {
    const Image& in = problem_.input;
    const int height = in.height;
    const int row_values = in.width * in.channels;
    const int channels = in.channels;
    const Filter& filter = problem_.filter;
    apply_schedule(settings_);
#pragma omp parallel num_threads(settings_.threads)
    {
      std::vector<Tap> taps;
#pragma omp for schedule(runtime)
      for (int y = 0; y < height; ++y) {
        padded_.fill_row(y, problem_.border);
        taps.clear();
        for (int kx = 0; kx < filter.size; ++kx)
          taps.push_back({padded_.row(y) + kx * channels, filter.row[kx]});
        float* horizontal = &horizontal_[static_cast<size_t>(y) * row_values];
        weighted_row_sum(taps, row_values, [&](int start, const float* sums, int n) {
          std::copy(sums, sums + n, horizontal + start);
        });
      }
#pragma omp for schedule(runtime)
      for (int y = 0; y < height; ++y) {
        taps.clear();
        for (int ky = 0; ky < filter.size; ++ky) {
          const int sy = source_row(problem_, y, ky);
          if (sy != kOutsideImage)
            taps.push_back({&horizontal_[static_cast<size_t>(sy) * row_values], filter.column[ky]});
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
  std::vector<float> horizontal_;
  HostOutput out_;
};

}  // namespace

Implementation make_cpu_separable_implementation() {
  Implementation impl;
  impl.name = "cpu_separable";
  impl.family = Family::cpu;
  impl.thread_pool = kOpenMpThreadPool;
  impl.description = "rank-1 kernels as a row pass then a column pass in float, OpenMP";
  impl.factored = true;
  impl.axes = openmp_axes();
  impl.unmet_need = [](const Problem& problem, const Params&) { return unless_separable(problem); };
  impl.unsupported = [](const Problem& problem, const Params&, const RunContext&) {
    return reason_of(unless_separable(problem));
  };
  impl.prepare = [](const Problem& problem, const Params& params, const RunContext&) {
    return std::unique_ptr<PreparedPoint>(new SeparablePoint(problem, params));
  };
  return impl;
}

}  // namespace convlab
