// Checks of the plan a config makes, across its sections, before a point is expanded: the count of
// points, and launch shapes no device accepts.
#pragma once

#include "config/config.hpp"
#include "config/yaml_read.hpp"

namespace convlab {

// Launch shapes no device accepts. Grids grow with the image and blocks of some variants with
// its channels, so the widest, the tallest and the one with most channels are the ones to try.
// `node`: the implementations section.
void check_impossible_params(const Config& config, const YAML::Node& node,
                             const YamlLocation& where);

// The product is computed, not expanded: the plan itself is built only when it is small enough.
void check_plan_size(const Config& config, const YAML::Node& node, const YamlLocation& where);

}  // namespace convlab
