#include "config/axis_values.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "config/yaml_read.hpp"

namespace convlab {

nlohmann::json read_axis_value(const AxisSpec& axis, const YAML::Node& node,
                               const YamlLocation& where) {
  auto check_range = [&](long long v, const YAML::Node& at_node) {
    if (v < axis.min_value || v > axis.max_value)
      where.fail(at_node, axis.name + " must be between " + std::to_string(axis.min_value) +
                              " and " + std::to_string(axis.max_value) + ", got " +
                              std::to_string(v));
  };
  switch (axis.kind) {
    case AxisKind::integer: {
      const long long v = read_integer(node, where);
      check_range(v, node);
      return v;
    }
    case AxisKind::integer_pair: {
      if (!node.IsSequence() || node.size() != 2)
        where.fail(node, axis.name + " values are pairs [x, y]");
      const long long x = read_integer(node[0], where.index(0));
      const long long y = read_integer(node[1], where.index(1));
      check_range(x, node[0]);
      check_range(y, node[1]);
      return nlohmann::json::array({x, y});
    }
    case AxisKind::choice: {
      const std::string text = read_string(node, where);
      if (std::find(axis.choices.begin(), axis.choices.end(), text) == axis.choices.end()) {
        std::string allowed;
        for (const auto& c : axis.choices) allowed += (allowed.empty() ? "" : ", ") + c;
        where.fail(node,
                   "unknown " + axis.name + " " + quoted_value(text) + "; allowed: " + allowed);
      }
      return text;
    }
    case AxisKind::boolean:
      return read_bool(node, where);
  }
  return nullptr;
}

std::vector<nlohmann::json> read_axis_values(const AxisSpec& axis, const YAML::Node& node,
                                             const YamlLocation& where) {
  std::vector<nlohmann::json> values;
  const bool single_pair = axis.kind == AxisKind::integer_pair && node.IsSequence() &&
                           node.size() == 2 && node[0].IsScalar();
  if (single_pair || !node.IsSequence()) {
    values.push_back(read_axis_value(axis, node, where));
    return values;
  }
  if (node.size() == 0) where.fail(node, "an empty list sweeps nothing; give at least one value");
  for (size_t i = 0; i < node.size(); ++i) {
    auto value = read_axis_value(axis, node[i], where.index(i));
    if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
  }
  return values;
}

std::vector<Params> cartesian_product(
    const std::vector<std::pair<std::string, std::vector<nlohmann::json>>>& axes) {
  std::vector<Params> combinations{Params::object()};
  for (const auto& [name, values] : axes) {
    std::vector<Params> next;
    for (const auto& partial : combinations)
      for (const auto& value : values) {
        Params p = partial;
        p[name] = value;
        next.push_back(p);
      }
    combinations = std::move(next);
  }
  return combinations;
}

}  // namespace convlab
