// A figure's, table's or overlay's `where:` that asks for a value no point of the plan has
// (kernel.type=gausian, or a kernel dropped from the config) would select nothing, and the figure
// would only be left out at export. Checked when a config is loaded for run and validate, after
// the plan is known, with the values the plan has and the closest of them.
#pragma once

#include <vector>

#include "config/config_error.hpp"
#include "plan/plan.hpp"

namespace YAML {
class Node;
}

namespace convlab {

// Only `field=value` clauses are checked, for fields the plan's points have (a clause on
// median_ms or status is about results); throws ConfigError at the value.
void check_where_values(const YAML::Node& config_root, const YamlLocation& top,
                        const std::vector<Point>& plan);

}  // namespace convlab
