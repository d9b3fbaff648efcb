// Rung 2, cuda_constant: the loop of rung 1 with the coefficients in __constant__ memory. All
// threads of a warp read the same coefficient at the same time, which the constant cache serves as
// one broadcast; with K known at compile time the compiler folds each coefficient into the FMA as a
// constant-bank operand, so the per-tap coefficient load of rung 1 disappears. The image is still
// read from global memory per tap.
//
// Capacity: kConstantWeightCapacity floats are reserved for the KxK matrix (K <= 90); a larger
// kernel is skipped with that reason. Axes: block, layout, streams.
#include <cstdint>
#include <vector>

#include "impl/cuda/direct_conv.cuh"

namespace convlab::cuda {
namespace {

// 32 KB of the 64 KB constant bank: room for K up to 90 and for other modules' constants.
constexpr int kConstantWeightCapacity = 8192;
__constant__ float c_weights[kConstantWeightCapacity];

struct ConstantWeights {
  __device__ __forceinline__ float operator()(int i) const { return c_weights[i]; }
};

template <int KT, int C, typename OutT>
__global__ void constant_kernel(const std::uint8_t* __restrict__ in, OutT* __restrict__ out,
                                int width, int height, int ksize, Border border) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  direct_pixel<KT, C>(in, out, width, height, ksize, border, x, y, ConstantWeights{});
}

class ConstantPlan final : public KernelPlan {
 public:
  ConstantPlan(const ProblemDesc& problem, const LaunchParams& params)
      : ksize_(problem.ksize),
        border_(problem.border),
        output_(problem.output),
        params_(params),
        weights_(problem.weights, problem.weights + problem.ksize * problem.ksize) {}

  // c_weights is shared by every point of this variant: copy this point's coefficients in before
  // each repetition (outside the timed region).
  void before_timing(cudaStream_t stream) override { upload_constant(c_weights, weights_, stream); }

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    const dim3 block(params_.block_x, params_.block_y);
    const dim3 grid(ceil_div(image.width, params_.block_x),
                    ceil_div(image.height, params_.block_y));
    with_point_types(ksize_, image.channels, output_, [&](auto kt, auto c, auto out_type) {
      using OutT = decltype(out_type);
      constant_kernel<decltype(kt)::value, decltype(c)::value><<<grid, block, 0, stream>>>(
          image.in, static_cast<OutT*>(image.out), image.width, image.height, ksize_, border_);
      CONVLAB_CUDA_CHECK_LAUNCH("constant_kernel");
    });
  }

 private:
  int ksize_;
  Border border_;
  OutputType output_;
  BlockLaunch params_;
  std::vector<float> weights_;
};

}  // namespace

std::optional<std::string> constant_unsupported(const ProblemDesc& problem,
                                                const LaunchParams& params, int device) {
  if (auto reason = constant_weights_unsupported(problem.ksize, kConstantWeightCapacity))
    return reason;
  return block_unsupported(BlockLaunch(params), device);
}

std::unique_ptr<KernelPlan> make_constant_plan(const ProblemDesc& problem,
                                               const LaunchParams& params, int) {
  return std::make_unique<ConstantPlan>(problem, params);
}

}  // namespace convlab::cuda
