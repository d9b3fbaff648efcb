#include "config/plan_checks.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "config/config_keys.hpp"

namespace convlab {
namespace {

// The node an error about one value of an axis points at: that value in a swept list, else the
// axis, else the implementation's entry (the axis took its default).
std::pair<YAML::Node, YamlLocation> axis_value_node(const YAML::Node& entry, const YamlLocation& at,
                                                    const std::string& axis,
                                                    const nlohmann::json& value) {
  if (!entry.IsMap() || !entry[axis]) return {entry, at};
  const YAML::Node node = entry[axis];
  const YamlLocation axis_at = at.child(axis);
  // A list of values: of scalars, or of pairs ([16, 16] alone is one pair).
  const bool swept =
      node.IsSequence() && (value.is_primitive() || (node.size() > 0 && node[0].IsSequence()));
  if (swept)
    for (size_t i = 0; i < node.size(); ++i)
      if (yaml_to_json(node[i]) == value) return {node[i], axis_at.index(i)};
  return {node, axis_at};
}

}  // namespace

void check_impossible_params(const Config& config, const YAML::Node& node,
                             const YamlLocation& where) {
  const auto by = [](auto edge) {
    return [edge](const ImageSpec& a, const ImageSpec& b) { return a.*edge < b.*edge; };
  };
  const ImageSpec& widest =
      *std::max_element(config.images.begin(), config.images.end(), by(&ImageSpec::width));
  const ImageSpec& tallest =
      *std::max_element(config.images.begin(), config.images.end(), by(&ImageSpec::height));
  const ImageSpec& deepest =
      *std::max_element(config.images.begin(), config.images.end(), by(&ImageSpec::channels));
  for (const auto& sweep : config.implementations) {
    const Implementation* impl = &implementation_of(sweep);
    if (!impl->impossible) continue;
    for (const Params& params : sweep.combinations)
      for (const ImageSpec* image : {&widest, &tallest, &deepest})
        if (const auto problem =
                impl->impossible(params, image->width, image->height, image->channels)) {
          const auto [value_node, value_at] = axis_value_node(
              node[sweep.name], where.child(sweep.name), problem->axis, params[problem->axis]);
          value_at.fail(value_node, problem->message);
        }
  }
}

void check_plan_size(const Config& config, const YAML::Node& node, const YamlLocation& where) {
  size_t per_problem = 0;
  // A search is one point of the plan per strategy and seed: its variants are walked.
  for (const auto& sweep : config.implementations)
    per_problem += sweep.domain ? sweep.search->strategies.size() * sweep.search->seeds.size()
                                : sweep.combinations.size();
  double points = double(per_problem);
  for (size_t factor :
       {config.images.size(), config.filters.size(), config.borders.size(), config.outputs.size()})
    points *= double(factor);
  if (points > double(kMaxPoints))
    where.fail(node, std::to_string(config.images.size()) + " images x " +
                         std::to_string(config.filters.size()) + " kernels x " +
                         std::to_string(config.borders.size()) + " borders x " +
                         std::to_string(config.outputs.size()) + " outputs x " +
                         std::to_string(per_problem) + " implementation settings is more than " +
                         std::to_string(kMaxPoints) +
                         " points; split the sweep into several configs");
}

}  // namespace convlab
