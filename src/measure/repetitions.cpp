#include "measure/repetitions.hpp"

#include "measure/stats.hpp"
#include "measure/stopwatch.hpp"

namespace convlab {
TimingSamples time_repetitions(PreparedPoint& point, const MeasureSpec& measure) {
  TimingSamples samples;
  samples.warmup = measure.warmup;
  for (int i = 0; i < measure.warmup; ++i) point.execute();
  Stopwatch budget;
  while (static_cast<int>(samples.compute_ms.size()) < measure.max_reps) {
    const size_t done = samples.compute_ms.size();
    if (static_cast<int>(done) >= measure.min_reps &&
        budget.elapsed_seconds() >= measure.max_seconds)
      break;
    Stopwatch call;
    const std::optional<PhaseTimes> phases = point.execute();
    const double host_ms = call.elapsed_ms();
    if (phases) {
      samples.device = true;
      samples.compute_ms.push_back(phases->kernel_ms);
      samples.h2d_ms.push_back(phases->h2d_ms);
      samples.d2h_ms.push_back(phases->d2h_ms);
      samples.end_to_end_ms.push_back(phases->h2d_ms + phases->kernel_ms + phases->d2h_ms);
    } else {
      samples.compute_ms.push_back(host_ms);
    }
  }
  samples.total_seconds = budget.elapsed_seconds();
  return samples;
}

}  // namespace convlab
