// Typed reads from YAML nodes that fail with a ConfigError naming file, line and key path.
#pragma once

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config_error.hpp"

namespace convlab {

// Fails on any key of `map` not in `allowed`, suggesting the closest allowed key.
void require_known_keys(const YAML::Node& map, const YamlLocation& where,
                        const std::vector<std::string>& allowed);
void require_map(const YAML::Node& node, const YamlLocation& where);
// The value of `key` in `map`; fails at the map with "missing required key 'KEY'" without it.
YAML::Node require_key(const YAML::Node& map, const std::string& key, const YamlLocation& where);

long long read_integer(const YAML::Node& node, const YamlLocation& where);
double read_number(const YAML::Node& node, const YamlLocation& where);
bool read_bool(const YAML::Node& node, const YamlLocation& where);
std::string read_string(const YAML::Node& node, const YamlLocation& where);

// A scalar or a list of scalars, read as a list (a sweep). An empty list is an error.
std::vector<YAML::Node> read_sweep(const YAML::Node& node, const YamlLocation& where);

// Which scalars become booleans: every YAML 1.1 form (y, yes, on, true, ...), or only true and
// false, for maps whose values are words (a figure's `log: y` must stay the letter y).
enum class YamlBooleans { any_form, true_false_only };

// A generic YAML -> JSON conversion (scalars become int, number, bool or string).
nlohmann::json yaml_to_json(const YAML::Node& node, YamlBooleans booleans = YamlBooleans::any_form);

}  // namespace convlab
