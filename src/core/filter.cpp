#include "core/filter.hpp"

#include <cmath>

namespace convlab {

double Filter::abs_sum() const {
  double sum = 0.0;
  for (float w : weights) sum += std::fabs(static_cast<double>(w));
  return sum;
}

}  // namespace convlab
