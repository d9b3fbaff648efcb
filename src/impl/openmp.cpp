// openmp: the sequential loops, rows shared among threads with the point's thread count and
// schedule. Same arithmetic per value, so u8 output is bit-identical to sequential.
#include "impl/direct_loops.hpp"
#include "impl/openmp_schedule.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

class OpenmpPoint : public DirectLoopsPoint {
 public:
  OpenmpPoint(const Problem& problem, const Params& params)
      : DirectLoopsPoint(problem), settings_(openmp_settings(params)) {}
  std::optional<PhaseTimes> execute() override {
    apply_schedule(settings_);
    const int height = problem_.input.height;
#pragma omp parallel for num_threads(settings_.threads) schedule(runtime)
    for (int y = 0; y < height; ++y) direct_convolve_row(problem_, out_, y);
    return std::nullopt;
  }

 private:
  OpenmpSettings settings_;
};

}  // namespace

Implementation make_openmp_implementation() {
  Implementation impl;
  impl.name = "openmp";
  impl.family = Family::cpu;
  impl.thread_pool = kOpenMpThreadPool;
  impl.description = "the sequential loops, image rows shared among OpenMP threads";
  impl.estimated_macs_per_thread_second = 0.7e9;  // the sequential loops
  impl.axes = openmp_axes();
  impl.unsupported = [](const Problem&, const Params&, const RunContext&) {
    return std::optional<std::string>();
  };
  impl.prepare = [](const Problem& problem, const Params& params, const RunContext&) {
    return std::unique_ptr<PreparedPoint>(new OpenmpPoint(problem, params));
  };
  return impl;
}

}  // namespace convlab
