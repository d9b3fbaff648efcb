// The verification reference: scalar code, independent of every timed implementation, that
// accumulates in double. u8 references are rounded with the same rule (floor(x + 0.5), clamped)
// so the u8 tolerance of 1 covers float-versus-double rounding at .5 boundaries.
#pragma once

#include <vector>

#include "core/problem.hpp"
#include "core/types.hpp"

namespace convlab {

struct Reference {
  OutputType type = OutputType::u8;
  std::vector<double> values;  // interleaved like the input
};

// Parallel over rows with OpenMP (the reference for an 8192x8192 image must not take minutes);
// every value is still one scalar double sum over the taps in (ky, kx) order.
Reference compute_reference(const Problem& problem);

}  // namespace convlab
