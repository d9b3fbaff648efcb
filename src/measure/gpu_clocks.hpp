// GPU clocks and throttle reasons, read through NVML (the driver's management library), so that a
// point measured below the maximum SM clock or while the driver throttled the GPU is flagged in its
// record. NVML is opened at run time (dlopen of libnvidia-ml.so.1, which ships with the driver):
// convlab builds without its header and runs on machines without a driver, where the probe
// reports why it is unavailable.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace convlab {

struct GpuClockSample {
  int sm_clock_mhz = 0;
  int max_sm_clock_mhz = 0;
  int memory_clock_mhz = 0;
  std::uint64_t reasons = 0;  // NVML clock event (throttle) reason bits
  int temperature_c = 0;
  double power_w = 0.0;
};

// Names of the reason bits set in `reasons` (e.g. "sw_power_cap", "hw_thermal_slowdown").
std::vector<std::string> clock_reason_names(std::uint64_t reasons);

// Reasons that lower the clock below what the application asked for: power and thermal caps,
// hardware slowdown, sync boost. Idle and application clock settings are not counted.
bool is_throttling(std::uint64_t reasons);

class GpuClockProbe {
 public:
  // `pci_bus_id` as cudaDeviceGetPCIBusId writes it, e.g. "0000:19:00.0".
  explicit GpuClockProbe(const std::string& pci_bus_id);
  ~GpuClockProbe();
  GpuClockProbe(const GpuClockProbe&) = delete;
  GpuClockProbe& operator=(const GpuClockProbe&) = delete;

  // Why no samples can be taken ("NVML not found: ..."), or nullopt when they can.
  const std::optional<std::string>& unavailable() const { return unavailable_; }
  std::optional<GpuClockSample> sample() const;

 private:
  struct Library;
  std::unique_ptr<Library> library_;
  std::optional<std::string> unavailable_;
};

}  // namespace convlab
