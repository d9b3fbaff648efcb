// How a point's repetitions are run: warm-up, the bounds on repetitions and time, and whether the
// GPU's L2 is flushed before each. The config's measure block (docs/config.md) fills it.
#pragma once

namespace convlab {

struct MeasureSpec {
  int warmup = 1;
  int min_reps = 3;
  int max_reps = 20;
  double max_seconds = 2.0;  // per point, after warm-up
  bool l2_flush = false;     // CUDA: clear L2 before every repetition
  // The points of one problem (image, kernel, border, output) are timed in rounds, one call each
  // in a shuffled order, instead of one point's repetitions back to back (measure/interleaved.hpp).
  bool interleave = false;
  // The seconds one point of a user's own kernel (which runs in a process of its own) may take,
  // prepare and every call together, before that process is stopped and the point failed.
  double timeout = kDefaultPointTimeout;
  static constexpr double kDefaultPointTimeout = 300.0;
  // What compiling one variant of a user's kernel may take: seconds, and GiB of address space for
  // the compiler and the programs it starts. Neither changes what is measured, so neither is part
  // of a point's identity (run/measured_points.hpp).
  double compile_timeout = kDefaultCompileTimeout;
  double compile_memory_gib = kDefaultCompileMemoryGib;
  static constexpr double kDefaultCompileTimeout = 120.0;
  static constexpr double kDefaultCompileMemoryGib = 4.0;
};

}  // namespace convlab
