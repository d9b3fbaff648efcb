// Stands in for npp/npp_peer.cu when CMake found no NPP (headers and libnppif/libnppc). The
// registration skips every npp point with "NPP not found at build time" before reaching these.
#include <stdexcept>

#include "impl/cuda/kernel_plan.cuh"

namespace convlab::cuda {

bool npp_built() {
  return false;
}

std::optional<std::string> npp_unsupported(const ProblemDesc&, const LaunchParams&, int) {
  return std::string("NPP not found at build time");
}

std::unique_ptr<KernelPlan> make_npp_plan(const ProblemDesc&, const LaunchParams&, int) {
  throw std::runtime_error("NPP not found at build time");
}

}  // namespace convlab::cuda
