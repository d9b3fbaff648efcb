#include "verify/verify.hpp"

#include <cmath>

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
  for (size_t i = 0; i < output.count; ++i) {
    const double value =
        output.type == OutputType::u8 ? double(output.u8()[i]) : double(output.f32()[i]);
    const double error = std::fabs(value - reference.values[i]);
    if (v.exactness_counted && value != reference.values[i]) ++v.values_not_exact;
    // NaN compares false everywhere: count it explicitly.
    if (!(error <= tolerance)) ++v.values_beyond_tolerance;
    if (!(error <= v.max_abs_error)) {
      v.max_abs_error = std::isnan(error) ? INFINITY : error;
      v.worst_index = i;
    }
  }
  v.ok = v.values_beyond_tolerance == 0;
  return v;
}

}  // namespace convlab
