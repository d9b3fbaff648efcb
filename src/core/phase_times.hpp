// The phases of one device repetition, timed with events: upload, kernel(s), download.
#pragma once

namespace convlab {

struct PhaseTimes {
  double h2d_ms = 0.0;
  double kernel_ms = 0.0;
  double d2h_ms = 0.0;
};

}  // namespace convlab
