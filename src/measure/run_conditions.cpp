#include "measure/run_conditions.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/number_text.hpp"

namespace convlab {
namespace {

std::optional<std::vector<double>> load_average() {
  // CONVLAB_TEST_LOADAVG names a file in /proc/loadavg's format to read instead: the tests of the
  // load warning need a loaded machine they can name.
  const char* pretend = std::getenv("CONVLAB_TEST_LOADAVG");
  std::ifstream file(pretend && *pretend ? pretend : "/proc/loadavg");
  double one = 0, five = 0, fifteen = 0;
  if (!(file >> one >> five >> fifteen)) return std::nullopt;
  return std::vector<double>{one, five, fifteen};
}

}  // namespace

RunConditions run_conditions() {
  RunConditions conditions;
  conditions.load_average = load_average();
  std::map<std::string, std::string> governors;  // cpuN -> governor
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/devices/system/cpu", error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("cpu", 0) != 0 || name.size() < 4 || !std::isdigit(name[3])) continue;
    std::ifstream file(entry.path() / "cpufreq" / "scaling_governor");
    std::string governor;
    if (file >> governor) governors[name] = governor;
  }
  if (governors.empty()) {
    conditions.cpu_governor_note =
        "no cpufreq governor in /sys/devices/system/cpu (a virtual machine, or clocks managed "
        "by firmware)";
    return conditions;
  }
  std::string first = governors.begin()->second, mixed;
  bool all_same = true;
  for (const auto& [cpu, governor] : governors) {
    all_same = all_same && governor == first;
    mixed += (mixed.empty() ? "" : ", ") + cpu + "=" + governor;
  }
  conditions.cpu_governor = all_same ? first : "mixed: " + mixed;
  return conditions;
}

std::vector<std::string> noise_warnings(const RunConditions& conditions, unsigned logical_cpus) {
  std::vector<std::string> warnings;
  const auto& load = conditions.load_average;
  if (load && !load->empty() && load->front() >= 1.0)
    warnings.push_back("load average " + format_number(load->front(), 3) + " at start (" +
                       std::to_string(logical_cpus) +
                       " logical CPUs): other work competes with the measurements");
  const auto& governor = conditions.cpu_governor;
  if (governor && *governor != "performance")
    warnings.push_back("CPU frequency governor '" + *governor +
                       "': clocks change with load; 'performance' gives steadier timings");
  return warnings;
}

}  // namespace convlab
