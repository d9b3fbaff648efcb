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

namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// "1,2" as the list to write: "[1, 2]".
std::string bracketed(const std::string& text) {
  std::string list;
  size_t start = 0;
  for (size_t comma = text.find(',');; comma = text.find(',', start)) {
    list += (list.empty() ? "" : ", ") + trimmed(text.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return "[" + list + "]";
}

bool is_axis(const std::vector<AxisSpec>& specs, const std::string& name) {
  return std::any_of(specs.begin(), specs.end(),
                     [&](const AxisSpec& spec) { return spec.name == name; });
}

}  // namespace

void refuse_unbracketed_lists(const YAML::Node& axes, const std::vector<AxisSpec>& specs,
                              const YamlLocation& where) {
  if (!axes.IsMap()) return;
  std::vector<std::pair<YAML::Node, YAML::Node>> entries;
  for (const auto& entry : axes) entries.emplace_back(entry.first, entry.second);
  for (size_t i = 1; i < entries.size(); ++i) {
    const auto& [axis_key, axis_value] = entries[i - 1];
    const bool stray = !is_axis(specs, entries[i].first.Scalar()) && entries[i].second.IsNull();
    if (!stray || !is_axis(specs, axis_key.Scalar()) || !axis_value.IsScalar()) continue;
    // The values the commas cut off: this key and the keys without a value after it.
    std::string written = axis_value.Scalar();
    for (size_t j = i; j < entries.size() && !is_axis(specs, entries[j].first.Scalar()) &&
                       entries[j].second.IsNull();
         ++j)
      written += "," + entries[j].first.Scalar();
    const std::string& axis = axis_key.Scalar();
    where.child(entries[i].first.Scalar())
        .fail(entries[i].first, "in braces a comma ends a value, so {" + axis + ": " + written +
                                    "} is " + axis + " " + axis_value.Scalar() + " and keys " +
                                    "without values; to sweep several values write a list: " +
                                    axis + ": " + bracketed(written));
  }
}

std::vector<nlohmann::json> read_axis_values(const AxisSpec& axis, const YAML::Node& node,
                                             const YamlLocation& where) {
  std::vector<nlohmann::json> values;
  if (node.IsScalar() && node.Scalar().find(',') != std::string::npos)
    where.fail(node, quoted_value(node.Scalar()) +
                         " is one value; to sweep several values write a list: " + axis.name +
                         ": " + bracketed(node.Scalar()));
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
