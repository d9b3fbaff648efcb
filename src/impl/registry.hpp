// Every implementation convlab knows, by name. Adding one: write its file, add its factory below.
#pragma once

#include <string_view>
#include <vector>

#include "impl/implementation.hpp"

namespace convlab {

const std::vector<Implementation>& implementation_registry();
const Implementation* find_implementation(std::string_view name);

// Factories, one per implementation file.
Implementation make_sequential_implementation();
Implementation make_openmp_implementation();
Implementation make_cpu_rows_implementation();
Implementation make_cpu_separable_implementation();
Implementation make_cpu_fused_implementation();
Implementation make_cpu_direct_implementation();
std::vector<Implementation> make_cuda_implementations();    // empty stubs when CUDA is not built
std::vector<Implementation> make_opencv_implementations();  // skipped when OpenCV is not built

}  // namespace convlab
