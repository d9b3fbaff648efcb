// A figure's, table's or overlay's `where:` that asks for a value no point of the plan has
// (kernel.type=gausian, or a kernel dropped from the config) would select nothing, and the figure
// would only be left out at export. Checked when a config is loaded for run and validate, after
// the plan is known, with the values the plan has and the closest of them.
#pragma once

#include <functional>
#include <vector>

#include "config/config_error.hpp"
#include "plan/point_description.hpp"

namespace YAML {
class Node;
}

namespace convlab {

// `plan_points` gives the plan's points as their descriptions (a search's point once per value
// it may measure, plan/search_points.hpp descriptions_of_values); it is called only when a where:
// has a clause to check. Only `field=value` clauses are checked, for fields the points have (a
// clause on median_ms or status is about results); throws ConfigError at the value.
void check_where_values(const YAML::Node& config_root, const YamlLocation& top,
                        const std::function<std::vector<PointDescription>()>& plan_points);

}  // namespace convlab
