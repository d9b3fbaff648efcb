// Progress on stderr: one rewritten line with an ETA on a terminal, plain lines otherwise. Quiet
// prints only failed points; verbose prints every point's outcome, on a terminal too.
#pragma once

#include <string>

#include "measure/stopwatch.hpp"

namespace convlab {

class Progress {
 public:
  Progress(size_t total, bool quiet, bool verbose);
  void starting(size_t index, const std::string& label, double estimated_seconds_left);
  void finished(size_t index, const std::string& label, const std::string& outcome);
  void done();

 private:
  size_t total_;
  bool terminal_;
  bool quiet_, verbose_;
  Stopwatch clock_;
};

std::string format_duration(double seconds);

}  // namespace convlab
