// Rung 4, cuda_separable: for rank-1 kernels (Gaussian, box, Sobel, ...), filter the rows with the
// K-tap row factor, then the columns with the K-tap column factor: 2K multiply-adds per value
// instead of K^2. The factors come from the kernel library (Filter::row, Filter::column); a kernel
// that does not factor is skipped with that reason.
//
// Both passes are tiled like rung 3: a block owns a tile x tile output tile and stages its
// footprint in shared memory, which for a one-dimensional pass is tile x (tile + K - 1) values (row
// pass) or (tile + K - 1) x tile values (column pass). The row pass converts the u8 input to float
// once while loading and writes a float intermediate image (never rounded to u8 between the
// passes); the column pass reads it and converts to the output type. Border handling splits per
// axis: the row pass maps columns, the column pass maps rows of the intermediate, which gives
// exactly the two-dimensional border of the direct variants. Coefficients live in __constant__
// memory. The intermediate costs one extra float write and read per value through DRAM/L2; fusing
// the passes in one kernel would avoid it.
//
// Axes: tile, block [x, y], layout, streams (as rung 3).
#include <cstdint>
#include <vector>

#include "core/border.hpp"
#include "impl/cuda/kernel_plan.cuh"

namespace convlab::cuda {
namespace {

// Each factor gets kFactorCapacity floats of __constant__ memory (K <= 1024).
constexpr int kFactorCapacity = 1024;
__constant__ float c_row[kFactorCapacity];
__constant__ float c_column[kFactorCapacity];

// Shared memory of either pass: tile x (tile + K - 1) values of `channels` floats.
size_t pass_shared_bytes(int tile, int ksize, int channels) {
  return static_cast<size_t>(tile) * (tile + ksize - 1) * channels * sizeof(float);
}

// Row pass: intermediate(x, y) = sum_kx row[kx] * in(x + kx - r, y), for the rows of the image.
template <int KT, int C>
__global__ void row_pass_kernel(const std::uint8_t* __restrict__ in, float* __restrict__ mid,
                                int width, int height, int ksize, Border border, int tile) {
  extern __shared__ float s_rows[];  // tile rows of (tile + K - 1) pixels x C, interleaved
  const int K = KT > 0 ? KT : ksize;
  const int r = K / 2;
  const int span = tile + K - 1;
  const int row_values = span * C;
  const int x0 = blockIdx.x * tile;
  const int y0 = blockIdx.y * tile;
  const int left = x0 - r;
  const bool row_inside = left >= 0 && left + span <= width;

  for (int sy = threadIdx.y; sy < tile; sy += blockDim.y) {
    const int gy = y0 + sy;
    if (gy >= height) break;
    float* dst = s_rows + sy * row_values;
    const std::uint8_t* src_row = in + static_cast<size_t>(gy) * width * C;
    load_row_span<C>(dst, src_row, left, span, width, border, row_inside);
  }
  __syncthreads();

  for (int oy = threadIdx.y; oy < tile; oy += blockDim.y) {
    const int y = y0 + oy;
    if (y >= height) break;
    for (int ox = threadIdx.x; ox < tile; ox += blockDim.x) {
      const int x = x0 + ox;
      if (x >= width) break;
      float acc[C];
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] = 0.0f;
      const float* base = s_rows + oy * row_values + ox * C;
#pragma unroll
      for (int kx = 0; kx < K; ++kx) {
        const float w = c_row[kx];
#pragma unroll
        for (int c = 0; c < C; ++c) acc[c] = fmaf(w, base[kx * C + c], acc[c]);
      }
      const size_t o = (static_cast<size_t>(y) * width + x) * C;
#pragma unroll
      for (int c = 0; c < C; ++c) mid[o + c] = acc[c];
    }
  }
}

// Column pass: out(x, y) = sum_ky column[ky] * intermediate(x, y + ky - r), rows border-mapped.
template <int KT, int C, typename OutT>
__global__ void column_pass_kernel(const float* __restrict__ mid, OutT* __restrict__ out, int width,
                                   int height, int ksize, Border border, int tile) {
  extern __shared__ float s_cols[];  // (tile + K - 1) rows of tile pixels x C, interleaved
  const int K = KT > 0 ? KT : ksize;
  const int r = K / 2;
  const int span = tile + K - 1;
  const int row_values = tile * C;
  const int x0 = blockIdx.x * tile;
  const int y0 = blockIdx.y * tile;
  const int valid_values = min(tile, width - x0) * C;  // the tile's columns inside the image

  for (int sy = threadIdx.y; sy < span; sy += blockDim.y) {
    float* dst = s_cols + sy * row_values;
    const int gy = map_border_index(y0 - r + sy, height, border);
    if (gy == kOutsideImage) {
      for (int v = threadIdx.x; v < valid_values; v += blockDim.x) dst[v] = 0.0f;
      continue;
    }
    const float* src = mid + (static_cast<size_t>(gy) * width + x0) * C;
    for (int v = threadIdx.x; v < valid_values; v += blockDim.x) dst[v] = src[v];
  }
  __syncthreads();

  for (int oy = threadIdx.y; oy < tile; oy += blockDim.y) {
    const int y = y0 + oy;
    if (y >= height) break;
    for (int ox = threadIdx.x; ox < tile; ox += blockDim.x) {
      const int x = x0 + ox;
      if (x >= width) break;
      float acc[C];
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] = 0.0f;
      const float* base = s_cols + oy * row_values + ox * C;
#pragma unroll
      for (int ky = 0; ky < K; ++ky) {
        const float w = c_column[ky];
#pragma unroll
        for (int c = 0; c < C; ++c) acc[c] = fmaf(w, base[ky * row_values + c], acc[c]);
      }
      const size_t o = (static_cast<size_t>(y) * width + x) * C;
#pragma unroll
      for (int c = 0; c < C; ++c) store_output(out, o + c, acc[c]);
    }
  }
}

class SeparablePlan final : public KernelPlan {
 public:
  SeparablePlan(const ProblemDesc& problem, const LaunchParams& params)
      : ksize_(problem.ksize),
        border_(problem.border),
        output_(problem.output),
        params_(params),
        row_(problem.row, problem.row + problem.ksize),
        column_(problem.column, problem.column + problem.ksize) {
    const int channels = launch_channels(problem, params);
    const size_t bytes = pass_shared_bytes(params_.tile, ksize_, channels);
    for_kernels(channels, [&](auto row_kernel, auto column_kernel, auto) {
      allow_shared_bytes(row_kernel, bytes);
      allow_shared_bytes(column_kernel, bytes);
    });
  }

  bool needs_scratch() const override { return true; }

  void before_timing(cudaStream_t stream) override {
    upload_constant(c_row, row_, stream);
    upload_constant(c_column, column_, stream);
  }

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    const int tile = params_.tile;
    const dim3 block(params_.block_x, params_.block_y);
    const dim3 grid(ceil_div(image.width, tile), ceil_div(image.height, tile));
    const size_t bytes = pass_shared_bytes(tile, ksize_, image.channels);
    for_kernels(image.channels, [&](auto row_kernel, auto column_kernel, auto out_type) {
      using OutT = decltype(out_type);
      row_kernel<<<grid, block, bytes, stream>>>(image.in, image.scratch, image.width, image.height,
                                                 ksize_, border_, tile);
      CONVLAB_CUDA_CHECK_LAUNCH("row_pass_kernel");
      column_kernel<<<grid, block, bytes, stream>>>(image.scratch, static_cast<OutT*>(image.out),
                                                    image.width, image.height, ksize_, border_,
                                                    tile);
      CONVLAB_CUDA_CHECK_LAUNCH("column_pass_kernel");
    });
  }

 private:
  // Calls f(row kernel, column kernel, OutT{}) for this point's K, `channels` and output type.
  template <typename F>
  void for_kernels(int channels, F&& f) {
    with_point_types(ksize_, channels, output_, [&](auto kt, auto c, auto out_type) {
      using OutT = decltype(out_type);
      constexpr int KT = decltype(kt)::value;
      constexpr int C = decltype(c)::value;
      f(&row_pass_kernel<KT, C>, &column_pass_kernel<KT, C, OutT>, OutT{});
    });
  }

  int ksize_;
  Border border_;
  OutputType output_;
  TiledLaunch params_;
  std::vector<float> row_;
  std::vector<float> column_;
};

}  // namespace

std::optional<std::string> separable_unsupported(const ProblemDesc& problem,
                                                 const LaunchParams& params, int device) {
  if (problem.ksize > kFactorCapacity)
    return "kernel size " + std::to_string(problem.ksize) + " exceeds the " +
           std::to_string(kFactorCapacity) + " taps of __constant__ memory reserved per factor";
  const TiledLaunch launch(params);
  if (auto reason = block_unsupported(launch, device)) return reason;
  const int channels = launch_channels(problem, params);
  return shared_bytes_unsupported(pass_shared_bytes(launch.tile, problem.ksize, channels), device,
                                  tile_description(launch.tile, problem.ksize, channels));
}

std::unique_ptr<KernelPlan> make_separable_plan(const ProblemDesc& problem,
                                                const LaunchParams& params, int) {
  return std::make_unique<SeparablePlan>(problem, params);
}

}  // namespace convlab::cuda
