// Rung 1, cuda_global: the straightforward port. One thread per output pixel computes all channels;
// the image and the KxK coefficients are both read from global memory. Neighbouring threads read
// overlapping footprints, so most of the K^2 reads per pixel hit L1/L2 rather than DRAM, but every
// tap still costs a load of a byte, a conversion to float and a coefficient load. This is the
// baseline the other rungs are measured against.
//
// Axes: block [x, y] (threads per block; x should be a multiple of 32 for coalescing), layout,
// streams.
#include <cstdint>

#include "impl/cuda/buffers.cuh"
#include "impl/cuda/direct_conv.cuh"

namespace convlab::cuda {
namespace {

struct GlobalWeights {
  const float* __restrict__ w;
  __device__ __forceinline__ float operator()(int i) const { return __ldg(w + i); }
};

template <int KT, int C, typename OutT>
__global__ void global_kernel(const std::uint8_t* __restrict__ in, OutT* __restrict__ out,
                              const float* __restrict__ weights, int width, int height, int ksize,
                              Border border) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  direct_pixel<KT, C>(in, out, width, height, ksize, border, x, y, GlobalWeights{weights});
}

class GlobalPlan final : public KernelPlan {
 public:
  GlobalPlan(const ProblemDesc& problem, const LaunchParams& params)
      : ksize_(problem.ksize), border_(problem.border), output_(problem.output), params_(params) {
    copy_to_device(weights_, problem.weights, static_cast<size_t>(ksize_) * ksize_);
  }

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    const dim3 block(params_.block_x, params_.block_y);
    const dim3 grid(ceil_div(image.width, params_.block_x),
                    ceil_div(image.height, params_.block_y));
    with_point_types(ksize_, image.channels, output_, [&](auto kt, auto c, auto out_type) {
      using OutT = decltype(out_type);
      global_kernel<decltype(kt)::value, decltype(c)::value><<<grid, block, 0, stream>>>(
          image.in, static_cast<OutT*>(image.out), weights_.as<const float>(), image.width,
          image.height, ksize_, border_);
      CONVLAB_CUDA_CHECK_LAUNCH("global_kernel");
    });
  }

 private:
  int ksize_;
  Border border_;
  OutputType output_;
  BlockLaunch params_;
  DeviceBuffer weights_;
};

}  // namespace

std::optional<std::string> global_unsupported(const ProblemDesc&, const LaunchParams& params,
                                              int device) {
  return block_unsupported(BlockLaunch(params), device);
}

std::unique_ptr<KernelPlan> make_global_plan(const ProblemDesc& problem, const LaunchParams& params,
                                             int) {
  return std::make_unique<GlobalPlan>(problem, params);
}

}  // namespace convlab::cuda
