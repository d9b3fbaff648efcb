// The compiled variants of users' kernels a plan needs (impl/user/kernel_compiler.hpp): one per
// implementation, params and problem facts its source mentions, in plan order, each once.
#pragma once

#include <vector>

#include "impl/user/kernel_compiler.hpp"
#include "plan/plan.hpp"

namespace convlab {

std::vector<VariantRequest> kernel_variants(const Config& config, const std::vector<Point>& plan,
                                            int cuda_device);

}  // namespace convlab
