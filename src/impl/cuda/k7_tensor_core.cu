// Rung 7, cuda_tensor: direct convolution on the tensor cores.
//
// What changes relative to rung 5 (cuda_regblock), and why it is faster: rung 5 is bound by the
// FP32 FMA rate (K^2 multiply-adds per value, 128 per clock per SM). The tensor cores multiply
// FP16 matrices at several times that rate, and u8 input values are exact in FP16. One kernel row
// of the correlation, applied to 16 image rows, is a matrix product:
//
//   out[y][o] += sum_i in[y + ky][o0 + i] * T_ky[i][o - o0],   T_ky[i][n] = w[ky][i - n]
//
// (T_ky is a banded Toeplitz matrix: zero where i - n lies outside [0, K)). With the mma shape
// m16n8k16, a warp computes 16 rows x 8 output columns (an n-tile) per instruction from 16 rows x
// 16 input columns (A, loaded from shared memory with ldmatrix) and a 16 x 8 slice of T_ky (B,
// precomputed on the host in the register layout of the instruction). An n-tile needs the input
// columns [8j, 8j + K + 7), that is S = ceil((K + 7) / 16) k-steps; an A fragment at column 8q
// serves every n-tile j = q - 2s, so each is loaded once per kernel row and feeds up to S
// instructions. The Toeplitz zeros are work the tensor cores do in vain: useful fraction
// K / (16 S), 66 % at K = 21, 19 % at K = 3.
//
// Precision. The products of u8 values and FP16 weights are exact in the FP32 accumulators; the
// only new error is the rounding of each weight to FP16 (`weights: fp16`, unit roundoff 2^-11)
// plus flushing weights below 2^-24: |error| <= 255 * (2^-11 * sum|w| + K^2 * 2^-25). For a
// normalised kernel that is 0.125 of a level: inside the u8 tolerance of 1, and the f32 tolerance
// of this rung adds exactly that term. `weights: fp16x2` splits each weight into a high and a low
// FP16 part and runs both products (twice the tensor work on the same A fragments): the weight
// error drops to about 2^-22 relative, below the FP32 accumulation error of the other rungs.
//
// Geometry. A warp computes 16 rows x (8 * n_tiles) pixels of one channel; a block stacks
// `warp_rows` warps per channel plane, planes side by side: tile (8 * n_tiles) x (16 * warp_rows)
// pixels, 32 * warp_rows * C threads. The footprint is staged as planar FP16 with a row pitch of
// an odd number of 16-byte units, so the eight rows ldmatrix reads per matrix hit eight bank
// groups.
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/border.hpp"
#include "impl/cuda/buffers.cuh"
#include "impl/cuda/kernel_plan.cuh"
#include "impl/cuda/mma.cuh"
#include "impl/cuda/planar_staging.cuh"
#include "impl/cuda/tile_store.cuh"

namespace convlab::cuda {
namespace {

constexpr int kMaxKernelSize = 63;
constexpr float kLargestHalf = 65504.0f;

__host__ __device__ constexpr int ksteps(int ksize) {
  return (ksize + 7 + 15) / 16;
}

struct TensorGeometry {
  int n_tiles;
  int warp_rows;
  int channels;
  int ksize;
  __host__ __device__ int tile_w() const { return 8 * n_tiles; }
  __host__ __device__ int tile_h() const { return 16 * warp_rows; }
  __host__ __device__ int span() const { return tile_w() + ksize - 1; }
  // ldmatrix reads columns up to 8 * (n_tiles + 2 (S - 1) - 1) + 16.
  __host__ __device__ int pitch() const {
    const int needed = 8 * n_tiles + 16 * ksteps(ksize) - 8;
    const int cols = needed > span() ? needed : span();
    return ((cols + 15) / 16) * 16 + 8;  // an odd number of 16-byte units
  }
  __host__ __device__ int rows() const { return tile_h() + ksize - 1; }
  __host__ __device__ size_t input_bytes() const {
    return static_cast<size_t>(channels) * rows() * pitch() * sizeof(__half);
  }
  __host__ __device__ size_t output_bytes(size_t value_bytes) const {
    return static_cast<size_t>(tile_h()) * tile_w() * channels * value_bytes;
  }
  __host__ __device__ size_t raw_bytes() const {
    return static_cast<size_t>(rows()) * raw_row_pitch(span(), channels);
  }
  __host__ __device__ size_t raw_offset(size_t value_bytes) const {
    return (input_bytes() + output_bytes(value_bytes) + 15) / 16 * 16;
  }
  // The B fragments of every kernel row, after the raw rows.
  __host__ __device__ size_t fragment_bytes(int parts) const {
    return static_cast<size_t>(ksize) * ksteps(ksize) * parts * 32 * 8;
  }
  __host__ __device__ size_t fragment_offset(size_t value_bytes) const {
    return raw_offset(value_bytes) + (raw_bytes() + 15) / 16 * 16;
  }
  __host__ __device__ size_t shared_bytes(size_t value_bytes, int parts) const {
    return fragment_offset(value_bytes) + fragment_bytes(parts);
  }
};

// Pads each staged row with zeros from `span` to `pitch`: the Toeplitz zeros multiply these
// columns, and 0 * (a stale NaN pattern) would not be 0.
__device__ void zero_padding(__half* data, int rows_total, int span, int pitch) {
  const int pad = pitch - span;
  for (int i = threadIdx.x; i < rows_total * pad; i += blockDim.x) {
    const int row = i / pad;
    data[row * pitch + span + (i - row * pad)] = __float2half_rn(0.0f);
  }
}

// B fragments: [ky][s][part][lane] as uint2 (two half2 registers), built on the host.
template <int KT, int C, int NT, int PARTS, typename OutT>
__global__ void tensor_kernel(const std::uint8_t* __restrict__ in, OutT* __restrict__ out,
                              const uint2* __restrict__ fragments, int width, int height, int ksize,
                              Border border, int warp_rows) {
  extern __shared__ __align__(16) unsigned char s_raw[];
  const TensorGeometry g{NT, warp_rows, C, KT > 0 ? KT : ksize};
  const int K = g.ksize;
  const int r = K / 2;
  const int S = ksteps(K);
  const int x0 = blockIdx.x * g.tile_w();
  const int y0 = blockIdx.y * g.tile_h();
  const Planar<__half> staged{reinterpret_cast<__half*>(s_raw), g.pitch(), g.rows() * g.pitch()};
  OutT* s_out = reinterpret_cast<OutT*>(s_raw + g.input_bytes());

  const RawRows raw{s_raw + g.raw_offset(sizeof(OutT)), raw_row_pitch(g.span(), C)};
  const RowSource source{in, in + static_cast<size_t>(width) * height * C, width, height, border};
  uint2* s_fragments = reinterpret_cast<uint2*>(s_raw + g.fragment_offset(sizeof(OutT)));
  {
    const auto* from = reinterpret_cast<const std::uint8_t*>(fragments);
    auto* to = reinterpret_cast<std::uint8_t*>(s_fragments);
    const int chunks = static_cast<int>(g.fragment_bytes(PARTS) / 16);
    for (int k = threadIdx.x; k < chunks; k += blockDim.x) copy16_async(to + 16 * k, from + 16 * k);
  }
  copy_rows_async<C>(raw, source, y0 - r, g.rows(), x0 - r, g.span());
  zero_padding(staged.data, C * g.rows(), g.span(), g.pitch());
  wait_async_copies<0>();
  __syncthreads();
  convert_rows<C, __half>(staged, raw, source, y0 - r, g.rows(), x0 - r, g.span());
  __syncthreads();

  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int c = warp / warp_rows;
  const int row0 = (warp % warp_rows) * 16;
  // ldmatrix.x4 row addresses: lanes 0-7 rows 0-7, 8-15 rows 8-15 (columns 0-7), 16-31 the same
  // rows at columns 8-15: the four 8x8 matrices of the A fragment in register order.
  const int a_row = (lane & 7) + ((lane >> 3) & 1) * 8;
  const int a_col = (lane >> 4) * 8;
  const __half* a_base = staged.data + c * staged.plane_stride + (row0 + a_row) * g.pitch() + a_col;

  float acc[NT][4];
#pragma unroll
  for (int j = 0; j < NT; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) acc[j][e] = 0.0f;

  if constexpr (KT > 0) {
    constexpr int kS = ksteps(KT);
    for (int ky = 0; ky < KT; ++ky) {
      uint2 b[kS][PARTS];
#pragma unroll
      for (int s = 0; s < kS; ++s)
#pragma unroll
        for (int p = 0; p < PARTS; ++p)
          b[s][p] = s_fragments[((ky * kS + s) * PARTS + p) * 32 + lane];
      const __half* a_row_ptr = a_base + ky * g.pitch();
#pragma unroll
      for (int q = 0; q < NT + 2 * (kS - 1); ++q) {
        std::uint32_t a[4];
        load_a(a, a_row_ptr + 8 * q);
#pragma unroll
        for (int s = 0; s < kS; ++s) {
          const int j = q - 2 * s;
          if (j < 0 || j >= NT) continue;
#pragma unroll
          for (int p = 0; p < PARTS; ++p) mma(acc[j], a, b[s][p]);
        }
      }
    }
  } else {
    for (int ky = 0; ky < K; ++ky) {
      const __half* a_row_ptr = a_base + ky * g.pitch();
      for (int s = 0; s < S; ++s) {
        uint2 b[PARTS];
#pragma unroll
        for (int p = 0; p < PARTS; ++p) b[p] = s_fragments[((ky * S + s) * PARTS + p) * 32 + lane];
#pragma unroll
        for (int j = 0; j < NT; ++j) {
          std::uint32_t a[4];
          load_a(a, a_row_ptr + 8 * (j + 2 * s));
#pragma unroll
          for (int p = 0; p < PARTS; ++p) mma(acc[j], a, b[p]);
        }
      }
    }
  }

  // Accumulator layout: lane (g, t) holds rows g and g + 8, columns 2t and 2t + 1 of each n-tile.
  const int gq = lane >> 2;
  const int tq = lane & 3;
  const int tile_w = g.tile_w();
#pragma unroll
  for (int j = 0; j < NT; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int row = row0 + gq + (e >= 2 ? 8 : 0);
      const int col = 8 * j + 2 * tq + (e & 1);
      s_out[(static_cast<size_t>(row) * tile_w + col) * C + c] =
          to_output(acc[j][e], static_cast<OutT*>(nullptr));
    }
  __syncthreads();
  write_tile<OutT>(s_out, out, width, height, C, x0, y0, tile_w, g.tile_h());
}

// Host: the Toeplitz slices of every kernel row in mma B-fragment layout. Lane (g, t) holds
// B[k][n] for n = g and k = 2t, 2t + 1 (register x) and 2t + 8, 2t + 9 (register y), low half
// first; B[k][n] = w[ky][16 s + k - n] inside the kernel, 0 outside. Part 0 is the FP16 rounding of
// the weight, part 1 (fp16x2) the FP16 rounding of what part 0 missed.
std::vector<uint2> toeplitz_fragments(const float* weights, int ksize, int parts) {
  const int S = ksteps(ksize);
  std::vector<uint2> fragments(static_cast<size_t>(ksize) * S * parts * 32);
  auto half_bits = [](float v) {
    const __half h = __float2half_rn(v);
    return static_cast<std::uint32_t>(__half_as_ushort(h));
  };
  auto part_of = [](float w, int part) {
    return part == 0 ? w : w - __half2float(__float2half_rn(w));
  };
  for (int ky = 0; ky < ksize; ++ky)
    for (int s = 0; s < S; ++s)
      for (int p = 0; p < parts; ++p)
        for (int lane = 0; lane < 32; ++lane) {
          const int n = lane >> 2;
          const int t = lane & 3;
          auto entry = [&](int k) -> std::uint32_t {
            const int kx = 16 * s + k - n;
            if (kx < 0 || kx >= ksize) return 0;
            return half_bits(part_of(weights[ky * ksize + kx], p));
          };
          uint2 f;
          f.x = entry(2 * t) | (entry(2 * t + 1) << 16);
          f.y = entry(2 * t + 8) | (entry(2 * t + 9) << 16);
          fragments[((static_cast<size_t>(ky) * S + s) * parts + p) * 32 + lane] = f;
        }
  return fragments;
}

// The rung's axes: mma tiles per warp, warps per channel plane, weight precision (1 = fp16,
// 2 = fp16x2: high and low parts).
struct TensorLaunch {
  explicit TensorLaunch(const LaunchParams& params)
      : n_tiles(params.integer("n_tiles")),
        warp_rows(params.integer("warp_rows")),
        weight_parts(params.choice("weights") == "fp16x2" ? 2 : 1) {}
  int n_tiles, warp_rows, weight_parts;
};

class TensorPlan final : public KernelPlan {
 public:
  TensorPlan(const ProblemDesc& problem, const LaunchParams& params)
      : ksize_(problem.ksize), border_(problem.border), output_(problem.output), params_(params) {
    const std::vector<uint2> fragments =
        toeplitz_fragments(problem.weights, problem.ksize, params_.weight_parts);
    copy_to_device(fragments_, fragments.data(), fragments.size());
    const int channels = launch_channels(problem, params);
    const size_t bytes =
        geometry(channels).shared_bytes(bytes_per_value(output_), params_.weight_parts);
    for_kernel(channels, [&](auto kernel, auto) { allow_shared_bytes(kernel, bytes); });
  }

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    const TensorGeometry g = geometry(image.channels);
    const dim3 grid(ceil_div(image.width, g.tile_w()), ceil_div(image.height, g.tile_h()));
    const unsigned threads = static_cast<unsigned>(32 * g.warp_rows * image.channels);
    for_kernel(image.channels, [&](auto kernel, auto out_type) {
      using OutT = decltype(out_type);
      kernel<<<grid, threads, g.shared_bytes(bytes_per_value(output_), params_.weight_parts),
               stream>>>(image.in, static_cast<OutT*>(image.out), fragments_.as<uint2>(),
                         image.width, image.height, ksize_, border_, g.warp_rows);
      CONVLAB_CUDA_CHECK_LAUNCH("tensor_kernel");
    });
  }

 private:
  TensorGeometry geometry(int channels) const {
    return TensorGeometry{params_.n_tiles, params_.warp_rows, channels, ksize_};
  }

  template <typename F>
  void for_kernel(int channels, F&& f) {
    with_point_types(ksize_, channels, output_, [&](auto kt, auto c, auto out_type) {
      with_tiles_and_parts(params_.n_tiles, params_.weight_parts, [&](auto nt, auto parts) {
        using OutT = decltype(out_type);
        f(&tensor_kernel<decltype(kt)::value, decltype(c)::value, decltype(nt)::value,
                         decltype(parts)::value, OutT>,
          OutT{});
      });
    });
  }

  // n-tiles per warp 4 or 8; weight parts 1 (fp16) or 2 (fp16x2).
  template <typename F>
  static void with_tiles_and_parts(int n_tiles, int parts, F&& f) {
    with_static_value<4, 8>(n_tiles, [&](auto nt) {
      with_static_value<2, 1>(parts, [&](auto weight_parts) { f(nt, weight_parts); });
    });
  }

  int ksize_;
  Border border_;
  OutputType output_;
  TensorLaunch params_;
  DeviceBuffer fragments_;  // the Toeplitz fragments, freed with the plan
};

}  // namespace

std::optional<std::string> tensor_unsupported(const ProblemDesc& problem,
                                              const LaunchParams& params, int device) {
  const TensorLaunch launch(params);
  if (auto reason = mma_unsupported(device)) return reason;
  if (problem.ksize > kMaxKernelSize)
    return "kernel size " + std::to_string(problem.ksize) + " exceeds the " +
           std::to_string(kMaxKernelSize) + " this rung stages";
  for (int i = 0; i < problem.ksize * problem.ksize; ++i)
    if (!(std::abs(problem.weights[i]) <= kLargestHalf))
      return "weight " + std::to_string(problem.weights[i]) +
             " is beyond the FP16 range (|w| <= 65504) the tensor cores multiply";
  if (launch.n_tiles != 4 && launch.n_tiles != 8)
    return "n_tiles " + std::to_string(launch.n_tiles) + " is not compiled: 4 or 8";
  if (launch.weight_parts != 1 && launch.weight_parts != 2)
    return std::string("weights must be fp16 or fp16x2");
  const int channels = launch_channels(problem, params);
  if (auto reason = threads_unsupported(32LL * launch.warp_rows * channels,
                                        device_limits(device).max_threads_per_block,
                                        "warp_rows " + std::to_string(launch.warp_rows), channels))
    return reason;
  const TensorGeometry g{launch.n_tiles, launch.warp_rows, channels, problem.ksize};
  return shared_bytes_unsupported(
      g.shared_bytes(bytes_per_value(problem.output), launch.weight_parts), device,
      "tile " + std::to_string(g.tile_w()) + "x" + std::to_string(g.tile_h()) + " with K=" +
          std::to_string(problem.ksize) + " and " + std::to_string(channels) + " channel(s)");
}

std::unique_ptr<KernelPlan> make_tensor_plan(const ProblemDesc& problem, const LaunchParams& params,
                                             int) {
  return std::make_unique<TensorPlan>(problem, params);
}

}  // namespace convlab::cuda
