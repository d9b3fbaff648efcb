// The compiled variants of users' kernels a plan needs (user_kernels/kernel_compiler.hpp): one per
// implementation, params and problem facts its source mentions, in plan order, each once. A
// search's point gives its stand-in, the first variant of its space, so that a source that does
// not compile is found before anything runs; the variants a search measures are compiled as it
// proposes them (run/kernel_compilation.hpp).
#pragma once

#include <optional>
#include <vector>

#include "plan/plan.hpp"
#include "user_kernels/kernel_compiler.hpp"

namespace convlab {

std::vector<VariantRequest> kernel_variants(const Config& config, const std::vector<Point>& plan,
                                            int cuda_device);

// What tells one variant from another: its implementation and the macros its source is compiled
// with (params and the problem facts it mentions).
std::string variant_identity(const Point& point, const VariantRequest& request);

// The variant one point of a user's kernel needs; nullopt for convlab's own implementations.
std::optional<VariantRequest> kernel_variant(const Config& config, const Point& point,
                                             int cuda_device);

}  // namespace convlab
