// The compiled variants of users' kernels a plan needs (user_kernels/kernel_compiler.hpp): one per
// implementation, params and problem facts its source mentions, in plan order, each once.
#pragma once

#include <vector>

#include "plan/plan.hpp"
#include "user_kernels/kernel_compiler.hpp"

namespace convlab {

std::vector<VariantRequest> kernel_variants(const Config& config, const std::vector<Point>& plan,
                                            int cuda_device);

}  // namespace convlab
