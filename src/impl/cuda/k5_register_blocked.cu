// Rung 5, cuda_regblock: register blocking. Each thread computes a small block of outputs
// (`per_thread` = [NX, MY]: NX adjacent pixels of one channel on each of MY rows) and every value
// it loads feeds several of them from registers.
//
// What changes relative to rung 3 (cuda_shared), and why it is faster:
// - Rung 3 issues one shared-memory load per multiply-add (the tap's input value), so the load
//   pipe, not the FMA pipe, sets its pace. Here a thread loads, per kernel row, the NX + K - 1
//   input values its NX outputs need (as 16-byte vectors) into registers and then does NX * K
//   multiply-adds on them (a sliding window): for K = 21 and NX = 8, 7 vector loads feed 168 FMAs.
// - The weights of a kernel row are loaded once per row as 16-byte broadcasts and reused by all
//   NX * MY outputs of the thread.
// - The footprint is staged as planar float (one plane per channel), so a thread's window is
//   contiguous whatever the channel count, and each input byte is converted once, with a byte
//   permute and an add instead of an integer-to-float conversion (planar_staging.cuh). Global
//   reads are aligned 32-bit words, coalesced along the interleaved rows.
// - The output tile is assembled in shared memory and written back as 16-byte vectors along the
//   interleaved rows (coalesced), rather than as one byte per thread at a stride of C.
// - Lanes are arranged so that each quarter-warp reads 8 different 16-byte bank groups: 32 / NX
//   lanes along a row, then the next row, whose pitch is skewed by 16 bytes (skewed_pitch).
// K is a compile-time constant for the common sizes (3, 5, ..., 21), which fixes the register
//   window; other K run a generic loop.
//
// Geometry. A block has `block` = [BX, BY] threads per channel plane and C planes, so
// BX * BY * C threads; its output tile is (BX * NX) x (BY * MY) pixels. Thread (tx, ty) computes
// pixels tx * NX + j (j < NX) of rows ty + i * BY (i < MY). Each warp covers a band 32 pixels wide
// and NX rows high (32 / NX lanes along a row), so BX must be a multiple of 32 / NX and BY of NX.
#include <cstdint>
#include <vector>

#include "core/border.hpp"
#include "impl/cuda/buffers.cuh"
#include "impl/cuda/kernel_plan.cuh"
#include "impl/cuda/planar_staging.cuh"
#include "impl/cuda/tile_store.cuh"

namespace convlab::cuda {
namespace {

// The KxK weights are staged in shared memory (rows padded to a multiple of 4 floats); the
// generic kernel reads them from there too.
constexpr int kMaxKernelSize = 63;

struct Geometry {
  int nx, my;    // outputs per thread
  int bx, by;    // threads per plane
  int channels;  // planes (1 for planar launches)
  int ksize;
  __host__ __device__ int tile_w() const { return bx * nx; }
  __host__ __device__ int tile_h() const { return by * my; }
  __host__ __device__ int window() const { return round_up4(nx + ksize - 1); }
  __host__ __device__ int pitch() const { return skewed_pitch(tile_w() - nx + window()); }
  __host__ __device__ int footprint_rows() const { return tile_h() + ksize - 1; }
  __host__ __device__ int weight_pitch() const { return round_up4(ksize); }
  __host__ __device__ size_t weight_bytes() const {
    return static_cast<size_t>(ksize) * weight_pitch() * 4;
  }
  __host__ __device__ size_t input_bytes() const {
    return static_cast<size_t>(channels) * footprint_rows() * pitch() * 4;
  }
  __host__ __device__ size_t output_bytes(size_t value_bytes) const {
    return static_cast<size_t>(tile_h()) * tile_w() * channels * value_bytes;
  }
  // Raw copies of the footprint rows (planar_staging.cuh), after the output tile.
  __host__ __device__ size_t raw_bytes() const {
    return static_cast<size_t>(footprint_rows()) * raw_row_pitch(tile_w() + ksize - 1, channels);
  }
  __host__ __device__ size_t raw_offset(size_t value_bytes) const {
    return (weight_bytes() + input_bytes() + output_bytes(value_bytes) + 15) / 16 * 16;
  }
  __host__ __device__ size_t shared_bytes(size_t value_bytes) const {
    return raw_offset(value_bytes) + raw_bytes();
  }
};

// Which pixels and rows this thread owns: lanes 32/NX along a row, then down the rows.
struct ThreadPlace {
  int tx, ty, c;
};
template <int NX>
__device__ __forceinline__ ThreadPlace thread_place(int bx, int by) {
  constexpr int kLanesX = 32 / NX;
  constexpr int kLanesY = 32 / kLanesX;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int warps_x = bx / kLanesX;
  const int warps_y = by / kLanesY;
  ThreadPlace p;
  p.tx = (warp % warps_x) * kLanesX + lane % kLanesX;
  const int rest = warp / warps_x;
  p.ty = (rest % warps_y) * kLanesY + lane / kLanesX;
  p.c = rest / warps_y;
  return p;
}

// acc[i][j] += sum over kx of w[kx] * row_i[j + kx], for one kernel row, K known at compile time.
template <int K, int NX, int MY>
__device__ __forceinline__ void accumulate_row(float (&acc)[MY][NX], const float* weights,
                                               const float* rows, int row_step) {
  constexpr int kWindow = round_up4(NX + K - 1);
  float w[round_up4(K)];
#pragma unroll
  for (int q = 0; q < round_up4(K) / 4; ++q) {
    const float4 v = reinterpret_cast<const float4*>(weights)[q];
    w[4 * q] = v.x;
    w[4 * q + 1] = v.y;
    w[4 * q + 2] = v.z;
    w[4 * q + 3] = v.w;
  }
#pragma unroll
  for (int i = 0; i < MY; ++i) {
    float win[kWindow];
    const float4* src = reinterpret_cast<const float4*>(rows + i * row_step);
#pragma unroll
    for (int q = 0; q < kWindow / 4; ++q) {
      const float4 v = src[q];
      win[4 * q] = v.x;
      win[4 * q + 1] = v.y;
      win[4 * q + 2] = v.z;
      win[4 * q + 3] = v.w;
    }
#pragma unroll
    for (int kx = 0; kx < K; ++kx)
#pragma unroll
      for (int j = 0; j < NX; ++j) acc[i][j] = fmaf(w[kx], win[j + kx], acc[i][j]);
  }
}

// The same with K read at run time (scalar shared loads per tap).
template <int NX, int MY>
__device__ __forceinline__ void accumulate_row_generic(float (&acc)[MY][NX], const float* weights,
                                                       const float* rows, int row_step, int K) {
  for (int kx = 0; kx < K; ++kx) {
    const float w = weights[kx];
#pragma unroll
    for (int i = 0; i < MY; ++i)
#pragma unroll
      for (int j = 0; j < NX; ++j) acc[i][j] = fmaf(w, rows[i * row_step + j + kx], acc[i][j]);
  }
}

template <int KT, int C, int NX, int MY, typename OutT>
__global__ void regblock_kernel(const std::uint8_t* __restrict__ in, OutT* __restrict__ out,
                                const float* __restrict__ weights, int width, int height, int ksize,
                                Border border, int bx, int by) {
  extern __shared__ __align__(16) float s_mem[];
  Geometry g{NX, MY, bx, by, C, KT > 0 ? KT : ksize};
  const int K = g.ksize;
  const int r = K / 2;
  const int tile_w = g.tile_w();
  const int tile_h = g.tile_h();
  const int x0 = blockIdx.x * tile_w;
  const int y0 = blockIdx.y * tile_h;
  const int wpitch = g.weight_pitch();
  float* s_weights = s_mem;
  const PlanarFootprint footprint{s_weights + K * wpitch, g.pitch(),
                                  g.footprint_rows() * g.pitch()};
  OutT* s_out = reinterpret_cast<OutT*>(footprint.data + C * footprint.plane_stride);
  const RawRows raw{reinterpret_cast<std::uint8_t*>(s_mem) + g.raw_offset(sizeof(OutT)),
                    raw_row_pitch(tile_w + K - 1, C)};
  const RowSource source{in, in + static_cast<size_t>(width) * height * C, width, height, border};
  copy_rows_async<C>(raw, source, y0 - r, g.footprint_rows(), x0 - r, tile_w + K - 1);

  for (int i = threadIdx.x; i < K * wpitch; i += blockDim.x) {
    const int ky = i / wpitch;
    const int kx = i - ky * wpitch;
    s_weights[i] = kx < K ? weights[ky * K + kx] : 0.0f;
  }
  wait_async_copies<0>();
  __syncthreads();
  convert_rows<C, float>(footprint, raw, source, y0 - r, g.footprint_rows(), x0 - r,
                         tile_w + K - 1);
  __syncthreads();

  const ThreadPlace p = thread_place<NX>(bx, by);
  float acc[MY][NX];
#pragma unroll
  for (int i = 0; i < MY; ++i)
#pragma unroll
    for (int j = 0; j < NX; ++j) acc[i][j] = 0.0f;

  const float* plane = footprint.data + p.c * footprint.plane_stride + p.tx * NX;
  const int row_step = by * footprint.pitch;
  if constexpr (KT > 0) {
    constexpr int kUnrollRows = KT <= 7 ? KT : 1;
#pragma unroll kUnrollRows
    for (int ky = 0; ky < KT; ++ky)
      accumulate_row<KT, NX, MY>(acc, s_weights + ky * wpitch,
                                 plane + (p.ty + ky) * footprint.pitch, row_step);
  } else {
    for (int ky = 0; ky < K; ++ky)
      accumulate_row_generic<NX, MY>(acc, s_weights + ky * wpitch,
                                     plane + (p.ty + ky) * footprint.pitch, row_step, K);
  }

#pragma unroll
  for (int i = 0; i < MY; ++i) {
    OutT* dst = s_out + (static_cast<size_t>(p.ty + i * by) * tile_w + p.tx * NX) * C + p.c;
#pragma unroll
    for (int j = 0; j < NX; ++j) dst[j * C] = to_output(acc[i][j], static_cast<OutT*>(nullptr));
  }
  __syncthreads();
  write_tile<OutT>(s_out, out, width, height, C, x0, y0, tile_w, tile_h);
}

// The rung's axes: outputs per thread [x, y] and threads per block and channel plane [x, y].
struct RegblockLaunch {
  explicit RegblockLaunch(const LaunchParams& params)
      : per_thread_x(params.pair("per_thread").x),
        per_thread_y(params.pair("per_thread").y),
        block_x(params.pair("block").x),
        block_y(params.pair("block").y) {}
  int per_thread_x, per_thread_y, block_x, block_y;
};

class RegblockPlan final : public KernelPlan {
 public:
  RegblockPlan(const ProblemDesc& problem, const LaunchParams& params)
      : ksize_(problem.ksize),
        border_(problem.border),
        output_(problem.output),
        params_(params),
        weights_(problem.weights, problem.weights + problem.ksize * problem.ksize) {
    copy_to_device(device_weights_, weights_.data(), weights_.size());
    const int channels = launch_channels(problem, params);
    const size_t bytes = geometry(channels).shared_bytes(bytes_per_value(output_));
    for_kernel(channels, [&](auto kernel, auto) { allow_shared_bytes(kernel, bytes); });
  }

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    const Geometry g = geometry(image.channels);
    const dim3 grid(ceil_div(image.width, g.tile_w()), ceil_div(image.height, g.tile_h()));
    const unsigned threads = static_cast<unsigned>(g.bx * g.by * image.channels);
    const size_t bytes = g.shared_bytes(bytes_per_value(output_));
    for_kernel(image.channels, [&](auto kernel, auto out_type) {
      using OutT = decltype(out_type);
      kernel<<<grid, threads, bytes, stream>>>(image.in, static_cast<OutT*>(image.out),
                                               device_weights_.as<float>(), image.width,
                                               image.height, ksize_, border_, g.bx, g.by);
      CONVLAB_CUDA_CHECK_LAUNCH("regblock_kernel");
    });
  }

 private:
  Geometry geometry(int channels) const {
    return Geometry{params_.per_thread_x,
                    params_.per_thread_y,
                    params_.block_x,
                    params_.block_y,
                    channels,
                    ksize_};
  }

  template <typename F>
  void for_kernel(int channels, F&& f) {
    with_point_types(ksize_, channels, output_, [&](auto kt, auto c, auto out_type) {
      with_per_thread(params_.per_thread_x, params_.per_thread_y, [&](auto nx, auto my) {
        using OutT = decltype(out_type);
        f(&regblock_kernel<decltype(kt)::value, decltype(c)::value, decltype(nx)::value,
                           decltype(my)::value, OutT>,
          OutT{});
      });
    });
  }

  // Outputs per thread: NX in {4, 8} pixels, MY in {1, 2, 4} rows.
  template <typename F>
  static void with_per_thread(int nx, int my, F&& f) {
    with_static_value<4, 8>(
        nx, [&](auto x) { with_static_value<4, 2, 1>(my, [&](auto y) { f(x, y); }); });
  }

  int ksize_;
  Border border_;
  OutputType output_;
  RegblockLaunch params_;
  std::vector<float> weights_;
  DeviceBuffer device_weights_;  // the K x K weights, freed with the plan
};

}  // namespace

std::optional<std::string> regblock_unsupported(const ProblemDesc& problem,
                                                const LaunchParams& params, int device) {
  const RegblockLaunch launch(params);
  const int nx = launch.per_thread_x;
  const int my = launch.per_thread_y;
  if ((nx != 4 && nx != 8) || (my != 1 && my != 2 && my != 4))
    return "per_thread [" + std::to_string(nx) + ", " + std::to_string(my) +
           "] is not compiled: x must be 4 or 8, y 1, 2 or 4";
  if (problem.ksize > kMaxKernelSize)
    return "kernel size " + std::to_string(problem.ksize) + " exceeds the " +
           std::to_string(kMaxKernelSize) + " this rung stages in shared memory";
  const int lanes_x = 32 / nx;
  const int lanes_y = 32 / lanes_x;
  if (launch.block_x % lanes_x != 0 || launch.block_y % lanes_y != 0)
    return "block [" + std::to_string(launch.block_x) + ", " + std::to_string(launch.block_y) +
           "] must be a multiple of [" + std::to_string(lanes_x) + ", " + std::to_string(lanes_y) +
           "] with per_thread x = " + std::to_string(nx) +
           " (each warp covers 32 pixels of whole rows)";
  const int channels = launch_channels(problem, params);
  const long long threads = static_cast<long long>(launch.block_x) * launch.block_y * channels;
  if (auto reason = threads_unsupported(threads, device_limits(device).max_threads_per_block,
                                        "block " + std::to_string(launch.block_x) + "x" +
                                            std::to_string(launch.block_y) + " per channel",
                                        channels))
    return reason;
  const Geometry g{nx, my, launch.block_x, launch.block_y, channels, problem.ksize};
  return shared_bytes_unsupported(
      g.shared_bytes(bytes_per_value(problem.output)), device,
      "tile " + std::to_string(g.tile_w()) + "x" + std::to_string(g.tile_h()) + " with K=" +
          std::to_string(problem.ksize) + " and " + std::to_string(channels) + " channel(s)");
}

std::unique_ptr<KernelPlan> make_regblock_plan(const ProblemDesc& problem,
                                               const LaunchParams& params, int) {
  return std::make_unique<RegblockPlan>(problem, params);
}

}  // namespace convlab::cuda
