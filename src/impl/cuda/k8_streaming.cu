// Rung 8, cuda_streaming: each warp walks down a vertical strip of the image on its own, with the
// filter window in registers (the kernel: streaming_kernel.cuh).
//
// What changes relative to the previous rungs, and why it is faster. Rungs 5-7 (register-blocked,
// fused separable, tensor cores) stage every footprint in shared memory as planar float or half:
// one shared byte load and one store per value, a run-time border switch in every row loop, and
// __syncthreads between the phases. At small K that staging, not DRAM, sets the pace (Nsight
// Compute: 11-12 % of DRAM throughput, 68-74 % of the issue slots busy at K = 3), and FRND + F2I
// per output value alone cost about half of the memory floor. Here:
// - A lane fetches 16 interleaved bytes of a row with one 16-byte copy (cp.async into its own
//   slot of a per-warp ring in shared memory, 7 rows ahead) and converts each byte once (a byte
//   permute and an add, or one byte permute for integers); the horizontal halo comes from the
//   neighbouring lanes by shuffles. Only the lane that copied a slot reads it: no __syncthreads.
// - The vertical window is a set of rolling accumulators in registers: each input row is added
//   into the K output rows it belongs to and the finished row leaves as 16-byte stores, so each
//   input byte is read from DRAM once and each output value written once.
// - Borders: warps whose strip lies inside the rows never map a column; the vertical mapping is
//   one scalar test per row and warp. Edge warps take a separate, warp-uniform path.
// - Rounding to u8 is one round-down add and two integer min/max on the bits (no FRND/F2I).
//   Dyadic kernels (every weight an integer over a power of two: OpenCV's default Gaussians,
//   Sobel, Prewitt, Laplacian) give u8 results bit-identical to the correctly rounded reference:
//   summed in pairs of 16-bit integers where the factors are non-negative and the sums fit (the
//   Gaussians K = 3 and 5: fewer instructions than FP32), in 32-bit integers for the signed 3x3
//   kernels, and in FP32 otherwise, where their partial sums are exact as well.
// - Rank-1 kernels: row pass in registers from the shuffled window, column pass into the rolling
//   accumulators: 2K multiply-adds per value with no intermediate in memory.
//
// Measured (H200, RGB 8192x8192 Gaussian, docs/cuda.md): 0.150 ms at K = 3, where rungs 1-7 take
// 0.50-0.56 ms and NPP 0.347 ms.
//
// Limits (each a skip with its reason): rank-1 kernels up to K = 11, others up to K = 7 (the K
// rolling accumulators per value must stay in registers). Axes: `rows` (output rows one warp walks
// down: fewer rows mean more warps and a larger share of the 2r-row prologue), `warps` (warps per
// block, each its own strip), layout, streams.
#include <cstdint>
#include <optional>
#include <string>

#include "impl/cuda/kernel_plan.cuh"
#include "impl/cuda/streaming_arithmetic.hpp"
#include "impl/cuda/streaming_kernel.cuh"

namespace convlab::cuda {

// Instantiated in k8_streaming_k*.cu, one translation unit per group of kernel sizes.
namespace streaming {
#define CONVLAB_STREAMING_SIZE(K) \
  extern template void launch_streaming<K>(const StreamLaunch&, cudaStream_t);
CONVLAB_STREAMING_SIZE(1)
CONVLAB_STREAMING_SIZE(3)
CONVLAB_STREAMING_SIZE(5)
CONVLAB_STREAMING_SIZE(7)
CONVLAB_STREAMING_SIZE(9)
CONVLAB_STREAMING_SIZE(11)
#undef CONVLAB_STREAMING_SIZE
}  // namespace streaming

namespace {

using streaming::Arithmetic;
using streaming::choose_arithmetic;
using streaming::kMaxDirectK;
using streaming::kMaxSeparableK;
using streaming::rank1;

// The rung's axes: output rows one warp walks down, warps per block.
struct StreamingLaunch {
  explicit StreamingLaunch(const LaunchParams& params)
      : rows(params.integer("rows")), warps(params.integer("warps")) {}
  int rows, warps;
};

class StreamingPlan final : public KernelPlan {
 public:
  StreamingPlan(const ProblemDesc& problem, const LaunchParams& params)
      : problem_(problem), params_(params), arithmetic_(choose_arithmetic(problem)) {}

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    streaming::StreamLaunch l;
    l.in = image.in;
    l.out = image.out;
    l.width = image.width;
    l.height = image.height;
    l.channels = image.channels;
    l.rows = params_.rows;
    l.warps = params_.warps;
    l.border = problem_.border;
    l.separable = arithmetic_.separable;
    l.arithmetic = arithmetic_.kind;
    l.f32_out = problem_.output == OutputType::f32;
    l.shift = arithmetic_.shift;
    l.float_taps = arithmetic_.float_taps.data();
    l.int_taps = arithmetic_.int_taps.data();
    switch (problem_.ksize) {
      case 1:
        streaming::launch_streaming<1>(l, stream);
        break;
      case 3:
        streaming::launch_streaming<3>(l, stream);
        break;
      case 5:
        streaming::launch_streaming<5>(l, stream);
        break;
      case 7:
        streaming::launch_streaming<7>(l, stream);
        break;
      case 9:
        streaming::launch_streaming<9>(l, stream);
        break;
      case 11:
        streaming::launch_streaming<11>(l, stream);
        break;
      default:
        throw std::runtime_error("cuda_streaming: K = " + std::to_string(problem_.ksize) +
                                 " is not compiled");
    }
  }

 private:
  ProblemDesc problem_;
  StreamingLaunch params_;
  Arithmetic arithmetic_;
};

}  // namespace

std::optional<std::string> streaming_unsupported(const ProblemDesc& problem,
                                                 const LaunchParams& params, int) {
  const StreamingLaunch launch(params);
  const int k = problem.ksize;
  if (rank1(problem)) {
    if (k > kMaxSeparableK)
      return "rank-1 kernel of size " + std::to_string(k) +
             ": cuda_streaming keeps K rolling "
             "accumulators per value in registers and is compiled up to K = " +
             std::to_string(kMaxSeparableK) + " (cuda_tensor_separable takes larger ones)";
  } else if (k > kMaxDirectK) {
    return "kernel " + std::to_string(k) + "x" + std::to_string(k) +
           " is not separable: cuda_streaming's direct path keeps K x 16 "
           "rolling accumulators per lane in registers and is compiled up to K = " +
           std::to_string(kMaxDirectK);
  }
  if (launch.warps < 1 || launch.warps > streaming::kMaxWarps)
    return "warps " + std::to_string(launch.warps) + " must be 1 to " +
           std::to_string(streaming::kMaxWarps);
  if (launch.rows < 1) return std::string("rows must be positive");
  return segments_unsupported(problem.height, launch.rows);
}

std::unique_ptr<KernelPlan> make_streaming_plan(const ProblemDesc& problem,
                                                const LaunchParams& params, int) {
  return std::make_unique<StreamingPlan>(problem, params);
}

}  // namespace convlab::cuda
