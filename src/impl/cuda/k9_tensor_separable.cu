// Rung 9, cuda_tensor_separable: the fused separable filter of rung 6 with both passes on the
// tensor cores.
//
// What changes relative to rung 6 (cuda_fused) and rung 7 (cuda_tensor), and why it is faster:
// - Rung 6 does its 2K multiply-adds per value on the FP32 pipes: about 44 FFMA per value at
//   K = 21, 0.27 ms for an RGB 8192^2 image at perfect issue. Rung 7 moves the work to the tensor
//   cores but does K^2 multiply-adds per value (direct). Here both passes of the rank-1 filter are
//   mma.sync m16n8k16 products with a banded Toeplitz matrix: 2K useful multiply-adds per value
//   on a unit that runs about ten times the FP32 rate.
// - Row pass, transposed: D'(16 x positions x 8 rows) = A'(16 x 16 input columns) x B'(16 input
//   columns x 8 rows), with A'[x][i] = row[i - x] (the Toeplitz band) and B' the staged input
//   (FP16, exact for u8), loaded with ldmatrix. Computing the transposed product puts, in each lane
//   (g, t), the filtered values of positions g and g + 8 at rows 2t and 2t + 1; two such products
//   (rows 0-7 and 8-15) hold exactly the B fragment of the column pass (rows 2t, 2t + 1, 2t + 8,
//   2t + 9 of column g). The accumulator fragment feeds the column pass directly, converted to
//   FP16 in registers: no shared memory, no shuffle between the passes.
// - Column pass: out(16 rows x 8 positions) = A2(16 x 16 input rows) x B2, A2[m][k] = column[k -
//   m]. A block walks down a strip in steps of 16 rows; each warp keeps the filtered rows of the
//   last S steps (S = ceil((K + 15) / 16)) as B fragments in registers, so every input row is
//   row-filtered once.
//
// Precision. u8 inputs are exact in FP16 and products accumulate in FP32. Three roundings to FP16
// add error: the row factor, the filtered value between the passes and the column factor, each
// with unit roundoff u = 2^-11 (the factors are rescaled so the row factor's |sum| is 1 and the
// filtered values stay within +-255), plus weights below FP16's normal range rounded to its
// subnormal step (2^-25 at most each):
//
//   |error| <= 255 * (3u * sum|w| + K^2 * 2^-25) + FP32 accumulation,  sum|w| = sum|row| sum|col|
//
// For a normalised kernel that is 0.37 of a level: u8 outputs are within 1 of the correctly
// rounded value, and the f32 tolerance of this rung adds exactly this term (weight_roundoff 3u).
//
// Geometry. A block covers a strip of 16 * n_tiles pixels, one warp per (channel, 16-pixel tile),
// and walks down `rows` output rows in steps of 16. Each step stages 16 input rows (cp.async into
// one of kStages raw buffers, five steps ahead, then converted to planar FP16), row-filters them
// (2S mma per warp), and computes 16 output rows (2S mma per warp) into an output tile in shared
// memory that leaves as 16-byte vectors.
#include <cuda_fp16.h>

#include <algorithm>
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

constexpr int kMaxSteps = 4;  // k-steps of 16 per pass: K <= 16 * 4 - 15 = 49
// Raw row buffers of 16 rows each: kStages - 1 steps' copies are in flight while one is computed
// (with two stages, one block per SM had too few bytes in flight to keep DRAM busy).
constexpr int kStages = 6;
// Threads per block at most (n_tiles * channels warps): the register cap that follows (85) lets
// two blocks of 384 threads share an SM.
constexpr int kMaxThreads = 768;
constexpr int kMaxKernelSize = 16 * kMaxSteps - 15;
constexpr int kStepRows = 16;
constexpr float kLargestHalf = 65504.0f;

__host__ __device__ constexpr int ksteps(int ksize) {
  return (ksize + 15 + 15) / 16;
}

struct SeparableGeometry {
  int n_tiles;  // 16-pixel tiles across the strip
  int channels;
  int ksize;
  __host__ __device__ int strip_w() const { return 16 * n_tiles; }
  // Staged pixels per row: the last tile's S k-steps reach 16 (n_tiles + S - 1) columns.
  __host__ __device__ int span() const { return 16 * (n_tiles + ksteps(ksize) - 1); }
  // FP16 row pitch: an odd number of 16-byte units, so ldmatrix's eight rows hit eight bank groups.
  __host__ __device__ int pitch() const { return span() + 8; }
  __host__ __device__ size_t staged_bytes() const {
    return static_cast<size_t>(channels) * kStepRows * pitch() * sizeof(__half);
  }
  __host__ __device__ size_t out_bytes(size_t value_bytes) const {
    return static_cast<size_t>(kStepRows) * strip_w() * channels * value_bytes;
  }
  __host__ __device__ int raw_pitch() const { return raw_row_pitch(span(), channels); }
  __host__ __device__ size_t raw_buffer_bytes() const {
    return static_cast<size_t>(kStepRows) * raw_pitch();
  }
  __host__ __device__ size_t raw_offset(size_t value_bytes) const {
    return (staged_bytes() + out_bytes(value_bytes) + 15) / 16 * 16;
  }
  // Staged rows, output tile, then kStages raw buffers.
  __host__ __device__ size_t shared_bytes(size_t value_bytes) const {
    return raw_offset(value_bytes) + kStages * raw_buffer_bytes();
  }
};

// Two FP32 values as an FP16 pair, the first in the low half (the lower k index of a fragment).
__device__ __forceinline__ std::uint32_t half2_bits(float lo, float hi) {
  const __half2 h = __floats2half2_rn(lo, hi);
  return *reinterpret_cast<const std::uint32_t*>(&h);
}

// A fragments of both passes, [pass][s][lane] as uint4 (four f16x2 registers), built on the host.
template <int S, int C, typename OutT>
__global__ void __launch_bounds__(kMaxThreads, 1)
    tensor_separable_kernel(const std::uint8_t* __restrict__ in, OutT* __restrict__ out,
                            const uint4* __restrict__ fragments, int width, int height, int ksize,
                            Border border, int n_tiles, int segment) {
  extern __shared__ __align__(16) unsigned char s_raw[];
  const SeparableGeometry g{n_tiles, C, ksize};
  const int r = ksize / 2;
  const Planar<__half> staged{reinterpret_cast<__half*>(s_raw), g.pitch(), kStepRows * g.pitch()};
  OutT* s_out = reinterpret_cast<OutT*>(s_raw + g.staged_bytes());
  std::uint8_t* raw_base = s_raw + g.raw_offset(sizeof(OutT));
  auto raw = [&](int step) {
    return RawRows{raw_base + (step % kStages) * g.raw_buffer_bytes(), g.raw_pitch()};
  };
  const RowSource source{in, in + static_cast<size_t>(width) * height * C, width, height, border};

  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int c = warp / n_tiles;
  const int tile = warp % n_tiles;
  const int x0 = blockIdx.x * g.strip_w();
  const int ys = blockIdx.y * segment;
  const int ye = min(ys + segment, height);
  const int base = ys - r;  // input row of k-step 0's first row
  const int out_steps = (ye - ys + kStepRows - 1) / kStepRows;
  const int steps = out_steps + S - 1;  // k-steps of filtered rows

  uint4 row_a[S], column_a[S];
#pragma unroll
  for (int s = 0; s < S; ++s) {
    row_a[s] = __ldg(&fragments[s * 32 + lane]);
    column_a[s] = __ldg(&fragments[(S + s) * 32 + lane]);
  }
  // ldmatrix.x4 row addresses: lanes 0-7 rows 0-7 at k 0-7, 8-15 the same rows at k 8-15, 16-23
  // rows 8-15 at k 0-7, 24-31 rows 8-15 at k 8-15: the B fragments of rows 0-7 and of rows 8-15.
  const int b_row = (lane & 7) + ((lane >> 4) << 3);
  const int b_col = ((lane >> 3) & 1) * 8;
  const __half* b_base =
      staged.data + c * staged.plane_stride + b_row * staged.pitch + 16 * tile + b_col;

  std::uint32_t filtered[S][2][2];  // B fragments of the last S k-steps, [step][tile half][reg]
#pragma unroll
  for (int s = 0; s < S; ++s)
#pragma unroll
    for (int h = 0; h < 2; ++h) filtered[s][h][0] = filtered[s][h][1] = 0;

  // One commit group per step (empty past the last), so waiting until kStages - 2 groups are
  // pending means this step's rows have landed.
  auto copy_step = [&](int step) {
    if (step < steps) {
      copy_rows_async<C>(raw(step), source, base + step * kStepRows, kStepRows, x0 - r, g.span());
    } else {
      commit_async_copies();
    }
  };
  for (int step = 0; step < kStages - 1; ++step) copy_step(step);
  for (int step = 0; step < steps; ++step) {
    // Into the buffer converted in the previous step: every thread has passed the barrier after it.
    copy_step(step + kStages - 1);
    wait_async_copies<kStages - 1>();
    __syncthreads();  // this step's raw rows landed; the previous step's readers are done
    convert_rows<C, __half>(staged, raw(step), source, base + step * kStepRows, kStepRows, x0 - r,
                            g.span());
    __syncthreads();

    // Row pass: k-step `step` of filtered rows, as the column pass's B fragments.
    float upper[4] = {0.0f, 0.0f, 0.0f, 0.0f};  // rows 0-7
    float lower[4] = {0.0f, 0.0f, 0.0f, 0.0f};  // rows 8-15
#pragma unroll
    for (int s = 0; s < S; ++s) {
      std::uint32_t b[4];
      load_a(b, b_base + 16 * s);
      const std::uint32_t a[4] = {row_a[s].x, row_a[s].y, row_a[s].z, row_a[s].w};
      mma(upper, a, make_uint2(b[0], b[1]));
      mma(lower, a, make_uint2(b[2], b[3]));
    }
#pragma unroll
    for (int s = 0; s + 1 < S; ++s)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        filtered[s][h][0] = filtered[s + 1][h][0];
        filtered[s][h][1] = filtered[s + 1][h][1];
      }
    filtered[S - 1][0][0] = half2_bits(upper[0], upper[1]);  // positions 0-7: rows 2t, 2t + 1
    filtered[S - 1][0][1] = half2_bits(lower[0], lower[1]);  // rows 2t + 8, 2t + 9
    filtered[S - 1][1][0] = half2_bits(upper[2], upper[3]);  // positions 8-15
    filtered[S - 1][1][1] = half2_bits(lower[2], lower[3]);
    if (step < S - 1) continue;  // the window of the first output step is not complete yet

    // Column pass: 16 output rows x 16 positions from the S k-steps of filtered rows.
    float left[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float right[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int s = 0; s < S; ++s) {
      const std::uint32_t a[4] = {column_a[s].x, column_a[s].y, column_a[s].z, column_a[s].w};
      mma(left, a, make_uint2(filtered[s][0][0], filtered[s][0][1]));
      mma(right, a, make_uint2(filtered[s][1][0], filtered[s][1][1]));
    }
    // Accumulator layout: rows gq and gq + 8, positions 2tq and 2tq + 1 (+ 8 for `right`).
    const int gq = lane >> 2;
    const int tq = lane & 3;
    const int strip_w = g.strip_w();
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int row = gq + (e >= 2 ? 8 : 0);
      const int x = 16 * tile + 2 * tq + (e & 1);
      OutT* dst = s_out + (static_cast<size_t>(row) * strip_w + x) * C + c;
      dst[0] = to_output(left[e], static_cast<OutT*>(nullptr));
      dst[8 * C] = to_output(right[e], static_cast<OutT*>(nullptr));
    }
    __syncthreads();
    const int y0 = ys + (step - (S - 1)) * kStepRows;
    write_tile<OutT>(s_out, out, width, height, C, x0, y0, strip_w, min(kStepRows, ye - y0));
  }
}

// Host: A fragments of the transposed row pass and of the column pass. A[m][k] = f[16 s + k - m]
// inside the band, 0 outside; lane (g, t) holds A[g][2t, 2t + 1], A[g + 8][2t, 2t + 1],
// A[g][2t + 8, 2t + 9], A[g + 8][2t + 8, 2t + 9], low half first.
void append_toeplitz(std::vector<uint4>& fragments, const std::vector<float>& factor, int steps) {
  auto half_bits = [](float v) {
    return static_cast<std::uint32_t>(__half_as_ushort(__float2half_rn(v)));
  };
  const int k = static_cast<int>(factor.size());
  for (int s = 0; s < steps; ++s)
    for (int lane = 0; lane < 32; ++lane) {
      const int gr = lane >> 2;
      const int t = lane & 3;
      auto entry = [&](int m, int col) -> std::uint32_t {
        const int tap = 16 * s + col - m;
        return tap >= 0 && tap < k ? half_bits(factor[tap]) : 0u;
      };
      auto pair = [&](int m, int col) { return entry(m, col) | (entry(m, col + 1) << 16); };
      fragments.push_back(make_uint4(pair(gr, 2 * t), pair(gr + 8, 2 * t), pair(gr, 2 * t + 8),
                                     pair(gr + 8, 2 * t + 8)));
    }
}

// The factors rescaled so that sum |row| = 1: filtered values then stay within +-255, well inside
// FP16's range and at its finest relative step.
std::pair<std::vector<float>, std::vector<float>> balanced_factors(const ProblemDesc& p) {
  std::vector<float> row(p.ksize), column(p.ksize);
  double row_sum = 0.0;
  for (int i = 0; i < p.ksize; ++i) {
    row[i] = p.ksize == 1 ? p.weights[0] : p.row[i];
    column[i] = p.ksize == 1 ? 1.0f : p.column[i];
    row_sum += std::fabs(row[i]);
  }
  if (row_sum > 0.0)
    for (int i = 0; i < p.ksize; ++i) {
      row[i] = static_cast<float>(row[i] / row_sum);
      column[i] = static_cast<float>(column[i] * row_sum);
    }
  return {row, column};
}

// The rung's axes: 16-pixel tiles across a block's strip, rows one block walks down.
struct TensorSeparableLaunch {
  explicit TensorSeparableLaunch(const LaunchParams& params)
      : n_tiles(params.integer("n_tiles")), rows(params.integer("rows")) {}
  int n_tiles, rows;
};

class TensorSeparablePlan final : public KernelPlan {
 public:
  TensorSeparablePlan(const ProblemDesc& problem, const LaunchParams& params)
      : ksize_(problem.ksize), border_(problem.border), output_(problem.output), params_(params) {
    const auto [row, column] = balanced_factors(problem);
    std::vector<uint4> fragments;
    append_toeplitz(fragments, row, ksteps(ksize_));
    append_toeplitz(fragments, column, ksteps(ksize_));
    copy_to_device(fragments_, fragments.data(), fragments.size());
    const int channels = launch_channels(problem, params);
    const size_t bytes = geometry(channels).shared_bytes(bytes_per_value(output_));
    for_kernel(channels, [&](auto kernel, auto) { allow_shared_bytes(kernel, bytes); });
  }

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    const SeparableGeometry g = geometry(image.channels);
    const dim3 grid(ceil_div(image.width, g.strip_w()), ceil_div(image.height, params_.rows));
    const unsigned threads = static_cast<unsigned>(32 * params_.n_tiles * image.channels);
    for_kernel(image.channels, [&](auto kernel, auto out_type) {
      using OutT = decltype(out_type);
      kernel<<<grid, threads, g.shared_bytes(bytes_per_value(output_)), stream>>>(
          image.in, static_cast<OutT*>(image.out), fragments_.as<uint4>(), image.width,
          image.height, ksize_, border_, params_.n_tiles, params_.rows);
      CONVLAB_CUDA_CHECK_LAUNCH("tensor_separable_kernel");
    });
  }

 private:
  SeparableGeometry geometry(int channels) const {
    return SeparableGeometry{params_.n_tiles, channels, ksize_};
  }

  template <typename F>
  void for_kernel(int channels, F&& f) {
    with_steps(ksteps(ksize_), [&](auto s) {
      with_static_channels(channels, [&](auto c) {
        with_output_type(output_, [&](auto out_type) {
          using OutT = decltype(out_type);
          f(&tensor_separable_kernel<decltype(s)::value, decltype(c)::value, OutT>, OutT{});
        });
      });
    });
  }

  // The number of k-steps per pass is the compile-time size of the fragment arrays.
  template <typename F>
  static void with_steps(int steps, F&& f) {
    with_static_value<1, 2, 3, kMaxSteps>(steps, f);
  }

  int ksize_;
  Border border_;
  OutputType output_;
  TensorSeparableLaunch params_;
  DeviceBuffer fragments_;  // the Toeplitz A fragments of both passes, freed with the plan
};

}  // namespace

std::optional<std::string> tensor_separable_unsupported(const ProblemDesc& problem,
                                                        const LaunchParams& params, int device) {
  const TensorSeparableLaunch launch(params);
  if (auto reason = mma_unsupported(device)) return reason;
  if (problem.ksize > kMaxKernelSize)
    return "kernel size " + std::to_string(problem.ksize) + " exceeds the " +
           std::to_string(kMaxKernelSize) + " this rung's " + std::to_string(kMaxSteps) +
           " k-steps of 16 per pass cover";
  const auto [row, column] = balanced_factors(problem);
  for (const auto* factor : {&row, &column})
    for (float w : *factor)
      if (!(std::fabs(w) <= kLargestHalf))
        return "factor weight " + std::to_string(w) +
               " (after scaling the row factor to |sum| 1) is beyond the FP16 range the tensor "
               "cores multiply";
  if (launch.n_tiles < 1) return std::string("n_tiles must be positive");
  if (launch.rows < 1) return std::string("rows must be positive");
  const int channels = launch_channels(problem, params);
  if (auto reason =
          threads_unsupported(32LL * launch.n_tiles * channels,
                              std::min(device_limits(device).max_threads_per_block, kMaxThreads),
                              "n_tiles " + std::to_string(launch.n_tiles), channels))
    return reason;
  const SeparableGeometry g{launch.n_tiles, channels, problem.ksize};
  if (auto reason = shared_bytes_unsupported(
          g.shared_bytes(bytes_per_value(problem.output)), device,
          "strip of " + std::to_string(g.strip_w()) + " pixels with K=" +
              std::to_string(problem.ksize) + " and " + std::to_string(channels) + " channel(s)"))
    return reason;
  return segments_unsupported(problem.height, launch.rows);
}

std::unique_ptr<KernelPlan> make_tensor_separable_plan(const ProblemDesc& problem,
                                                       const LaunchParams& params, int) {
  return std::make_unique<TensorSeparablePlan>(problem, params);
}

}  // namespace convlab::cuda
