// Stands in for the rungs' kernels (k1_global.cu ... k9_tensor_separable.cu, npp/npp_peer.cu) in a
// build whose configure found no GPU (cmake/cuda.cmake, CONVLAB_CUDA_RUNGS): they cannot run on
// such a machine, and compiling them is most of a first build's time. The rest of the CUDA side
// (devices, users' kernels, NVRTC) is built as usual; the tests still compile every rung (target
// convlab_cuda_rungs), and a machine with a GPU builds them into convlab.
#include <stdexcept>

#include "impl/cuda/kernel_plan.cuh"

namespace convlab::cuda {

namespace {
constexpr const char* kRungsNotBuilt =
    "the CUDA rungs are not in this build: no GPU was found when it was configured "
    "(cmake -DCONVLAB_CUDA_RUNGS=ON builds them)";
}

bool npp_built() {
  return false;
}

#define CONVLAB_CUDA_RUNG_NOT_BUILT(stem, ...)                                                   \
  std::optional<std::string> stem##_unsupported(const ProblemDesc&, const LaunchParams&, int) {  \
    return std::string(kRungsNotBuilt);                                                          \
  }                                                                                              \
  std::unique_ptr<KernelPlan> make_##stem##_plan(const ProblemDesc&, const LaunchParams&, int) { \
    throw std::runtime_error(kRungsNotBuilt);                                                    \
  }
CONVLAB_CUDA_RUNGS(CONVLAB_CUDA_RUNG_NOT_BUILT)
#undef CONVLAB_CUDA_RUNG_NOT_BUILT

}  // namespace convlab::cuda
