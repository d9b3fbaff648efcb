#include "config/baseline_section.hpp"

#include <algorithm>
#include <string>

#include "config/config_keys.hpp"
#include "config/implementations_section.hpp"
#include "core/point_filter.hpp"

namespace convlab {
namespace {

// Params as --filter writes them: "threads=1 schedule=static".
std::string params_words(const Params& params) {
  std::string words;
  for (const auto& [key, value] : params.items())
    words += (words.empty() ? "" : " ") + key + "=" + field_text(value);
  return words.empty() ? "{}" : words;
}

std::string combinations_words(const std::vector<Params>& combinations) {
  const size_t shown = std::min<size_t>(combinations.size(), 8);
  std::string words;
  for (size_t i = 0; i < shown; ++i) words += (i ? "; " : "") + params_words(combinations[i]);
  if (combinations.size() > shown)
    words += "; ... (" + std::to_string(combinations.size()) + " in all)";
  return words;
}

// "A=1|2|3 B=0|1": a searched implementation's params, for messages (its combinations are not
// listed).
std::string axis_values_words(const std::vector<SearchAxis>& axes) {
  std::string words;
  for (const auto& axis : axes) {
    words += (words.empty() ? "" : " ") + axis.name + "=";
    for (std::size_t v = 0; v < axis.values.size(); ++v)
      words += (v ? "|" : "") + field_text(axis.values[v]);
  }
  return words.empty() ? "{}" : words;
}

}  // namespace

BaselineSpec parse_baseline(const YAML::Node& root, const std::vector<ImplementationSweep>& sweeps,
                            const YamlLocation& where) {
  BaselineSpec baseline;
  const YAML::Node node = root["baseline"];
  if (!node) {
    const auto by_default = std::find_if(sweeps.begin(), sweeps.end(), [](const auto& s) {
      return implementation_of(s).baseline_by_default;
    });
    baseline.implementation = (by_default != sweeps.end() ? *by_default : sweeps.front()).name;
    return baseline;
  }
  if (node.IsScalar()) {
    baseline.implementation = read_string(node, where);
  } else {
    require_known_keys(node, where, key_names(baseline_keys()));
    baseline.implementation =
        read_string(require_key(node, "implementation", where), where.child("implementation"));
    if (node["params"]) {
      require_map(node["params"], where.child("params"));
      baseline.params = yaml_to_json(node["params"]);
    }
  }
  const auto sweep = std::find_if(sweeps.begin(), sweeps.end(),
                                  [&](const auto& s) { return s.name == baseline.implementation; });
  if (sweep == sweeps.end())
    where.fail(node, quoted_value(baseline.implementation) +
                         " is not one of this config's implementations" +
                         implementations_words(sweeps));
  // A searched implementation's combinations are not listed: each param is checked on its own.
  const auto has_value = [&](const std::string& key, const nlohmann::json& value) {
    for (const auto& axis : sweep->axis_list)
      if (axis.name == key)
        return std::find(axis.values.begin(), axis.values.end(), value) != axis.values.end();
    return false;
  };
  const bool any =
      sweep->domain
          ? std::all_of(baseline.params.items().begin(), baseline.params.items().end(),
                        [&](const auto& item) { return has_value(item.key(), item.value()); })
          : std::any_of(sweep->combinations.begin(), sweep->combinations.end(),
                        [&](const Params& p) {
                          for (const auto& [k, v] : baseline.params.items())
                            if (!p.contains(k) || p[k] != v) return false;
                          return true;
                        });
  if (!any)
    where.fail(node, "no combination of " + quoted_value(baseline.implementation) +
                         " has the params " + params_words(baseline.params) +
                         (sweep->domain
                              ? "; its params: " + axis_values_words(sweep->axis_list)
                              : "; its combinations: " + combinations_words(sweep->combinations)));
  return baseline;
}

}  // namespace convlab
