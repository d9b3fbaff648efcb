// How the points of one run's plan ended: what the run counts as it goes and the run's summary,
// `convlab show` and the notebook print.
#pragma once

#include <cstddef>

namespace convlab {

// kept: measured earlier, not re-run; not_run: left for later by --max-points.
struct RunCounts {
  std::size_t kept = 0, ran = 0, skipped = 0, failed = 0, not_run = 0;
};

}  // namespace convlab
