#include "measure/gpu_clocks.hpp"

#include <dlfcn.h>

#include <utility>

namespace convlab {
namespace {

// The few NVML entry points used, declared as the NVML API documents them (C linkage, an int
// status where 0 is success, an opaque device handle).
using NvmlReturn = int;
using NvmlDevice = struct NvmlDeviceOpaque*;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;         // NVML_CLOCK_SM
constexpr int kNvmlClockMemory = 2;     // NVML_CLOCK_MEM
constexpr int kNvmlTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU

using InitFn = NvmlReturn (*)();
using ShutdownFn = NvmlReturn (*)();
using HandleByBusIdFn = NvmlReturn (*)(const char*, NvmlDevice*);
using ClockFn = NvmlReturn (*)(NvmlDevice, int, unsigned int*);
using ReasonsFn = NvmlReturn (*)(NvmlDevice, unsigned long long*);
using TemperatureFn = NvmlReturn (*)(NvmlDevice, int, unsigned int*);
using PowerFn = NvmlReturn (*)(NvmlDevice, unsigned int*);

// NVML clock event reason bits (nvmlClocksEventReason*).
struct ReasonName {
  std::uint64_t bit;
  const char* name;
  bool throttling;
};
constexpr ReasonName kReasons[] = {
    {0x1, "gpu_idle", false},
    {0x2, "applications_clocks_setting", false},
    {0x4, "sw_power_cap", true},
    {0x8, "hw_slowdown", true},
    {0x10, "sync_boost", true},
    {0x20, "sw_thermal_slowdown", true},
    {0x40, "hw_thermal_slowdown", true},
    {0x80, "hw_power_brake_slowdown", true},
    {0x100, "display_clock_setting", false},
};

template <typename F>
F symbol(void* handle, const char* name) {
  return reinterpret_cast<F>(dlsym(handle, name));
}

}  // namespace

struct GpuClockProbe::Library {
  void* handle = nullptr;
  NvmlDevice device = nullptr;
  ShutdownFn shutdown = nullptr;
  ClockFn clock = nullptr;
  ClockFn max_clock = nullptr;
  ReasonsFn reasons = nullptr;
  TemperatureFn temperature = nullptr;
  PowerFn power = nullptr;
  ~Library() {
    if (shutdown != nullptr) shutdown();
    if (handle != nullptr) dlclose(handle);
  }
};

std::vector<std::string> clock_reason_names(std::uint64_t reasons) {
  std::vector<std::string> names;
  for (const auto& reason : kReasons)
    if (reasons & reason.bit) names.emplace_back(reason.name);
  return names;
}

bool is_throttling(std::uint64_t reasons) {
  for (const auto& reason : kReasons)
    if (reason.throttling && (reasons & reason.bit)) return true;
  return false;
}

GpuClockProbe::GpuClockProbe(const std::string& pci_bus_id) : library_(new Library()) {
  Library& lib = *library_;
  lib.handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib.handle == nullptr) {
    const char* error = dlerror();
    unavailable_ = std::string("NVML not found (libnvidia-ml.so.1): ") + (error ? error : "");
    return;
  }
  const auto init = symbol<InitFn>(lib.handle, "nvmlInit_v2");
  const auto by_bus_id = symbol<HandleByBusIdFn>(lib.handle, "nvmlDeviceGetHandleByPciBusId_v2");
  lib.clock = symbol<ClockFn>(lib.handle, "nvmlDeviceGetClockInfo");
  lib.max_clock = symbol<ClockFn>(lib.handle, "nvmlDeviceGetMaxClockInfo");
  lib.reasons = symbol<ReasonsFn>(lib.handle, "nvmlDeviceGetCurrentClocksEventReasons");
  if (lib.reasons == nullptr)
    lib.reasons = symbol<ReasonsFn>(lib.handle, "nvmlDeviceGetCurrentClocksThrottleReasons");
  lib.temperature = symbol<TemperatureFn>(lib.handle, "nvmlDeviceGetTemperature");
  lib.power = symbol<PowerFn>(lib.handle, "nvmlDeviceGetPowerUsage");
  if (!init || !by_bus_id || !lib.clock || !lib.max_clock || !lib.reasons) {
    unavailable_ = std::string("NVML library lacks the clock functions");
    return;
  }
  if (init() != kNvmlSuccess) {
    unavailable_ = std::string("nvmlInit_v2 failed");
    return;
  }
  lib.shutdown = symbol<ShutdownFn>(lib.handle, "nvmlShutdown");
  if (by_bus_id(pci_bus_id.c_str(), &lib.device) != kNvmlSuccess)
    unavailable_ = "NVML has no device at PCI bus id " + pci_bus_id;
}

GpuClockProbe::~GpuClockProbe() = default;

std::optional<GpuClockSample> GpuClockProbe::sample() const {
  if (unavailable_) return std::nullopt;
  const Library& lib = *library_;
  GpuClockSample s;
  unsigned int value = 0;
  if (lib.clock(lib.device, kNvmlClockSm, &value) != kNvmlSuccess) return std::nullopt;
  s.sm_clock_mhz = static_cast<int>(value);
  if (lib.max_clock(lib.device, kNvmlClockSm, &value) == kNvmlSuccess)
    s.max_sm_clock_mhz = static_cast<int>(value);
  if (lib.clock(lib.device, kNvmlClockMemory, &value) == kNvmlSuccess)
    s.memory_clock_mhz = static_cast<int>(value);
  unsigned long long reasons = 0;
  if (lib.reasons(lib.device, &reasons) == kNvmlSuccess) s.reasons = reasons;
  if (lib.temperature && lib.temperature(lib.device, kNvmlTemperatureGpu, &value) == kNvmlSuccess)
    s.temperature_c = static_cast<int>(value);
  if (lib.power && lib.power(lib.device, &value) == kNvmlSuccess) s.power_w = value / 1000.0;
  return s;
}

}  // namespace convlab
