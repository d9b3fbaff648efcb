// What the runner records about the GPU once per run (the run block's "cuda" object): device facts
// and the calibration figures that roofline fractions are computed from. Without CUDA it returns
// {"available": false, "reason": "..."}.
//
// With a device the object carries at least:
//   available: true, device (the index), name, uuid, compute_capability, sm_count,
//   sm_clock_mhz, memory_clock_mhz, memory_bytes, l2_bytes, driver_version, runtime_version,
//   calibration: {copy_bytes_per_s, fma_per_s}   (measured by small kernels at run start)
#pragma once

#include <nlohmann/json.hpp>

#include "impl/implementation.hpp"

namespace convlab {

nlohmann::json describe_cuda_device(const RunContext& context);

// The CUDA devices this process sees; 0 without CUDA or a device.
int cuda_device_count();
// The PCI bus id of a device ("0000:19:00.0"), empty without CUDA or that device.
std::string cuda_pci_bus_id(int device);

// A build fact for `convlab list` and the run's build block (run.build.cuda_built): whether the
// CUDA kernels were compiled in.
bool cuda_built();

}  // namespace convlab
