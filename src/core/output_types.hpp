// Every output type, in the order configs and `convlab list` name them.
#pragma once

#include <vector>

#include "core/types.hpp"

namespace convlab {

const std::vector<OutputType>& all_output_types();

}  // namespace convlab
