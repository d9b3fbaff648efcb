// The seam between the CUDA implementations' registration (host C++, always compiled) and their
// kernels (.cu files, compiled only when nvcc was found; src/impl/cuda/no_cuda/ stands in for them
// otherwise). Only plain C++ crosses it: no CUDA types, no JSON, so the .cu files stay small and
// the registration compiles everywhere.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/phase_times.hpp"
#include "core/types.hpp"
#include "impl/cuda/launch_params.hpp"
#include "impl/cuda/rungs.hpp"

namespace convlab::cuda {

// One value per row of rungs.hpp, in its order.
#define CONVLAB_CUDA_VARIANT(stem, ...) stem,
enum class Variant { CONVLAB_CUDA_RUNGS(CONVLAB_CUDA_VARIANT) };
#undef CONVLAB_CUDA_VARIANT

// Everything a kernel needs to know about the problem, as plain pointers into the caller's data.
struct ProblemDesc {
  const std::uint8_t* pixels = nullptr;  // interleaved HWC
  int width = 0;
  int height = 0;
  int channels = 0;
  std::string image_key;  // identifies the image for the per-image device buffer cache

  int ksize = 0;
  const float* weights = nullptr;  // ksize * ksize, correlation orientation
  bool separable = false;
  const float* column = nullptr;  // ksize, when separable
  const float* row = nullptr;     // ksize, when separable

  Border border = Border::replicate;
  OutputType output = OutputType::u8;
};

// One prepared point: device buffers allocated, input staged in pinned memory, constants ready.
class DeviceRun {
 public:
  virtual ~DeviceRun() = default;
  // Upload, compute, download; blocks until done and returns the event-timed phases.
  virtual PhaseTimes execute() = 0;
  // Interleaved result of the last execute (u8 or f32 as ProblemDesc::output).
  virtual const void* output() const = 0;
};

struct DeviceFacts {
  std::string name;
  std::string uuid;  // as nvidia-smi prints it, "GPU-8c9f2b1e-...": the device, whatever its index
  std::string pci_bus_id;  // as cudaDeviceGetPCIBusId, e.g. "0000:19:00.0" (NVML finds it by this)
  int compute_major = 0;
  int compute_minor = 0;
  int sm_count = 0;
  int sm_clock_mhz = 0;
  int memory_clock_mhz = 0;
  int memory_bus_bits = 0;
  std::uint64_t memory_bytes = 0;
  std::uint64_t l2_bytes = 0;
  std::uint64_t shared_per_block_optin = 0;
  std::uint64_t constant_bytes = 0;
  int max_threads_per_block = 0;
  int driver_version = 0;         // as cudaDriverGetVersion: 1000 * major + 10 * minor
  int runtime_version = 0;        // as cudaRuntimeGetVersion
  double copy_bytes_per_s = 0.0;  // device-to-device copy, bytes read + written per second
  double fma_per_s = 0.0;         // FP32 fused multiply-adds per second
  double tensor_fma_per_s = 0.0;  // FP16 x FP16 -> FP32 multiply-adds per second (mma.sync)
  std::uint64_t copy_buffer_bytes = 0;
};

// Build facts.
bool built();      // the kernels are compiled in
bool npp_built();  // the NPP peer is compiled in

// nullopt when `device` can run CUDA work, otherwise why not ("no CUDA device", ...).
std::optional<std::string> device_unavailable(int device);
// The CUDA devices this process sees (after CUDA_VISIBLE_DEVICES); 0 without any.
int device_count();
// The device's PCI bus id ("0000:19:00.0"), without creating a context; empty when unknown.
std::string pci_bus_id(int device);

// Limits of this device and of the kernels' compiled resources (constant memory reserved for
// coefficients, shared memory, threads per block); nullopt when the point fits.
std::optional<std::string> variant_unsupported(Variant variant, const ProblemDesc& problem,
                                               const LaunchParams& params, int device);

// Allocates (or reuses) buffers and stages the input; throws std::runtime_error on CUDA errors.
std::unique_ptr<DeviceRun> prepare(Variant variant, const ProblemDesc& problem,
                                   const LaunchParams& params, int device, bool l2_flush);

// A user's kernel (user_kernels) as the device runs it: its compiled module (a cubin for this
// device's architecture) and the launch of each pass as its source declares it
// (include/convlab/kernel.h).
struct UserKernelPass {
  int block_x = 0, block_y = 0, pixels_x = 0, pixels_y = 0, shared_bytes = 0;
};
struct UserKernelModule {
  std::string image;  // the cubin's bytes
  std::vector<UserKernelPass> passes;
  int constant_capacity = 0;  // floats of convlab_constant_weights; 0: none
  bool needs_scratch = false;
};
// Why the module cannot run `problem` on `device` (shared memory or threads beyond its limits);
// nullopt when it can.
std::optional<std::string> user_kernel_unsupported(const UserKernelModule& module,
                                                   const ProblemDesc& problem, int device);
// Loads the module (cudaLibraryLoadData), allocates and stages as every rung does; throws
// std::runtime_error on CUDA errors.
std::unique_ptr<DeviceRun> prepare_user_kernel(const UserKernelModule& module,
                                               const ProblemDesc& problem, int device,
                                               bool l2_flush);
// The compute capability of `device` as major * 10 + minor (90 for an H100); nullopt without one.
std::optional<int> compute_capability(int device);

// Device facts and calibration (runs two small kernels); throws std::runtime_error on errors.
DeviceFacts describe_device(int device);

}  // namespace convlab::cuda
