// The OpenMP axes shared by the CPU implementations: thread count, loop schedule and chunk, set
// per point (never through OMP_* environment variables).
#pragma once

#include <omp.h>

#include <string>
#include <vector>

#include "impl/implementation.hpp"

namespace convlab {

std::vector<AxisSpec> openmp_axes();

struct OpenmpSettings {
  int threads = 1;
  omp_sched_t schedule = omp_sched_static;
  int chunk = 0;  // 0: the schedule's default
};

OpenmpSettings openmp_settings(const Params& params);
// Applies the schedule for loops declared `schedule(runtime)` in this thread's next regions.
void apply_schedule(const OpenmpSettings& settings);

}  // namespace convlab
