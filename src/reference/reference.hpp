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

// The same in parts, for threads of a caller's own (run/problem_ahead.hpp): a reference sized for
// the problem, then any rows of it, each value by the same scalar code as compute_reference, so the
// bytes do not depend on who computed which rows. The border is resolved once per problem (a
// table of source columns per output column, source rows per output row) and the channels of four
// pixels are summed side by side; each value's sum still runs over the taps in (ky, kx) order.
Reference sized_reference(const Problem& problem);

class ReferenceRows {
 public:
  explicit ReferenceRows(const Problem& problem);  // holds `problem` by reference
  // Rows [first, last) of `reference` (sized_reference of the problem); rows apart may be
  // computed by different threads at once.
  void compute(long first, long last, Reference& reference) const;

 private:
  // `rows`: the source row of each ky for output row y, -1 outside a zero border.
  template <int Channels>
  void row(long y, const long* rows, Reference& reference) const;
  template <int Channels, int Block>
  void pixels(long y, long x, const long* rows, Reference& reference) const;
  void values(long y, const long* rows, Reference& reference) const;
  double finished(double sum) const;  // rounded and clamped for u8

  const Problem& problem_;
  std::vector<long> columns_;    // [x * K + kx]: the source column, -1 outside a zero border
  std::vector<double> weights_;  // the filter's float weights, as doubles
};

}  // namespace convlab
