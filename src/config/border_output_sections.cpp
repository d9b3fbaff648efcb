#include "config/border_output_sections.hpp"

#include <algorithm>
#include <string>

#include "core/closest_name.hpp"
#include "core/output_types.hpp"

namespace convlab {
namespace {

template <typename Value, typename Parse>
std::vector<Value> parse_enum_sweep(const YAML::Node& node, const YamlLocation& where,
                                    const std::vector<std::string>& names, Parse parse) {
  std::vector<Value> values;
  for (const auto& item : read_sweep(node, where)) {
    const std::string text = read_string(item, where);
    const auto value = parse(text);
    if (!value) {
      std::string allowed;
      for (const auto& n : names) allowed += (allowed.empty() ? "" : ", ") + n;
      const std::string guess = closest_name(text, names);
      where.fail(item, "unknown value " + quoted_value(text) +
                           (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                           "; allowed: " + allowed);
    }
    if (std::find(values.begin(), values.end(), *value) == values.end()) values.push_back(*value);
  }
  return values;
}

}  // namespace

std::vector<Border> parse_borders(const YAML::Node& root, const YamlLocation& top) {
  if (!root["border"]) return {Border::replicate};
  std::vector<std::string> names;
  for (Border b : all_borders()) names.emplace_back(to_string(b));
  return parse_enum_sweep<Border>(root["border"], top.child("border"), names, parse_border);
}

std::vector<OutputType> parse_outputs(const YAML::Node& root, const YamlLocation& top) {
  if (!root["output"]) return {OutputType::u8};
  std::vector<std::string> names;
  for (OutputType o : all_output_types()) names.emplace_back(to_string(o));
  return parse_enum_sweep<OutputType>(root["output"], top.child("output"), names,
                                      parse_output_type);
}

}  // namespace convlab
