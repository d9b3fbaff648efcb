#include "measure/repetitions.hpp"

#include "core/stopwatch.hpp"
#include "user_kernels/kernel_host_client.hpp"

namespace convlab {

// Restores what before_call set even when the call throws. A point that does not run in a kernel
// host is called with every kernel host stopped: a thread a user's kernel left spinning does not
// compete with it.
struct CallScope {
  explicit CallScope(PreparedPoint& point) : point_(point) {
    if (!point_.runs_in_kernel_host()) stop_running_kernel_host();
    point_.before_call();
  }
  ~CallScope() { point_.after_call(); }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
  PreparedPoint& point_;
};

void untimed_call(PreparedPoint& point) {
  const CallScope scope(point);
  point.execute();
}

double timed_call(PreparedPoint& point, TimingSamples& samples) {
  std::optional<PhaseTimes> phases;
  double host_ms = 0.0;
  {
    const CallScope scope(point);
    Stopwatch call;
    phases = point.execute();
    host_ms = call.elapsed_ms();
  }
  if (phases) {
    samples.device = true;
    samples.compute_ms.push_back(phases->kernel_ms);
    samples.h2d_ms.push_back(phases->h2d_ms);
    samples.d2h_ms.push_back(phases->d2h_ms);
    samples.end_to_end_ms.push_back(phases->h2d_ms + phases->kernel_ms + phases->d2h_ms);
  } else {
    samples.compute_ms.push_back(point.self_timed_ms().value_or(host_ms));
  }
  return host_ms / 1000.0;
}

bool repetitions_done(const TimingSamples& samples, const MeasureSpec& measure,
                      double measured_seconds) {
  const int done = static_cast<int>(samples.compute_ms.size());
  return done >= measure.max_reps ||
         (done >= measure.min_reps && measured_seconds >= measure.max_seconds);
}

TimingSamples time_repetitions(PreparedPoint& point, const MeasureSpec& measure) {
  TimingSamples samples;
  samples.warmup = measure.warmup;
  for (int i = 0; i < measure.warmup; ++i) untimed_call(point);
  Stopwatch budget;
  while (!repetitions_done(samples, measure, budget.elapsed_seconds())) timed_call(point, samples);
  samples.total_seconds = budget.elapsed_seconds();
  return samples;
}

}  // namespace convlab
