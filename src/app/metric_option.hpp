// The --metric option of the commands that compare timings (compare, history): one of the timed
// fields, the kernel-time median by default.
#pragma once

#include <string>

namespace convlab {

inline constexpr const char* kMetricOptionHelp =
    "median_ms (default), end_to_end_ms, h2d_ms or d2h_ms";

// `text` when it names a timed field (one with quartiles); else ArgumentValueError.
std::string checked_metric(const std::string& text);

}  // namespace convlab
