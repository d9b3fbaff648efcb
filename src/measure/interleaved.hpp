// Interleaved timing: several prepared points measured in rounds instead of one after another.
//
// A machine's speed drifts: a neighbour on a shared host, a clock that moves with load or heat.
// When a comparison's points run one after another, each sees a different moment of that drift,
// and a ratio of two medians (a speedup, a parallel efficiency T(1) / (P T(P))) carries it. Here
// every point first has its warm-up calls, then each round times one call of every point still
// measuring, in an order shuffled per round, so all of them sample the same stretch of time and
// no point always follows the same neighbour. A point leaves the rounds under its own rule
// (repetitions_done: max_reps, or min_reps and max_seconds of its own measured time), so each has
// the repetitions it would have had alone. Random interleaving of repetitions is what Google
// Benchmark offers for the same reason (--benchmark_enable_random_interleaving).
//
// What changes for the measured call: it follows another point's call, not its own, so caches
// hold what that call left (its input is the same image; its output buffer may have been pushed
// out), and thread pools are in the state that call left them: the other pool's workers still
// spinning, or this pool's extra workers asleep after a call with fewer threads. Measured costs
// are in docs/config.md ("Interleaved timing").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "impl/implementation.hpp"
#include "measure/measure_spec.hpp"
#include "measure/repetitions.hpp"

namespace convlab {

struct InterleavedPoint {
  PreparedPoint* point = nullptr;
  MeasureSpec measure;
  TimingSamples samples;             // filled by time_interleaved
  double measured_seconds = 0.0;     // sum of this point's timed calls
  std::optional<std::string> error;  // a call threw: the point left the rounds
};

// Warm-up calls for every point (round by round, up to the largest warmup), then timed rounds
// until every point is done or has failed. `seed` fixes the shuffles, so the order is
// reproducible. Returns the number of timed rounds.
int time_interleaved(std::vector<InterleavedPoint>& points, std::uint32_t seed);

}  // namespace convlab
