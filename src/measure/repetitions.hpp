// The repetition loop: warm-up calls, then timed calls until max_reps, or until max_seconds of
// measured time is spent once min_reps have run. Host implementations are timed here with
// steady_clock around the call alone; device implementations report event-timed phases.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "impl/implementation.hpp"
#include "measure/measure_spec.hpp"

namespace convlab {

struct TimingSamples {
  int warmup = 0;
  double total_seconds = 0.0;
  std::vector<double> compute_ms;  // compute call (host) or kernel(s) (device)
  bool device = false;
  std::vector<double> h2d_ms, d2h_ms, end_to_end_ms;
};

TimingSamples time_repetitions(PreparedPoint& point, const MeasureSpec& measure);

}  // namespace convlab
