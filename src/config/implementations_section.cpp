#include "config/implementations_section.hpp"

#include <string>
#include <utility>

#include "config/axis_values.hpp"
#include "config/user_kernel_entry.hpp"
#include "core/closest_name.hpp"
#include "impl/registry.hpp"

namespace convlab {

std::vector<ImplementationSweep> parse_implementations(const YAML::Node& node,
                                                       const YamlLocation& where,
                                                       const std::string& config_folder) {
  require_map(node, where);
  if (node.size() == 0) where.fail(node, "name at least one implementation; see `convlab list`");
  std::vector<std::string> known;
  for (const auto& impl : implementation_registry()) known.push_back(impl.name);
  std::vector<ImplementationSweep> sweeps;
  for (const auto& entry : node) {
    const std::string name = entry.first.as<std::string>();
    const YamlLocation at = where.child(name);
    if (is_user_kernel_entry(entry.second)) {
      sweeps.push_back(parse_user_kernel_entry(name, entry.second, at, config_folder));
      continue;
    }
    const Implementation* impl = find_implementation(name);
    if (impl == nullptr) {
      const std::string guess = closest_name(name, known);
      at.fail(entry.first, "unknown implementation " + quoted_value(name) +
                               (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                               "; see `convlab list`, or name your own kernel's source: " + name +
                               ": {source: kernels/" + name + ".cu}");
    }
    const YAML::Node axes_node = entry.second;
    if (axes_node && !axes_node.IsNull() && !axes_node.IsMap())
      at.fail(axes_node, "expected a mapping of axes, e.g. {threads: [1, 2]}, or {}");
    std::vector<std::string> axis_names;
    for (const auto& axis : impl->axes) axis_names.push_back(axis.name);
    axis_names.push_back("search");
    if (axes_node && axes_node.IsMap()) {
      refuse_unbracketed_lists(axes_node, impl->axes, at);
      require_known_keys(axes_node, at, axis_names);
    }
    std::vector<std::pair<std::string, std::vector<nlohmann::json>>> axes;
    for (const auto& axis : impl->axes) {
      if (axes_node && axes_node.IsMap() && axes_node[axis.name])
        axes.emplace_back(axis.name,
                          read_axis_values(axis, axes_node[axis.name], at.child(axis.name)));
      else
        axes.emplace_back(axis.name, std::vector<nlohmann::json>{axis.default_value});
    }
    ImplementationSweep sweep;
    sweep.name = name;
    for (const auto& [axis, values] : axes) {
      sweep.axes[axis] = values;
      sweep.axis_list.push_back({axis, values});
    }
    sweeps.push_back(std::move(sweep));
    if (axes_node && axes_node.IsMap() && axes_node["search"])
      sweeps.back().search = parse_search(axes_node["search"], at.child("search"));
  }
  return sweeps;
}

std::string implementations_words(const std::vector<ImplementationSweep>& sweeps) {
  std::string words;
  for (const auto& sweep : sweeps) words += (words.empty() ? "" : ", ") + sweep.name;
  return " (" + words + ")";
}

const Implementation& implementation_of(const ImplementationSweep& sweep) {
  if (sweep.user) return *sweep.user;
  return *find_implementation(sweep.name);
}

}  // namespace convlab
