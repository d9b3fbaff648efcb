// One convolution to compute: the input, the filter, the border rule and the output type. What
// implementations, the reference and verification all take, so none of them depends on another.
#pragma once

#include "core/filter.hpp"
#include "core/image.hpp"
#include "core/types.hpp"

namespace convlab {

struct Problem {
  const Image& input;
  const Filter& filter;
  Border border;
  OutputType output;
};

}  // namespace convlab
