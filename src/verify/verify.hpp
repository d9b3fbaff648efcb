// Compares an implementation's output with the reference.
#pragma once

#include <nlohmann/json.hpp>

#include "core/output_view.hpp"
#include "impl/implementation.hpp"
#include "reference/reference.hpp"

namespace convlab {

struct Verification {
  bool ok = false;
  size_t values_compared = 0;
  double max_abs_error = 0.0;
  double tolerance = 0.0;
  size_t values_beyond_tolerance = 0;
  size_t worst_index = 0;
  // u8 only: values that differ at all from the correctly rounded reference (within the tolerance
  // of 1 or not), e.g. an exact .5 tie rounded down, or float sums on the other side of a .5.
  size_t values_not_exact = 0;
  bool exactness_counted = false;  // true for u8 output
};

// u8: 1 (one rounding step). f32: 2^-18 * K * 255 * sum|w| + 1e-6 — above the worst case of
// K^2 float additions (K^2 * 2^-24 * 255 * sum|w|) for every K up to 64, far below the error of
// one misplaced tap of any weight above ~1e-3.
//
// weight_roundoff > 0 (weights multiplied in a coarser format, e.g. FP16 on tensor cores, unit
// roundoff u): f32 adds the error of that rounding, 255 * (u * sum|w| + K^2 * 2^-25) (2^-25 bounds
// weights below FP16's normal range, flushed or rounded to its subnormal step). u8 stays 1 as long
// as that term is below 0.5: the rounded sum is then at most one level off.
double verification_tolerance(OutputType type, const Filter& filter, double weight_roundoff = 0.0);
// The bound for one point of an implementation: the above with the implementation's weight
// roundoff, or its own u8 bound where it declares one (Implementation::u8_tolerance).
double verification_tolerance(const Implementation& implementation, const Problem& problem,
                              const Params& params = Params::object());

// Every value compared, in parallel over blocks (verification_threads()); the same result as one
// loop over the values in order.
Verification verify_output(const OutputView& output, const Reference& reference, double tolerance);
// OpenMP's threads, or CONVLAB_VERIFY_THREADS when set (1: one thread, as before).
int verification_threads();

}  // namespace convlab
