// The values a config gives an implementation's axes (implementations: NAME: {axis: values}),
// read against the axis's kind and range, and the combinations they sweep. Shared by convlab's own
// implementations and users' kernels, whose params are axes too.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "config/config_error.hpp"
#include "impl/implementation.hpp"

namespace YAML {
class Node;
}

namespace convlab {

nlohmann::json read_axis_value(const AxisSpec& axis, const YAML::Node& node,
                               const YamlLocation& where);

// The values a config gives one axis: a single value or a list. For pairs, [16, 16] is one pair
// and [[16, 16], [32, 8]] a list of pairs.
std::vector<nlohmann::json> read_axis_values(const AxisSpec& axis, const YAML::Node& node,
                                             const YamlLocation& where);

std::vector<Params> cartesian_product(
    const std::vector<std::pair<std::string, std::vector<nlohmann::json>>>& axes);

}  // namespace convlab
