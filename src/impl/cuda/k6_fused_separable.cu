// Rung 6, cuda_fused: the separable filter of rung 4 in one kernel, with no intermediate image.
//
// What changes relative to rung 4 (cuda_separable), and why it is faster:
// - Rung 4 writes the row pass's float result for the whole image to DRAM and reads it back in the
//   column pass: 8 bytes of extra traffic per value against the 2 bytes (u8 in, u8 out) the filter
//   needs, which makes it memory-bound at every K. Here a block walks down a vertical strip of the
//   image: it filters each input row of the strip once along x into a ring buffer of K + chunk - 1
//   filtered rows in shared memory, and the column pass reads the ring. DRAM sees each input byte
//   once and each output value once.
// - The row pass is done exactly once per input row (walking down, the ring keeps the K - 1 rows
//   the next outputs still need), so the 2K multiply-adds per value are not inflated by a
//   recomputed vertical halo; only the first K - 1 rows of each block's segment are extra.
// - Both passes are register-blocked as in rung 5: a row-pass thread computes 8 adjacent pixels of
//   all channels from a window of 8 + K - 1 values per channel loaded as 16-byte vectors; a
//   column-pass thread computes 4 adjacent values (one 16-byte vector, channel-agnostic on the
//   interleaved ring) on `rows_per_thread` rows, so each ring vector it loads feeds up to that
//   many outputs. K is a compile-time constant for the common sizes and the coefficients are
//   __constant__ operands of the FMAs.
// - Input rows are staged as planar float with aligned 32-bit global reads (planar_staging.cuh);
//   outputs leave as 4 adjacent values per store, consecutive lanes on consecutive addresses.
//
// Geometry. The grid is (strips of `strip[0]` pixels) x (segments of `strip[1]` rows). A block
// produces filtered rows `chunk` at a time: stage them (planar), filter them along x into the ring,
// then compute `chunk` output rows from the ring. Shared memory: the staged rows
// (chunk x (strip + K - 1) pixels x C) plus the ring ((chunk + K - 1) x strip x C floats).
#include <cstdint>
#include <vector>

#include "core/border.hpp"
#include "impl/cuda/kernel_plan.cuh"
#include "impl/cuda/planar_staging.cuh"

namespace convlab::cuda {
namespace {

constexpr int kFactorCapacity = 128;  // taps of __constant__ memory per factor (K <= 127)
__constant__ float c_row[kFactorCapacity];
__constant__ float c_column[kFactorCapacity];

// Row-pass work unit: 8 adjacent pixels of one row, all channels. Lanes: 4 along the row (32
// pixels), 8 rows down, so the staged rows' skewed pitch keeps a quarter-warp conflict-free.
constexpr int kRowPixels = 8;
constexpr int kLanesAlongRow = 4;
constexpr int kRowsPerWarp = 32 / kLanesAlongRow;

struct FusedGeometry {
  int strip_w;  // pixels
  int chunk;    // rows produced per step
  int channels;
  int ksize;
  __host__ __device__ int window() const { return round_up4(kRowPixels + ksize - 1); }
  __host__ __device__ int staged_pitch() const {
    return skewed_pitch(strip_w - kRowPixels + window());
  }
  __host__ __device__ int ring_rows() const { return chunk + ksize - 1; }
  __host__ __device__ int ring_pitch() const { return skewed_pitch(strip_w * channels); }
  // A step stages `chunk` rows, the first one K - 1 (the ring's prologue).
  __host__ __device__ int stage_rows() const { return chunk > ksize - 1 ? chunk : ksize - 1; }
  __host__ __device__ size_t staged_floats() const {
    return static_cast<size_t>(channels) * stage_rows() * staged_pitch();
  }
  __host__ __device__ size_t ring_floats() const {
    return static_cast<size_t>(ring_rows()) * ring_pitch();
  }
  __host__ __device__ int raw_pitch() const { return raw_row_pitch(strip_w + ksize - 1, channels); }
  __host__ __device__ size_t raw_buffer_bytes() const {
    return static_cast<size_t>(stage_rows()) * raw_pitch();
  }
  // Staged rows and ring (floats), then two raw buffers: the copies of the next step's rows land
  // in one while the other is converted.
  __host__ __device__ size_t shared_bytes() const {
    return (staged_floats() + ring_floats()) * sizeof(float) + 2 * raw_buffer_bytes();
  }
};

// The ring: filtered rows, interleaved values, row t of the segment in slot t % rows.
struct Ring {
  float* data;
  int rows;
  int pitch;
  __device__ float* row(int t) const { return data + (t % rows) * pitch; }
};

// Walks consecutive ring rows from row t without a division per row.
struct RingCursor {
  const Ring& ring;
  int slot;
  __device__ RingCursor(const Ring& r, int t) : ring(r), slot(t % r.rows) {}
  __device__ const float4* row() const {
    return reinterpret_cast<const float4*>(ring.data + slot * ring.pitch);
  }
  __device__ void next() { slot = slot + 1 == ring.rows ? 0 : slot + 1; }
};

// Filters staged rows [0, n) along x into ring rows first_t + row.
template <int KT, int C>
__device__ void row_pass(const PlanarFootprint& staged, const Ring& ring, int first_t, int n,
                         int strip_w, int K) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int warps = blockDim.x >> 5;
  const int groups_x = strip_w / (kRowPixels * kLanesAlongRow);
  const int row_blocks = (n + kRowsPerWarp - 1) / kRowsPerWarp;
  for (int item = warp; item < row_blocks * groups_x; item += warps) {
    const int row = (item / groups_x) * kRowsPerWarp + lane / kLanesAlongRow;
    if (row >= n) continue;
    const int tx = (item % groups_x) * kLanesAlongRow + lane % kLanesAlongRow;
    float acc[C][kRowPixels];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const float* src =
          staged.data + c * staged.plane_stride + row * staged.pitch + tx * kRowPixels;
#pragma unroll
      for (int j = 0; j < kRowPixels; ++j) acc[c][j] = 0.0f;
      if constexpr (KT > 0) {
        constexpr int kWindow = round_up4(kRowPixels + KT - 1);
        float win[kWindow];
#pragma unroll
        for (int q = 0; q < kWindow / 4; ++q) {
          const float4 v = reinterpret_cast<const float4*>(src)[q];
          win[4 * q] = v.x;
          win[4 * q + 1] = v.y;
          win[4 * q + 2] = v.z;
          win[4 * q + 3] = v.w;
        }
#pragma unroll
        for (int kx = 0; kx < KT; ++kx)
#pragma unroll
          for (int j = 0; j < kRowPixels; ++j) acc[c][j] = fmaf(c_row[kx], win[j + kx], acc[c][j]);
      } else {
        for (int kx = 0; kx < K; ++kx) {
          const float w = c_row[kx];
#pragma unroll
          for (int j = 0; j < kRowPixels; ++j) acc[c][j] = fmaf(w, src[j + kx], acc[c][j]);
        }
      }
    }
    // 8 pixels x C channels, interleaved: 2C aligned 16-byte stores.
    float4* dst = reinterpret_cast<float4*>(ring.row(first_t + row) + tx * kRowPixels * C);
#pragma unroll
    for (int q = 0; q < 2 * C; ++q) {
      float v[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int value = 4 * q + e;
        v[e] = acc[value % C][value / C];
      }
      dst[q] = make_float4(v[0], v[1], v[2], v[3]);
    }
  }
}

__device__ __forceinline__ void store4(std::uint8_t* dst, const float4& s, int valid) {
  std::uint8_t b[4];
  const float vals[4] = {s.x, s.y, s.z, s.w};
#pragma unroll
  for (int e = 0; e < 4; ++e)
    b[e] = static_cast<std::uint8_t>(fminf(fmaxf(floorf(vals[e] + 0.5f), 0.0f), 255.0f));
  if (valid == 4 && reinterpret_cast<std::uintptr_t>(dst) % 4 == 0) {
    *reinterpret_cast<std::uint32_t*>(dst) =
        b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
    return;
  }
  for (int e = 0; e < valid; ++e) dst[e] = b[e];
}
__device__ __forceinline__ void store4(float* dst, const float4& s, int valid) {
  if (valid == 4 && reinterpret_cast<std::uintptr_t>(dst) % 16 == 0) {
    *reinterpret_cast<float4*>(dst) = s;
    return;
  }
  const float vals[4] = {s.x, s.y, s.z, s.w};
  for (int e = 0; e < valid; ++e) dst[e] = vals[e];
}

__device__ __forceinline__ void fma4(float4& acc, float w, const float4& v) {
  acc.x = fmaf(w, v.x, acc.x);
  acc.y = fmaf(w, v.y, acc.y);
  acc.z = fmaf(w, v.z, acc.z);
  acc.w = fmaf(w, v.w, acc.w);
}

// Output rows [yk, yk + chunk) of the strip from ring rows; `t0` is the ring index of image row
// yk - r. Each thread: 4 adjacent values on MY rows.
template <int KT, int MY, typename OutT>
__device__ void column_pass(const Ring& ring, OutT* out, int width, int height, int channels,
                            int x0, int yk, int y_end, int t0, int chunk, int strip_values, int K) {
  const int columns = strip_values / 4;
  const int valid_values = min(strip_values, (width - x0) * channels);
  const int items = columns * (chunk / MY);
  for (int item = threadIdx.x; item < items; item += blockDim.x) {
    const int col = item % columns;
    const int group = item / columns;
    float4 acc[MY];
#pragma unroll
    for (int i = 0; i < MY; ++i) acc[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    RingCursor cursor(ring, t0 + group * MY);
    if constexpr (KT > 0) {
#pragma unroll
      for (int t = 0; t < MY + KT - 1; ++t, cursor.next()) {
        const float4 v = cursor.row()[col];
#pragma unroll
        for (int i = 0; i < MY; ++i) {
          const int ky = t - i;
          if (ky >= 0 && ky < KT) fma4(acc[i], c_column[ky], v);
        }
      }
    } else {
      for (int t = 0; t < MY + K - 1; ++t, cursor.next()) {
        const float4 v = cursor.row()[col];
#pragma unroll
        for (int i = 0; i < MY; ++i) {
          const int ky = t - i;
          if (ky >= 0 && ky < K) fma4(acc[i], c_column[ky], v);
        }
      }
    }
    const int value = col * 4;
    if (value >= valid_values) continue;
    const int valid = min(4, valid_values - value);
#pragma unroll
    for (int i = 0; i < MY; ++i) {
      const int y = yk + group * MY + i;
      if (y >= y_end) break;
      store4(out + (static_cast<size_t>(y) * width + x0) * channels + value, acc[i], valid);
    }
  }
}

// The rows a step filters into the ring: step 0 the K - 1 rows above and below the segment's first
// output row (the prologue), step i >= 1 the `chunk` rows that complete output chunk i - 1.
struct Step {
  int first_row;
  int rows;
};
__device__ __forceinline__ Step step_rows(int step, int segment_start, int r, int chunk) {
  if (step == 0) return {segment_start - r, 2 * r};
  return {segment_start + r + (step - 1) * chunk, chunk};
}

template <int KT, int C, int SW, int MY, typename OutT>
__global__ void fused_kernel(const std::uint8_t* __restrict__ in, OutT* __restrict__ out, int width,
                             int height, int ksize, Border border, int segment, int chunk) {
  extern __shared__ __align__(16) float s_mem[];
  const FusedGeometry g{SW, chunk, C, KT > 0 ? KT : ksize};
  const int K = g.ksize;
  const int r = K / 2;
  const PlanarFootprint staged{s_mem, g.staged_pitch(), g.stage_rows() * g.staged_pitch()};
  const Ring ring{s_mem + g.staged_floats(), g.ring_rows(), g.ring_pitch()};
  std::uint8_t* raw_base = reinterpret_cast<std::uint8_t*>(ring.data + g.ring_floats());
  // Buffer `parity` of the two (a select, not an indexed array, which would live in local memory
  // and hide from the compiler that the pointers are shared).
  auto raw = [&](int parity) {
    return RawRows{raw_base + (parity ? g.raw_buffer_bytes() : 0), g.raw_pitch()};
  };
  const RowSource source{in, in + static_cast<size_t>(width) * height * C, width, height, border};
  const int x0 = blockIdx.x * SW;
  const int ys = blockIdx.y * segment;
  const int ye = min(ys + segment, height);
  const int base = ys - r;  // image row of ring index 0
  const int steps = 1 + (ye - ys + chunk - 1) / chunk;

  Step next = step_rows(0, ys, r, chunk);
  copy_rows_async<C>(raw(0), source, next.first_row, next.rows, x0 - r, SW + K - 1);
  for (int step = 0; step < steps; ++step) {
    const Step current = next;
    if (step + 1 < steps) {
      next = step_rows(step + 1, ys, r, chunk);
      copy_rows_async<C>(raw((step + 1) & 1), source, next.first_row, next.rows, x0 - r,
                         SW + K - 1);
      wait_async_copies<1>();  // this step's copies have landed, the next step's are in flight
    } else {
      wait_async_copies<0>();
    }
    __syncthreads();  // copies visible; the previous step's readers of staged rows and ring done
    convert_rows<C, float>(staged, raw(step & 1), source, current.first_row, current.rows, x0 - r,
                           SW + K - 1);
    __syncthreads();
    row_pass<KT, C>(staged, ring, current.first_row - base, current.rows, SW, K);
    if (step == 0) continue;
    __syncthreads();
    const int yk = ys + (step - 1) * chunk;
    column_pass<KT, MY, OutT>(ring, out, width, height, C, x0, yk, min(yk + chunk, ye), yk - ys,
                              chunk, SW * C, K);
  }
}

// The rung's axes: strip [width, height], rows per step, column-pass rows per thread, threads.
struct FusedLaunch {
  explicit FusedLaunch(const LaunchParams& params)
      : strip_w(params.pair("strip").x),
        strip_h(params.pair("strip").y),
        chunk(params.integer("chunk")),
        rows_per_thread(params.integer("rows_per_thread")),
        threads(params.integer("threads")) {}
  int strip_w, strip_h, chunk, rows_per_thread, threads;
};

class FusedPlan final : public KernelPlan {
 public:
  FusedPlan(const ProblemDesc& problem, const LaunchParams& params)
      : ksize_(problem.ksize),
        border_(problem.border),
        output_(problem.output),
        params_(params),
        row_(problem.row, problem.row + problem.ksize),
        column_(problem.column, problem.column + problem.ksize) {
    const int channels = launch_channels(problem, params);
    const size_t bytes = geometry(channels).shared_bytes();
    for_kernel(channels, [&](auto kernel, auto) { allow_shared_bytes(kernel, bytes); });
  }

  void before_timing(cudaStream_t stream) override {
    upload_constant(c_row, row_, stream);
    upload_constant(c_column, column_, stream);
  }

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    const FusedGeometry g = geometry(image.channels);
    const dim3 grid(ceil_div(image.width, params_.strip_w),
                    ceil_div(image.height, params_.strip_h));
    for_kernel(image.channels, [&](auto kernel, auto out_type) {
      using OutT = decltype(out_type);
      kernel<<<grid, params_.threads, g.shared_bytes(), stream>>>(
          image.in, static_cast<OutT*>(image.out), image.width, image.height, ksize_, border_,
          params_.strip_h, params_.chunk);
      CONVLAB_CUDA_CHECK_LAUNCH("fused_kernel");
    });
  }

 private:
  FusedGeometry geometry(int channels) const {
    return FusedGeometry{params_.strip_w, params_.chunk, channels, ksize_};
  }

  template <typename F>
  void for_kernel(int channels, F&& f) {
    with_point_types(ksize_, channels, output_, [&](auto kt, auto c, auto out_type) {
      with_strip_and_rows(params_.strip_w, params_.rows_per_thread, [&](auto sw, auto my) {
        using OutT = decltype(out_type);
        f(&fused_kernel<decltype(kt)::value, decltype(c)::value, decltype(sw)::value,
                        decltype(my)::value, OutT>,
          OutT{});
      });
    });
  }

  // Strip width 32, 64 or 128 pixels; column-pass rows per thread 4 or 8.
  template <typename F>
  static void with_strip_and_rows(int strip_w, int rows, F&& f) {
    with_static_value<128, 64, 32>(
        strip_w, [&](auto sw) { with_static_value<8, 4>(rows, [&](auto my) { f(sw, my); }); });
  }

  int ksize_;
  Border border_;
  OutputType output_;
  FusedLaunch params_;
  std::vector<float> row_;
  std::vector<float> column_;
};

}  // namespace

std::optional<std::string> fused_unsupported(const ProblemDesc& problem, const LaunchParams& params,
                                             int device) {
  const FusedLaunch launch(params);
  if (problem.ksize >= kFactorCapacity)
    return "kernel size " + std::to_string(problem.ksize) + " exceeds the " +
           std::to_string(kFactorCapacity - 1) + " taps of __constant__ memory reserved per factor";
  if (launch.strip_w != 32 && launch.strip_w != 64 && launch.strip_w != 128)
    return "strip width " + std::to_string(launch.strip_w) +
           " is not compiled: 32, 64 or 128 pixels";
  if (launch.rows_per_thread != 4 && launch.rows_per_thread != 8)
    return "rows_per_thread " + std::to_string(launch.rows_per_thread) + " is not compiled: 4 or 8";
  if (launch.chunk % launch.rows_per_thread != 0)
    return "chunk " + std::to_string(launch.chunk) + " must be a multiple of rows_per_thread " +
           std::to_string(launch.rows_per_thread);
  if (launch.strip_h < 1) return std::string("strip height must be positive");
  const int max_threads = device_limits(device).max_threads_per_block;
  if (launch.threads % 32 != 0 || launch.threads > max_threads)
    return "threads " + std::to_string(launch.threads) + " must be a multiple of 32 and at most " +
           std::to_string(max_threads);
  const int channels = launch_channels(problem, params);
  const FusedGeometry g{launch.strip_w, launch.chunk, channels, problem.ksize};
  return shared_bytes_unsupported(g.shared_bytes(), device,
                                  "strip " + std::to_string(launch.strip_w) + " with chunk " +
                                      std::to_string(launch.chunk) +
                                      ", K=" + std::to_string(problem.ksize) + " and " +
                                      std::to_string(channels) + " channel(s)");
}

std::unique_ptr<KernelPlan> make_fused_plan(const ProblemDesc& problem, const LaunchParams& params,
                                            int) {
  return std::make_unique<FusedPlan>(problem, params);
}

}  // namespace convlab::cuda
