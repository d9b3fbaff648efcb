// What else the machine was doing when a run started, recorded in its run block: timings taken
// under load or with a power-saving CPU governor are noisier, and the reader should know.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace convlab {

struct RunConditions {
  std::optional<std::vector<double>> load_average;  // 1, 5 and 15 minutes
  std::optional<std::string> cpu_governor;          // "performance", or "mixed: cpu0=..., ..."
  std::optional<std::string> cpu_governor_note;     // why there is no governor
};

// Read from /proc/loadavg and /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor.
RunConditions run_conditions();

// Warnings for the start of a run: a 1-minute load average of 1 or more (other work competes with
// the measurements), a known governor other than "performance".
std::vector<std::string> noise_warnings(const RunConditions& conditions, unsigned logical_cpus);

}  // namespace convlab
