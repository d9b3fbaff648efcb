#include "verify/verify.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace convlab {

double verification_tolerance(OutputType type, const Filter& filter, double weight_roundoff) {
  if (type == OutputType::u8) return 1.0;
  const double accumulation = std::ldexp(1.0, -18) * filter.size * 255.0 * filter.abs_sum() + 1e-6;
  if (weight_roundoff <= 0.0) return accumulation;
  const double taps = static_cast<double>(filter.size) * filter.size;
  return accumulation + 255.0 * (weight_roundoff * filter.abs_sum() + taps * std::ldexp(1.0, -25));
}

double verification_tolerance(const Implementation& implementation, const Problem& problem,
                              const Params& params) {
  if (problem.output == OutputType::u8 && implementation.u8_tolerance)
    return implementation.u8_tolerance(problem);
  const double roundoff =
      implementation.weight_roundoff ? implementation.weight_roundoff(params) : 0.0;
  return verification_tolerance(problem.output, problem.filter, roundoff);
}

namespace {

// What one block of values holds, in the terms of a loop over them in order: a larger error
// replaces the worst (the first of equal ones stays); a NaN is the worst from then on, the last
// one seen.
struct BlockResult {
  std::size_t beyond = 0, not_exact = 0;
  double max_error = 0.0;  // over values whose error is not NaN
  std::size_t max_index = 0;
  bool has_max = false;  // some error above 0
  bool has_nan = false;
  std::size_t last_nan = 0;
};

constexpr std::size_t kBlockValues = std::size_t(1) << 20;

BlockResult verify_block(const OutputView& output, const Reference& reference, double tolerance,
                         std::size_t first, std::size_t last) {
  BlockResult block;
  const bool u8 = output.type == OutputType::u8;
  for (std::size_t i = first; i < last; ++i) {
    const double value = u8 ? double(output.u8()[i]) : double(output.f32()[i]);
    const double error = std::fabs(value - reference.values[i]);
    if (u8 && value != reference.values[i]) ++block.not_exact;
    // NaN compares false everywhere: count it explicitly.
    if (!(error <= tolerance)) ++block.beyond;
    if (std::isnan(error)) {
      block.has_nan = true;
      block.last_nan = i;
    } else if (error > block.max_error) {
      block.max_error = error;
      block.max_index = i;
      block.has_max = true;
    }
  }
  return block;
}

}  // namespace

// Blocks of 2^20 values in parallel (OpenMP), combined in order, so the result is the one loop
// over all values would give, whatever the number of threads: counts add up, the worst value is
// the last NaN if any, else the first of the largest errors. One block stays on this thread: waking
// the team costs more than it saves on a small output, most of all on a busy machine.
Verification verify_output(const OutputView& output, const Reference& reference, double tolerance) {
  Verification v;
  v.tolerance = tolerance;
  v.values_compared = reference.values.size();
  v.exactness_counted = reference.type == OutputType::u8;
  if (output.count != reference.values.size() || output.type != reference.type ||
      output.data == nullptr) {
    v.values_beyond_tolerance = reference.values.size();
    v.values_not_exact = reference.values.size();
    v.max_abs_error = INFINITY;
    return v;
  }
  const std::size_t count = output.count;
  const long blocks = static_cast<long>((count + kBlockValues - 1) / kBlockValues);
  std::vector<BlockResult> results(static_cast<std::size_t>(blocks));
#pragma omp parallel for schedule(static) num_threads(verification_threads()) if (blocks > 1)
  for (long b = 0; b < blocks; ++b) {
    const std::size_t first = static_cast<std::size_t>(b) * kBlockValues;
    results[b] =
        verify_block(output, reference, tolerance, first, std::min(count, first + kBlockValues));
  }
  bool nan_seen = false;
  for (const BlockResult& block : results) {
    v.values_beyond_tolerance += block.beyond;
    v.values_not_exact += block.not_exact;
    if (block.has_nan) {
      nan_seen = true;
      v.max_abs_error = INFINITY;
      v.worst_index = block.last_nan;
    } else if (!nan_seen && block.has_max && block.max_error > v.max_abs_error) {
      v.max_abs_error = block.max_error;
      v.worst_index = block.max_index;
    }
  }
  v.ok = v.values_beyond_tolerance == 0;
  return v;
}

int verification_threads() {
  if (const char* value = std::getenv("CONVLAB_VERIFY_THREADS")) {
    const int threads = std::atoi(value);
    if (threads > 0) return threads;
  }
  return omp_get_max_threads();
}

}  // namespace convlab
