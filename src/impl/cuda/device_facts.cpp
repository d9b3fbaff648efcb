// describe_cuda_device: the run block's "cuda" object (see device_facts.hpp).
#include "impl/cuda/device_facts.hpp"

#include <exception>
#include <string>

#include "impl/cuda/device_calls.hpp"

namespace convlab {

nlohmann::json describe_cuda_device(const RunContext& context) {
  if (auto reason = cuda::device_unavailable(context.cuda_device))
    return {{"available", false}, {"reason", *reason}};
  try {
    const cuda::DeviceFacts f = cuda::describe_device(context.cuda_device);
    auto version = [](int v) {
      return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
    };
    return {
        {"available", true},
        {"device", context.cuda_device},
        {"name", f.name},
        {"uuid", f.uuid},
        {"pci_bus_id", f.pci_bus_id},
        {"compute_capability",
         std::to_string(f.compute_major) + "." + std::to_string(f.compute_minor)},
        {"sm_count", f.sm_count},
        {"sm_clock_mhz", f.sm_clock_mhz},
        {"memory_clock_mhz", f.memory_clock_mhz},
        {"memory_bus_bits", f.memory_bus_bits},
        {"memory_bytes", f.memory_bytes},
        {"l2_bytes", f.l2_bytes},
        {"shared_per_block_optin_bytes", f.shared_per_block_optin},
        {"constant_bytes", f.constant_bytes},
        {"max_threads_per_block", f.max_threads_per_block},
        {"driver_version", version(f.driver_version)},
        {"runtime_version", version(f.runtime_version)},
        {"npp_built", cuda::npp_built()},
        {"calibration",
         {{"copy_bytes_per_s", f.copy_bytes_per_s},
          {"fma_per_s", f.fma_per_s},
          {"tensor_fma_per_s", f.tensor_fma_per_s},
          {"method",
           "best of 10 event-timed runs: a 16-byte-vector copy kernel between two " +
               std::to_string(f.copy_buffer_bytes >> 20) +
               " MiB device buffers (bytes read + written), a kernel of independent FP32 FMA "
               "chains filling every SM, and one of independent mma.sync m16n8k16 FP16 -> FP32 "
               "chains (tensor_fma_per_s: 2048 multiply-adds per instruction)"}}},
    };
  } catch (const std::exception& error) {
    return {{"available", false}, {"reason", std::string("CUDA error: ") + error.what()}};
  }
}

int cuda_device_count() {
  return cuda::device_count();
}

std::string cuda_pci_bus_id(int device) {
  return cuda::pci_bus_id(device);
}

}  // namespace convlab
