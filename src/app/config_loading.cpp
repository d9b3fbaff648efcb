#include "app/config_loading.hpp"

#include <yaml-cpp/yaml.h>

#include <new>

#include "config/config_error.hpp"
#include "figures/declarations.hpp"
#include "figures/plan_declarations.hpp"
#include "figures/where_values.hpp"
#include "plan/plan.hpp"
#include "plan/search_points.hpp"

namespace convlab {

LoadedConfig load_config_for_command(const std::string& path) {
  return load_config_for_command(read_config(path));
}

namespace {

LoadedConfig load_and_check(const ConfigFile& file) {
  const std::string& path = file.path;
  YAML::Node root;
  LoadedConfig loaded;
  loaded.config =
      load_config(file, [&root](const YAML::Node& config_root, const YamlLocation& top) {
        parse_report_declarations(config_root, top);  // validation only; export re-reads it
        root = config_root;
      });
  const Config& config = loaded.config;
  loaded.plan = expand_plan(config);
  // The values a figure's where asks for can be checked once the plan is known.
  check_where_values(root, YamlLocation{path, ""}, [&] {
    std::vector<PointDescription> points;
    for (const Point& point : loaded.plan)
      for (auto& description : descriptions_of_values(config, point))
        points.push_back(std::move(description));
    return points;
  });
  loaded.warnings = check_declarations_on_plan(root, YamlLocation{path, ""}, config, loaded.plan);
  return loaded;
}

}  // namespace

LoadedConfig load_config_for_command(const ConfigFile& file) {
  // The plan and the declarations' checks on it can need as much memory as reading the config:
  // running out there still names the config.
  try {
    return load_and_check(file);
  } catch (const std::bad_alloc&) {
    throw ConfigError(file.path, 0, 0, "", "not enough memory to validate this config");
  }
}

}  // namespace convlab
