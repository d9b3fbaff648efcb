// The kernels: section (docs/config.md, "Kernels"): each entry read as its filter type's
// descriptor says (filters/filter_descriptor.hpp), its sizes swept, its weights made and checked;
// the count of kernels and of their weights bounded, no kernel named twice.
#pragma once

#include <vector>

#include "config/yaml_read.hpp"
#include "core/filter.hpp"

namespace convlab {

std::vector<Filter> parse_kernels(const YAML::Node& node, const YamlLocation& where);

}  // namespace convlab
