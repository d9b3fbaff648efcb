// Which device is there, what it can hold, and how fast it copies and multiplies: the facts the
// runner records once per run and the two calibration figures roofline fractions are based on.
#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <vector>

#include "impl/cuda/buffers.cuh"
#include "impl/cuda/device_calls.hpp"
#include "impl/cuda/kernel_plan.cuh"
#include "impl/cuda/mma.cuh"

namespace convlab::cuda {
namespace {

// Calibration sizes. The copy moves two buffers much larger than any L2 (60 MB on an H200) so it
// measures DRAM; the FMA kernel runs long enough (about a millisecond) that launch cost vanishes.
constexpr size_t kCopyBufferBytes = size_t{512} << 20;
constexpr int kCalibrationRepetitions = 10;
constexpr int kFmaThreadsPerBlock = 256;
constexpr int kFmaChains = 8;  // independent accumulators per thread hide the FMA latency
constexpr int kFmaIterations = 8192;

// Each thread copies 16-byte vectors, grid-stride: the widest plain loads and stores.
__global__ void copy_kernel(const float4* __restrict__ src, float4* __restrict__ dst, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    dst[i] = src[i];
}

// kFmaChains independent chains of kFmaIterations FMAs per thread. The result is stored only if it
// equals an impossible value, which keeps the compiler from removing the work.
__global__ void fma_kernel(float seed, float* sink) {
  float acc[kFmaChains];
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) acc[c] = seed + threadIdx.x + c;
  const float a = 0.999f;
  const float b = 1e-3f;
  for (int i = 0; i < kFmaIterations; ++i) {
#pragma unroll
    for (int c = 0; c < kFmaChains; ++c) acc[c] = fmaf(acc[c], a, b);
  }
  float sum = 0.0f;
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) sum += acc[c];
  if (sum == -1.0f) *sink = sum;
}

// Tensor-core rate: kMmaChains independent accumulators of kMmaIterations mma.sync m16n8k16
// (FP16 in, FP32 accumulate) per warp; the operands are small so the sums stay finite.
constexpr int kMmaChains = 4;
constexpr int kMmaIterations = 4096;
constexpr int kMmaThreadsPerBlock = 256;
constexpr double kMmaMultiplyAdds = 16.0 * 8.0 * 16.0;  // per instruction and warp

__global__ void mma_kernel(std::uint32_t operand, float* sink) {
  const std::uint32_t a[4] = {operand, operand ^ threadIdx.x, operand, operand};
  const uint2 b = make_uint2(operand, operand);
  float acc[kMmaChains][4];
#pragma unroll
  for (int c = 0; c < kMmaChains; ++c)
#pragma unroll
    for (int e = 0; e < 4; ++e) acc[c][e] = 0.0f;
  for (int i = 0; i < kMmaIterations; ++i) {
#pragma unroll
    for (int c = 0; c < kMmaChains; ++c) mma(acc[c], a, b);
  }
  float sum = 0.0f;
#pragma unroll
  for (int c = 0; c < kMmaChains; ++c) sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  if (sum == -1.0f) *sink = sum;
}

int device_count_or_error(cudaError_t* error) {
  int count = 0;
  *error = cudaGetDeviceCount(&count);
  if (*error != cudaSuccess) count = 0;
  return count;
}

}  // namespace

// The UUID as nvidia-smi prints it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
static std::string uuid_text(const cudaUUID_t& uuid) {
  static const int groups[] = {4, 2, 2, 2, 6};
  std::string text = "GPU";
  int byte = 0;
  for (int group : groups) {
    text += '-';
    for (int i = 0; i < group; ++i, ++byte) {
      char hex[3];
      std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(uuid.bytes[byte]));
      text += hex;
    }
  }
  return text;
}

int device_count() {
  cudaError_t error = cudaSuccess;
  return device_count_or_error(&error);
}

std::string pci_bus_id(int device) {
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) != cudaSuccess) return "";
  return bus_id;
}

std::optional<std::string> device_unavailable(int device) {
  static cudaError_t error = cudaSuccess;
  static const int count = device_count_or_error(&error);
  if (count == 0) {
    if (error == cudaSuccess || error == cudaErrorNoDevice || error == cudaErrorInsufficientDriver)
      return std::string("no CUDA device");
    return std::string("no CUDA device: ") + cudaGetErrorString(error);
  }
  if (device < 0 || device >= count)
    return "CUDA device " + std::to_string(device) + " not present (" + std::to_string(count) +
           " device" + (count == 1 ? "" : "s") + ")";
  return std::nullopt;
}

const DeviceLimits& device_limits(int device) {
  static std::mutex mutex;
  static std::map<int, DeviceLimits> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(device);
  if (it != cache.end()) return it->second;
  cudaDeviceProp prop{};
  CONVLAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  DeviceLimits limits;
  limits.max_threads_per_block = prop.maxThreadsPerBlock;
  limits.shared_per_block = prop.sharedMemPerBlock;
  limits.shared_per_block_optin = std::max(prop.sharedMemPerBlockOptin, prop.sharedMemPerBlock);
  limits.l2_bytes = static_cast<size_t>(prop.l2CacheSize);
  limits.sm_count = prop.multiProcessorCount;
  return cache.emplace(device, limits).first->second;
}

DeviceFacts describe_device(int device) {
  CONVLAB_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  CONVLAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  DeviceFacts facts;
  facts.name = prop.name;
  facts.uuid = uuid_text(prop.uuid);
  char bus_id[32] = {};
  CONVLAB_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device));
  facts.pci_bus_id = bus_id;
  facts.compute_major = prop.major;
  facts.compute_minor = prop.minor;
  facts.sm_count = prop.multiProcessorCount;
  int khz = 0;
  CONVLAB_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  facts.sm_clock_mhz = khz / 1000;
  CONVLAB_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device));
  facts.memory_clock_mhz = khz / 1000;
  CONVLAB_CUDA_CHECK(
      cudaDeviceGetAttribute(&facts.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  facts.memory_bytes = prop.totalGlobalMem;
  facts.l2_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
  facts.shared_per_block_optin = prop.sharedMemPerBlockOptin;
  facts.constant_bytes = prop.totalConstMem;
  facts.max_threads_per_block = prop.maxThreadsPerBlock;
  CONVLAB_CUDA_CHECK(cudaDriverGetVersion(&facts.driver_version));
  CONVLAB_CUDA_CHECK(cudaRuntimeGetVersion(&facts.runtime_version));

  Stream stream;
  Event start;
  Event stop;

  // Copy bandwidth: best of the repetitions, bytes read plus bytes written.
  {
    DeviceBuffer src;
    DeviceBuffer dst;
    src.reserve(kCopyBufferBytes);
    dst.reserve(kCopyBufferBytes);
    CONVLAB_CUDA_CHECK(cudaMemsetAsync(src.data(), 1, kCopyBufferBytes, stream.get()));
    const size_t vectors = kCopyBufferBytes / sizeof(float4);
    const int threads = 256;
    const int blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / threads);
    double best_ms = 0.0;
    for (int rep = 0; rep <= kCalibrationRepetitions; ++rep) {  // rep 0 is the warm-up
      start.record(stream.get());
      copy_kernel<<<blocks, threads, 0, stream.get()>>>(src.as<const float4>(), dst.as<float4>(),
                                                        vectors);
      CONVLAB_CUDA_CHECK_LAUNCH("copy_kernel");
      stop.record(stream.get());
      CONVLAB_CUDA_CHECK(cudaEventSynchronize(stop.get()));
      const double ms = elapsed_ms(start, stop);
      if (rep > 0 && (best_ms == 0.0 || ms < best_ms)) best_ms = ms;
    }
    facts.copy_buffer_bytes = kCopyBufferBytes;
    facts.copy_bytes_per_s = 2.0 * static_cast<double>(kCopyBufferBytes) / (best_ms * 1e-3);
  }

  // FP32 FMA rate: best of the repetitions.
  {
    DeviceBuffer sink;
    sink.reserve(sizeof(float));
    const int blocks =
        prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / kFmaThreadsPerBlock);
    double best_ms = 0.0;
    for (int rep = 0; rep <= kCalibrationRepetitions; ++rep) {
      start.record(stream.get());
      fma_kernel<<<blocks, kFmaThreadsPerBlock, 0, stream.get()>>>(1.0f, sink.as<float>());
      CONVLAB_CUDA_CHECK_LAUNCH("fma_kernel");
      stop.record(stream.get());
      CONVLAB_CUDA_CHECK(cudaEventSynchronize(stop.get()));
      const double ms = elapsed_ms(start, stop);
      if (rep > 0 && (best_ms == 0.0 || ms < best_ms)) best_ms = ms;
    }
    const double fmas = static_cast<double>(blocks) * kFmaThreadsPerBlock * kFmaChains *
                        static_cast<double>(kFmaIterations);
    facts.fma_per_s = fmas / (best_ms * 1e-3);
  }

  // Tensor-core FP16 -> FP32 multiply-add rate (compute capability 8.0 and newer): best of the
  // repetitions. The operand 0x1400 is the FP16 value 2^-10 in both halves.
  if (prop.major >= 8) {
    DeviceBuffer sink;
    sink.reserve(sizeof(float));
    const int blocks =
        prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / kMmaThreadsPerBlock);
    double best_ms = 0.0;
    for (int rep = 0; rep <= kCalibrationRepetitions; ++rep) {
      start.record(stream.get());
      mma_kernel<<<blocks, kMmaThreadsPerBlock, 0, stream.get()>>>(0x14001400u, sink.as<float>());
      CONVLAB_CUDA_CHECK_LAUNCH("mma_kernel");
      stop.record(stream.get());
      CONVLAB_CUDA_CHECK(cudaEventSynchronize(stop.get()));
      const double ms = elapsed_ms(start, stop);
      if (rep > 0 && (best_ms == 0.0 || ms < best_ms)) best_ms = ms;
    }
    const double warps = static_cast<double>(blocks) * kMmaThreadsPerBlock / 32.0;
    const double macs = warps * kMmaChains * kMmaIterations * kMmaMultiplyAdds;
    facts.tensor_fma_per_s = macs / (best_ms * 1e-3);
  }
  return facts;
}

}  // namespace convlab::cuda
