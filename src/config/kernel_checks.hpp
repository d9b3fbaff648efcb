// Kernel parameters that cannot give a finite, meaningful filter, refused at validation at the key
// at fault (sigma, sigma2, matrix, normalize) instead of failing every value of a point at run
// time. Which parameters a filter has comes from its descriptor. The built filter is judged in
// float, the type every implementation computes with.
#pragma once

#include <yaml-cpp/yaml.h>

#include "config/config_error.hpp"
#include "core/filter.hpp"
#include "filters/filter_library.hpp"

namespace convlab {

// Before building: what the filter's descriptor refuses (filter_request_problem: sizes, positive
// sigmas, its own check), at the key at fault; `size_node` and `size_at` locate the size.
void check_kernel_request(const FilterRequest& request, const FilterDescriptor& descriptor,
                          const YAML::Node& entry, const YamlLocation& at,
                          const YAML::Node& size_node, const YamlLocation& size_at);

// After building: finite float weights, outputs within float range, a kernel that is not all zero
// and, for Gaussian-based kernels, a sigma large enough that more than the centre weight is left.
// `size_node` and `size_at` locate the size the filter was built for.
void check_kernel_numbers(const Filter& filter, const FilterRequest& request,
                          const FilterDescriptor& descriptor, const YAML::Node& entry,
                          const YamlLocation& at, const YAML::Node& size_node,
                          const YamlLocation& size_at);

}  // namespace convlab
