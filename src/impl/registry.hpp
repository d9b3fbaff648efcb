// Every implementation convlab knows, by name. Adding one: write its file, add its row below (for
// a CUDA rung in impl/cuda/rungs.hpp, for a vendor peer in impl/vendor_peers.hpp).
#pragma once

#include <string_view>
#include <vector>

#include "impl/implementation.hpp"

namespace convlab {

const std::vector<Implementation>& implementation_registry();
const Implementation* find_implementation(std::string_view name);

// The CPU implementations, one row each, in the order `convlab list` shows them: a new one is its
// file, defining make_<row>_implementation(), plus one row here with how readers see it (its
// Appearance: words, figure colour, gnuplot point type).
#define CONVLAB_CPU_IMPLEMENTATIONS(ROW)            \
  ROW(sequential, "Sequential", "#7F7F7F", 4)       \
  ROW(openmp, "OpenMP", "#56B4E9", 5)               \
  ROW(cpu_rows, "CPU rows", "#0072B2", 7)           \
  ROW(cpu_separable, "CPU separable", "#009E73", 9) \
  ROW(cpu_fused, "CPU fused", "#00543C", 11)        \
  ROW(cpu_direct, "CPU direct", "#1F3A93", 13)

#define CONVLAB_CPU_FACTORY(row, words, colour, point_type) \
  Implementation make_##row##_implementation();
CONVLAB_CPU_IMPLEMENTATIONS(CONVLAB_CPU_FACTORY)
#undef CONVLAB_CPU_FACTORY

// The CUDA rungs and the NPP peer (impl/cuda/rungs.hpp); the other vendor peers are the rows of
// impl/vendor_peers.hpp.
std::vector<Implementation> make_cuda_implementations();  // empty stubs when CUDA is not built

}  // namespace convlab
