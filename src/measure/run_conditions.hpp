// What else the machine was doing when a run started, recorded in its run block: timings taken
// under load or with a power-saving CPU governor are noisier, and the reader should know.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace convlab {

// {"load_average": [1 min, 5 min, 15 min] or null, "cpu_governor": "performance" (or "mixed:
// cpu0=..., ...") or null, "cpu_governor_note": why it is null}. Read from /proc/loadavg and
// /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor.
nlohmann::json run_conditions();

// Warnings for the start of a run: a 1-minute load average of 1 or more (other work competes with
// the measurements), a known governor other than "performance".
std::vector<std::string> noise_warnings(const nlohmann::json& conditions, unsigned logical_cpus);

}  // namespace convlab
