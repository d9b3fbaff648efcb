// The vendor peer, npp: NVIDIA NPP's nppiFilterBorder32f_8u_C1R_Ctx / _C3R_Ctx on the same image
// and kernel, through the same buffers, layouts and timing as the convlab rungs, so the comparison
// is like for like. Compiled only when CMake found the NPP headers and libnppif/libnppc.
//
// NPP filters compute a convolution: they expect the coefficients in reverse order. convlab
// computes a correlation (weights[ky * K + kx] multiplies input(x + kx - r, y + ky - r)), so the
// plan uploads the KxK matrix reversed and the results agree also for asymmetric kernels. These
// calls support only the replicate border and write u8; other borders and f32 output are skipped
// (by the registration) with that reason.
#include <nppi_filtering_functions.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "impl/cuda/buffers.cuh"
#include "impl/cuda/kernel_plan.cuh"

// Wraps one NPP call: a status other than NPP_SUCCESS (warnings included) throws, naming the call.
#define CONVLAB_NPP_CHECK(call)                                                                \
  do {                                                                                         \
    const NppStatus convlab_npp_status_ = (call);                                              \
    if (convlab_npp_status_ != NPP_SUCCESS)                                                    \
      throw std::runtime_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " + \
                               #call + " failed: NPP status " +                                \
                               std::to_string(static_cast<int>(convlab_npp_status_)));         \
  } while (0)

namespace convlab::cuda {
namespace {

class NppPlan final : public KernelPlan {
 public:
  NppPlan(const ProblemDesc& problem, int device) : ksize_(problem.ksize), device_(device) {
    const size_t taps = static_cast<size_t>(ksize_) * ksize_;
    std::vector<float> reversed(problem.weights, problem.weights + taps);
    std::reverse(reversed.begin(), reversed.end());
    kernel_.reserve(taps * sizeof(float));
    CONVLAB_CUDA_CHECK(
        cudaMemcpy(kernel_.data(), reversed.data(), taps * sizeof(float), cudaMemcpyHostToDevice));
    CONVLAB_CUDA_CHECK(cudaGetDeviceProperties(&prop_, device_));
  }

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    const NppStreamContext& ctx = context(stream);
    const NppiSize size{image.width, image.height};
    const NppiPoint offset{0, 0};
    const NppiSize kernel_size{ksize_, ksize_};
    const NppiPoint anchor{ksize_ / 2, ksize_ / 2};
    const int step = image.width * image.channels;
    auto* out = static_cast<Npp8u*>(image.out);
    if (image.channels == 3) {
      CONVLAB_NPP_CHECK(nppiFilterBorder32f_8u_C3R_Ctx(
          image.in, step, size, offset, out, step, size, kernel_.as<const Npp32f>(), kernel_size,
          anchor, NPP_BORDER_REPLICATE, ctx));
    } else {
      CONVLAB_NPP_CHECK(nppiFilterBorder32f_8u_C1R_Ctx(
          image.in, step, size, offset, out, step, size, kernel_.as<const Npp32f>(), kernel_size,
          anchor, NPP_BORDER_REPLICATE, ctx));
    }
    CONVLAB_CUDA_CHECK_LAUNCH("nppiFilterBorder32f_8u");
  }

 private:
  // NPP 13 takes the stream and the device facts in a context; one per stream used.
  const NppStreamContext& context(cudaStream_t stream) {
    auto it = contexts_.find(stream);
    if (it != contexts_.end()) return it->second;
    NppStreamContext ctx{};
    ctx.hStream = stream;
    ctx.nCudaDeviceId = device_;
    ctx.nMultiProcessorCount = prop_.multiProcessorCount;
    ctx.nMaxThreadsPerMultiProcessor = prop_.maxThreadsPerMultiProcessor;
    ctx.nMaxThreadsPerBlock = prop_.maxThreadsPerBlock;
    ctx.nSharedMemPerBlock = prop_.sharedMemPerBlock;
    ctx.nCudaDevAttrComputeCapabilityMajor = prop_.major;
    ctx.nCudaDevAttrComputeCapabilityMinor = prop_.minor;
    CONVLAB_CUDA_CHECK(cudaStreamGetFlags(stream, &ctx.nStreamFlags));
    return contexts_.emplace(stream, ctx).first->second;
  }

  int ksize_;
  int device_;
  cudaDeviceProp prop_{};
  DeviceBuffer kernel_;
  std::map<cudaStream_t, NppStreamContext> contexts_;
};

}  // namespace

bool npp_built() {
  return true;
}

std::optional<std::string> npp_unsupported(const ProblemDesc& problem, const LaunchParams&, int) {
  const long long step = static_cast<long long>(problem.width) * problem.channels;
  if (step > 0x7fffffff) return std::string("image rows too wide for NPP's 32-bit step");
  return std::nullopt;
}

std::unique_ptr<KernelPlan> make_npp_plan(const ProblemDesc& problem, const LaunchParams&,
                                          int device) {
  return std::make_unique<NppPlan>(problem, device);
}

}  // namespace convlab::cuda
