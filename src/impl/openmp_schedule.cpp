#include "impl/openmp_schedule.hpp"

namespace convlab {

std::vector<AxisSpec> openmp_axes() {
  return {
      {"threads", AxisKind::integer, "OpenMP threads", 1, {}, 1, 1024},
      {"schedule",
       AxisKind::choice,
       "loop schedule over image rows",
       "static",
       {"static", "dynamic", "guided"},
       0,
       0},
      {"chunk", AxisKind::integer, "rows per chunk (0: the schedule's default)", 0, {}, 0, 1 << 20},
  };
}

OpenmpSettings openmp_settings(const Params& params) {
  OpenmpSettings settings;
  settings.threads = params.value("threads", 1);
  const std::string schedule = params.value("schedule", std::string("static"));
  settings.schedule = schedule == "dynamic"  ? omp_sched_dynamic
                      : schedule == "guided" ? omp_sched_guided
                                             : omp_sched_static;
  settings.chunk = params.value("chunk", 0);
  return settings;
}

void apply_schedule(const OpenmpSettings& settings) {
  omp_set_schedule(settings.schedule, settings.chunk);
}

}  // namespace convlab
