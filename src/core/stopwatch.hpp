// Wall-clock timing of host code with std::chrono::steady_clock (monotonic).
#pragma once

#include <chrono>

namespace convlab {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  void restart() { start_ = std::chrono::steady_clock::now(); }
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }
  double elapsed_seconds() const { return elapsed_ms() / 1000.0; }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace convlab
