#include "run/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace convlab {

std::string format_duration(double seconds) {
  if (seconds < 0) return "?";
  const long total = static_cast<long>(seconds + 0.5);
  char text[32];
  if (total >= 3600)
    std::snprintf(text, sizeof text, "%ldh%02ldm", total / 3600, (total / 60) % 60);
  else
    std::snprintf(text, sizeof text, "%ldm%02lds", total / 60, total % 60);
  return text;
}

Progress::Progress(size_t total, bool quiet, bool verbose)
    : total_(total), terminal_(::isatty(STDERR_FILENO) == 1), quiet_(quiet), verbose_(verbose) {}

void Progress::starting(size_t index, const std::string& label, double estimated_seconds_left) {
  if (!terminal_ || quiet_) return;
  std::fprintf(stderr, "\r\033[K[%zu/%zu] %s  (elapsed %s, ETA %s)", index + 1, total_,
               label.c_str(), format_duration(clock_.elapsed_seconds()).c_str(),
               format_duration(estimated_seconds_left).c_str());
  std::fflush(stderr);
}

void Progress::finished(size_t index, const std::string& label, const std::string& outcome) {
  const bool failed = outcome.rfind("failed", 0) == 0;
  if (quiet_ ? !failed : terminal_ && !verbose_ && !failed) return;
  std::fprintf(stderr, "%s[%zu/%zu] %s: %s\n", terminal_ ? "\r\033[K" : "", index + 1, total_,
               label.c_str(), outcome.c_str());
}

void Progress::done() {
  if (quiet_) return;
  if (terminal_) std::fprintf(stderr, "\r\033[K");
  std::fprintf(stderr, "convlab: %zu points in %s\n", total_,
               format_duration(clock_.elapsed_seconds()).c_str());
}

}  // namespace convlab
