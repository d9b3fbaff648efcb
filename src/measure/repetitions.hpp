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
  int interleaved_points = 0;  // points timed in the same rounds (measure/interleaved.hpp); 0: none
};

TimingSamples time_repetitions(PreparedPoint& point, const MeasureSpec& measure);

// One untimed call (a warm-up), with the point's before_call / after_call around it.
void untimed_call(PreparedPoint& point);

// One timed call of the point (before_call / after_call around it, outside the timing), its
// sample(s) appended; returns the call's host time in seconds.
double timed_call(PreparedPoint& point, TimingSamples& samples);

// Whether a point with these samples, after `measured_seconds` of its own timing, has had enough:
// max_reps calls, or min_reps and max_seconds.
bool repetitions_done(const TimingSamples& samples, const MeasureSpec& measure,
                      double measured_seconds);

}  // namespace convlab
