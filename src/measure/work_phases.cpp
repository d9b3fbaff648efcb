#include "measure/work_phases.hpp"

#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace convlab {
namespace {

constexpr const char* kPhaseNames[kWorkPhaseCount] = {"setup",     "start",   "device", "image",
                                                      "reference", "prepare", "timing", "verify",
                                                      "save",      "record"};

}  // namespace

const char* phase_name(WorkPhase phase) {
  return kPhaseNames[static_cast<std::size_t>(phase)];
}

std::optional<WorkPhase> phase_named(const std::string& name) {
  for (std::size_t i = 0; i < kWorkPhaseCount; ++i)
    if (name == kPhaseNames[i]) return static_cast<WorkPhase>(i);
  return std::nullopt;
}

double PhaseSeconds::sum() const {
  double total = 0.0;
  for (double s : seconds) total += s;
  return total;
}

PhaseSeconds PhaseSeconds::operator-(const PhaseSeconds& earlier) const {
  PhaseSeconds difference;
  for (std::size_t i = 0; i < kWorkPhaseCount; ++i)
    difference.seconds[i] = seconds[i] - earlier.seconds[i];
  return difference;
}

double process_age_seconds() {
  // Field 22 of /proc/self/stat is the start time in clock ticks since boot; the command name
  // (field 2) is in parentheses and may hold blanks, so fields are counted after its ')'. The
  // kernel truncates the start to a whole tick, so half a tick is added back: the age is then
  // within half a tick (5 ms at 100 Hz) either way, rather than up to a tick too long.
  std::ifstream stat("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');
  timespec now{};
  if (close == std::string::npos || ::clock_gettime(CLOCK_BOOTTIME, &now) != 0) return 0.0;
  std::istringstream fields(text.substr(close + 1));
  std::string field;
  for (int number = 3; number < 22 && fields >> field; ++number) {
  }
  unsigned long long start_ticks = 0;
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  if (!(fields >> start_ticks) || ticks_per_second <= 0) return 0.0;
  const double uptime = double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
  const double started = (double(start_ticks) + 0.5) / double(ticks_per_second);
  const double age = uptime - started;
  return age > 0.0 ? age : 0.0;
}

double process_clock_tick_seconds() {
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  return ticks_per_second > 0 ? 1.0 / double(ticks_per_second) : 0.01;
}

}  // namespace convlab
