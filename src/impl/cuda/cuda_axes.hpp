// The axes the CUDA rungs sweep, each declared once in a catalogue (cuda_axes.cpp) under a key that
// rows of rungs.hpp name, and how a config's params of those axes become the LaunchParams the .cu
// files read.
#pragma once

#include <string>
#include <vector>

#include "impl/cuda/launch_params.hpp"
#include "impl/implementation.hpp"

namespace convlab {

// The axes of a row of rungs.hpp: the catalogue's axes of its space-separated `keys`, then layout
// and streams, which every rung has. Throws std::logic_error for a key the catalogue lacks.
std::vector<AxisSpec> cuda_axes(const std::string& keys);

// The values of `axes` in `params` (an axis's default where params leave it out).
cuda::LaunchParams launch_params(const std::vector<AxisSpec>& axes, const Params& params);

}  // namespace convlab
