// sequential: the honest naive baseline, one thread, nested loops as in the seed reports.
#include "impl/direct_loops.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

class SequentialPoint : public DirectLoopsPoint {
 public:
  using DirectLoopsPoint::DirectLoopsPoint;
  std::optional<PhaseTimes> execute() override {
    for (int y = 0; y < problem_.input.height; ++y) direct_convolve_row(problem_, out_, y);
    return std::nullopt;
  }
};

}  // namespace

Implementation make_sequential_implementation() {
  Implementation impl;
  impl.name = "sequential";
  impl.family = Family::cpu;
  impl.description = "naive nested loops on one thread, border rule applied per tap";
  impl.baseline_by_default = true;
  impl.estimated_macs_per_thread_second = 0.7e9;  // a tap's border rule, per multiply-add
  impl.unsupported = [](const Problem&, const Params&, const RunContext&) {
    return std::optional<std::string>();
  };
  impl.prepare = [](const Problem& problem, const Params&, const RunContext&) {
    return std::unique_ptr<PreparedPoint>(new SequentialPoint(problem));
  };
  return impl;
}

}  // namespace convlab
