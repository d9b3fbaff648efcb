#include "app/config_loading.hpp"

#include "figures/declarations.hpp"

namespace convlab {

Config load_config_for_command(const std::string& path) {
  return load_config(path, [](const YAML::Node& root, const YamlLocation& top) {
    parse_report_declarations(root, top);  // validation only; export re-reads the resolved config
  });
}

}  // namespace convlab
