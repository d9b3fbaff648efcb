// Rung 3, cuda_shared: tile the output and stage its input footprint in shared memory.
//
// Rung 2 reads K^2 bytes from global memory (L1 at best) per pixel and channel, and converts each
// to float every time. Here a block owns an output tile of `tile` x `tile` pixels. Its threads
// first load the tile's input footprint, (tile + K - 1)^2 pixels with all channels, cooperatively:
// each row of the footprint is a contiguous run of bytes in the interleaved image, read by
// consecutive threads (coalesced), converted to float once and stored in shared memory. Border
// handling happens only here, while loading; the compute loop below never checks a bound. Each
// thread then computes its outputs from shared memory, coefficients in __constant__ memory as in
// rung 2. Every input byte is read from global memory (1 + (K - 1) / tile)^2 times instead of K^2
// times.
//
// Axes: tile (output tile edge in pixels; each block computes tile x tile outputs, each thread
// ceil(tile / block_x) x ceil(tile / block_y) of them), block [x, y], layout, streams. Shared
// memory per block: (tile + K - 1)^2 * channels * 4 bytes; a point beyond the device's opt-in
// limit, or with more threads than a block may have, is skipped with that reason.
#include <cstdint>
#include <vector>

#include "core/border.hpp"
#include "impl/cuda/kernel_plan.cuh"

namespace convlab::cuda {
namespace {

// Coefficients: 32 KB of __constant__ memory, K <= 90 (as rung 2, in this file's own module).
constexpr int kConstantWeightCapacity = 8192;
__constant__ float c_weights[kConstantWeightCapacity];

size_t shared_bytes(int tile, int ksize, int channels) {
  const size_t span = static_cast<size_t>(tile) + ksize - 1;
  return span * span * channels * sizeof(float);
}

template <int KT, int C, typename OutT>
__global__ void shared_kernel(const std::uint8_t* __restrict__ in, OutT* __restrict__ out,
                              int width, int height, int ksize, Border border, int tile) {
  extern __shared__ float s_in[];  // span rows of span pixels x C channels, interleaved
  const int K = KT > 0 ? KT : ksize;
  const int r = K / 2;
  const int span = tile + K - 1;
  const int row_values = span * C;
  const int x0 = blockIdx.x * tile;  // first output pixel of the tile
  const int y0 = blockIdx.y * tile;
  const int left = x0 - r;  // first input column of the footprint
  const bool row_inside = left >= 0 && left + span <= width;

  // 1. Load the footprint: rows strided over threadIdx.y, values of a row over threadIdx.x.
  for (int sy = threadIdx.y; sy < span; sy += blockDim.y) {
    float* dst = s_in + sy * row_values;
    const int gy = map_border_index(y0 - r + sy, height, border);
    if (gy == kOutsideImage) {
      for (int v = threadIdx.x; v < row_values; v += blockDim.x) dst[v] = 0.0f;
      continue;
    }
    const std::uint8_t* src_row = in + static_cast<size_t>(gy) * width * C;
    load_row_span<C>(dst, src_row, left, span, width, border, row_inside);
  }
  __syncthreads();

  // 2. Compute the tile's outputs from shared memory.
  for (int oy = threadIdx.y; oy < tile; oy += blockDim.y) {
    const int y = y0 + oy;
    if (y >= height) break;
    for (int ox = threadIdx.x; ox < tile; ox += blockDim.x) {
      const int x = x0 + ox;
      if (x >= width) break;
      float acc[C];
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] = 0.0f;
      const float* base = s_in + oy * row_values + ox * C;
#pragma unroll
      for (int ky = 0; ky < K; ++ky) {
#pragma unroll
        for (int kx = 0; kx < K; ++kx) {
          const float w = c_weights[ky * K + kx];
#pragma unroll
          for (int c = 0; c < C; ++c) acc[c] = fmaf(w, base[ky * row_values + kx * C + c], acc[c]);
        }
      }
      const size_t o = (static_cast<size_t>(y) * width + x) * C;
#pragma unroll
      for (int c = 0; c < C; ++c) store_output(out, o + c, acc[c]);
    }
  }
}

class SharedPlan final : public KernelPlan {
 public:
  SharedPlan(const ProblemDesc& problem, const LaunchParams& params)
      : ksize_(problem.ksize),
        border_(problem.border),
        output_(problem.output),
        params_(params),
        weights_(problem.weights, problem.weights + problem.ksize * problem.ksize) {
    // Opt in to more than 48 KB of shared memory for the instantiation this point launches.
    const int channels = launch_channels(problem, params);
    const size_t bytes = shared_bytes(params_.tile, ksize_, channels);
    for_kernel(channels, [&](auto kernel, auto) { allow_shared_bytes(kernel, bytes); });
  }

  void before_timing(cudaStream_t stream) override { upload_constant(c_weights, weights_, stream); }

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    const int tile = params_.tile;
    const dim3 block(params_.block_x, params_.block_y);
    const dim3 grid(ceil_div(image.width, tile), ceil_div(image.height, tile));
    const size_t bytes = shared_bytes(tile, ksize_, image.channels);
    for_kernel(image.channels, [&](auto kernel, auto out_type) {
      using OutT = decltype(out_type);
      kernel<<<grid, block, bytes, stream>>>(image.in, static_cast<OutT*>(image.out), image.width,
                                             image.height, ksize_, border_, tile);
      CONVLAB_CUDA_CHECK_LAUNCH("shared_kernel");
    });
  }

 private:
  // Calls f(kernel, OutT{}) with the instantiation for this point's K, `channels` and output type.
  template <typename F>
  void for_kernel(int channels, F&& f) {
    with_point_types(ksize_, channels, output_, [&](auto kt, auto c, auto out_type) {
      using OutT = decltype(out_type);
      f(&shared_kernel<decltype(kt)::value, decltype(c)::value, OutT>, OutT{});
    });
  }

  int ksize_;
  Border border_;
  OutputType output_;
  TiledLaunch params_;
  std::vector<float> weights_;
};

}  // namespace

std::optional<std::string> shared_unsupported(const ProblemDesc& problem,
                                              const LaunchParams& params, int device) {
  if (auto reason = constant_weights_unsupported(problem.ksize, kConstantWeightCapacity))
    return reason;
  const TiledLaunch launch(params);
  if (auto reason = block_unsupported(launch, device)) return reason;
  const int channels = launch_channels(problem, params);
  return shared_bytes_unsupported(shared_bytes(launch.tile, problem.ksize, channels), device,
                                  tile_description(launch.tile, problem.ksize, channels));
}

std::unique_ptr<KernelPlan> make_shared_plan(const ProblemDesc& problem, const LaunchParams& params,
                                             int) {
  return std::make_unique<SharedPlan>(problem, params);
}

}  // namespace convlab::cuda
