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
// and [[16, 16], [32, 8]] a list of pairs. A list written without brackets (`threads: 1,2`, the
// string "1,2") fails with the list to write instead.
std::vector<nlohmann::json> read_axis_values(const AxisSpec& axis, const YAML::Node& node,
                                             const YamlLocation& where);

// In braces a comma ends a value: `{threads: 1,2}` is threads 1 and a key "2" without a value.
// Fails on such a key, after an axis and without a value of its own, with the list to write
// (`threads: [1, 2]`); does nothing otherwise, leaving unknown keys to require_known_keys.
void refuse_unbracketed_lists(const YAML::Node& axes, const std::vector<AxisSpec>& specs,
                              const YamlLocation& where);

std::vector<Params> cartesian_product(
    const std::vector<std::pair<std::string, std::vector<nlohmann::json>>>& axes);

}  // namespace convlab
