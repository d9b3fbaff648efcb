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
// file, defining make_<row>_implementation(), plus one row here.
#define CONVLAB_CPU_IMPLEMENTATIONS(ROW) \
  ROW(sequential)                        \
  ROW(openmp)                            \
  ROW(cpu_rows)                          \
  ROW(cpu_separable)                     \
  ROW(cpu_fused)                         \
  ROW(cpu_direct)

#define CONVLAB_CPU_FACTORY(row) Implementation make_##row##_implementation();
CONVLAB_CPU_IMPLEMENTATIONS(CONVLAB_CPU_FACTORY)
#undef CONVLAB_CPU_FACTORY

// The CUDA rungs and the NPP peer (impl/cuda/rungs.hpp); the other vendor peers are the rows of
// impl/vendor_peers.hpp.
std::vector<Implementation> make_cuda_implementations();  // empty stubs when CUDA is not built

}  // namespace convlab
