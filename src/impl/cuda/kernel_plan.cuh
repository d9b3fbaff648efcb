// What every kernel variant provides to the shared point runner (point_runner.cu): a plan that
// launches its kernel(s) on one image or one channel plane, plus the helpers all variants share:
// the output conversion and the compile-time dispatch on K, channels and output type.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/border.hpp"
#include "impl/cuda/cuda_check.cuh"
#include "impl/cuda/device_calls.hpp"

namespace convlab::cuda {

// Device facts the variants check their resources against.
struct DeviceLimits {
  int max_threads_per_block = 1024;
  size_t shared_per_block = 48 * 1024;        // without opting in
  size_t shared_per_block_optin = 48 * 1024;  // with cudaFuncAttributeMaxDynamicSharedMemorySize
  size_t l2_bytes = 0;
  int sm_count = 0;
};
const DeviceLimits& device_limits(int device);

// One launch's view of the device buffers: a whole interleaved image, or one plane (channels = 1).
struct DeviceImage {
  const std::uint8_t* in = nullptr;
  void* out = nullptr;       // std::uint8_t or float, as ProblemDesc::output
  float* scratch = nullptr;  // width * height * channels floats, for variants that ask for it
  int width = 0;
  int height = 0;
  int channels = 0;
};

class KernelPlan {
 public:
  virtual ~KernelPlan() = default;
  // Float values of intermediate storage per image value (the separable pass needs 1).
  virtual bool needs_scratch() const { return false; }
  // Runs before the timed region of every repetition, on the first stream (e.g. copying
  // coefficients to __constant__ memory, which every point of the variant shares).
  virtual void before_timing(cudaStream_t /*stream*/) {}
  // Enqueues the kernel(s) for `image` on `stream`; checks the launch.
  virtual void launch(const DeviceImage& image, cudaStream_t stream) = 0;
};

// The variants, one file each (k1_global.cu ... npp/npp_peer.cu), one row each in rungs.hpp.
// `<stem>_unsupported` gives the reason a point does not fit this device or the variant's compiled
// resources; `make_<stem>_plan` assumes it fits and may upload coefficients.
#define CONVLAB_CUDA_RUNG_FUNCTIONS(stem, ...)                                            \
  std::optional<std::string> stem##_unsupported(const ProblemDesc&, const LaunchParams&,  \
                                                int device);                              \
  std::unique_ptr<KernelPlan> make_##stem##_plan(const ProblemDesc&, const LaunchParams&, \
                                                 int device);
CONVLAB_CUDA_RUNGS(CONVLAB_CUDA_RUNG_FUNCTIONS)
#undef CONVLAB_CUDA_RUNG_FUNCTIONS

// A point run (upload, the plan's launches, download, event timing; interleaved layout, one
// stream) of a plan that is not a row of rungs.hpp: a user's kernel (user_kernel.cu).
std::unique_ptr<DeviceRun> prepare_with_plan(std::unique_ptr<KernelPlan> plan,
                                             const ProblemDesc& problem, int device, bool l2_flush);

// The axes of rungs 1-4 as their launches read them: `block` (threads per block [x, y]) and, for
// the tiled rungs 3-4, `tile` (output tile edge in pixels).
struct BlockLaunch {
  explicit BlockLaunch(const LaunchParams& params)
      : block_x(params.pair("block").x), block_y(params.pair("block").y) {}
  int block_x, block_y;
};
struct TiledLaunch : BlockLaunch {
  explicit TiledLaunch(const LaunchParams& params)
      : BlockLaunch(params), tile(params.integer("tile")) {}
  int tile;
};

// How rungs 3 and 4 name a tile in their shared-memory skip reason.
std::string tile_description(int tile, int ksize, int channels);

// Threads per block within the device's limit (shared by the variants with a `block` axis).
std::optional<std::string> block_unsupported(const BlockLaunch& launch, int device);

// The skip reasons several rungs give in the same words, each nullopt where the point fits.
// A KxK matrix within the `capacity` floats of __constant__ memory a rung reserves for it.
std::optional<std::string> constant_weights_unsupported(int ksize, int capacity);
// `bytes` of dynamic shared memory within the device's opt-in limit; `what` names the tile.
std::optional<std::string> shared_bytes_unsupported(size_t bytes, int device,
                                                    const std::string& what);
// `threads` (`per_plane` times `channels` planes) within `max_threads` per block.
std::optional<std::string> threads_unsupported(long long threads, int max_threads,
                                               const std::string& per_plane, int channels);
// The FP16 mma.sync of the tensor-core rungs (mma.cuh) needs compute capability 8.0.
std::optional<std::string> mma_unsupported(int device);
// Blocks in y, one per segment of `rows` image rows, within CUDA's grid limit.
std::optional<std::string> segments_unsupported(int height, int rows);

// Channels one launch sees: 1 when the planar layout launches once per plane.
inline int launch_channels(const ProblemDesc& problem, const LaunchParams& params) {
  return params.layout == Layout::planar ? 1 : problem.channels;
}

// Beyond 48 KB of dynamic shared memory a kernel must opt in (cudaFuncSetAttribute).
constexpr size_t kDefaultSharedLimit = 48 * 1024;
template <typename Kernel>
void allow_shared_bytes(Kernel kernel, size_t bytes) {
  if (bytes <= kDefaultSharedLimit) return;
  CONVLAB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
}

// Copies `values` to the start of a __constant__ array of this translation unit, on `stream`.
template <typename Symbol>
void upload_constant(const Symbol& symbol, const std::vector<float>& values, cudaStream_t stream) {
  CONVLAB_CUDA_CHECK(cudaMemcpyToSymbolAsync(symbol, values.data(), values.size() * sizeof(float),
                                             0, cudaMemcpyHostToDevice, stream));
}

// --- Output conversion -------------------------------------------------------------------------
// u8: round half up, then clamp, exactly as the CPU reference: clamp(floor(sum + 0.5), 0, 255).
// f32: the float sum itself.
__device__ __forceinline__ void store_output(std::uint8_t* out, size_t index, float sum) {
  const float rounded = fminf(fmaxf(floorf(sum + 0.5f), 0.0f), 255.0f);
  out[index] = static_cast<std::uint8_t>(rounded);
}
__device__ __forceinline__ void store_output(float* out, size_t index, float sum) {
  out[index] = sum;
}

// --- Shared-memory staging
// ------------------------------------------------------------------------ Loads `span` pixels of
// an input row, starting at column `left`, into shared memory as float, all C channels interleaved;
// the threads of a block row stride over the values. When the whole span lies inside the image
// (`span_inside`) the bytes are contiguous and read coalesced with no border mapping; otherwise
// each column is mapped by the border rule (0 outside for the zero border).
template <int C>
__device__ __forceinline__ void load_row_span(float* dst, const std::uint8_t* src_row, int left,
                                              int span, int width, Border border,
                                              bool span_inside) {
  const int values = span * C;
  if (span_inside) {
    const std::uint8_t* src = src_row + left * C;
    for (int v = threadIdx.x; v < values; v += blockDim.x) dst[v] = src[v];
    return;
  }
  for (int v = threadIdx.x; v < values; v += blockDim.x) {
    const int sx = v / C;
    const int c = v - sx * C;
    const int gx = map_border_index(left + sx, width, border);
    dst[v] = gx == kOutsideImage ? 0.0f : static_cast<float>(src_row[gx * C + c]);
  }
}

// --- Compile-time dispatch -----------------------------------------------------------------------
// Calls f(std::integral_constant<int, V>{}) for the first V of Values equal to `value`; the last of
// Values stands for every value not listed.
template <int First, int... Rest, typename F>
void with_static_value(int value, F&& f) {
  if constexpr (sizeof...(Rest) == 0) {
    f(std::integral_constant<int, First>{});
  } else if (value == First) {
    f(std::integral_constant<int, First>{});
  } else {
    with_static_value<Rest...>(value, f);
  }
}

// Kernels take K as a template parameter KT; KT = 0 means "read K at run time". The sizes listed
// here get a specialisation whose tap loops the compiler unrolls completely (coefficients become
// immediate constant-bank operands for the __constant__ variants); any other K runs the generic
// kernel. Adding a size here is all it takes to specialise it.
template <typename F>
void with_static_ksize(int ksize, F&& f) {
  with_static_value<3, 5, 7, 9, 11, 15, 21, 0>(ksize, f);
}

// Interleaved images have 1 or 3 channels; planes have 1. The channel count is a template parameter
// so each thread keeps one accumulator per channel in registers.
template <typename F>
void with_static_channels(int channels, F&& f) {
  with_static_value<3, 1>(channels, f);
}

// Output value type: std::uint8_t or float.
template <typename F>
void with_output_type(OutputType type, F&& f) {
  if (type == OutputType::f32) {
    f(float{});
  } else {
    f(std::uint8_t{});
  }
}

// Calls f(KT, C, OutT{}) with the compile-time K, channel count and output value of a launch.
template <typename F>
void with_point_types(int ksize, int channels, OutputType output, F&& f) {
  with_static_ksize(ksize, [&](auto kt) {
    with_static_channels(channels, [&](auto c) {
      with_output_type(output, [&](auto out_type) { f(kt, c, out_type); });
    });
  });
}

inline unsigned ceil_div(int a, int b) {
  return static_cast<unsigned>((a + b - 1) / b);
}

}  // namespace convlab::cuda
