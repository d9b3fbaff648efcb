#include "config/config.hpp"

#include <filesystem>
#include <new>
#include <regex>

#include "config/baseline_section.hpp"
#include "config/border_output_sections.hpp"
#include "config/config_keys.hpp"
#include "config/gallery_section.hpp"
#include "config/images_section.hpp"
#include "config/implementations_section.hpp"
#include "config/kernels_section.hpp"
#include "config/measure_section.hpp"
#include "config/plan_checks.hpp"
#include "config/resolved_config.hpp"
#include "config/search_section.hpp"
#include "config/yaml_read.hpp"

namespace convlab {
namespace {

Config load_config_unguarded(const ConfigFile& file, const YAML::Node& root,
                             const ConfigSectionCheck& check_sections) {
  Config config;
  const std::string& path = file.path;
  config.path = path;
  config.sha256 = file.sha256;
  const YamlLocation top{path, ""};
  if (!root.IsMap())
    top.fail(root,
             "a config is a YAML mapping with at least name, images, kernels and implementations");
  require_known_keys(root, top, key_names(top_level_keys()));

  config.name = read_string(require_key(root, "name", top), top.child("name"));
  if (config.name.size() > kMaxNameLength)
    top.child("name").fail(root["name"], "name is longer than " + std::to_string(kMaxNameLength) +
                                             " characters: it names outputs/<name>/");
  if (!std::regex_match(config.name, std::regex("[A-Za-z0-9_][A-Za-z0-9_.-]*")))
    top.child("name").fail(root["name"],
                           "name must be a safe identifier (letters, digits, '_', '-', '.'): it "
                           "names outputs/<name>/");
  config.title = root["title"] ? read_string(root["title"], top.child("title")) : config.name;
  config.description =
      root["description"] ? read_string(root["description"], top.child("description")) : "";
  config.images = parse_images(require_key(root, "images", top), top.child("images"));
  config.filters = parse_kernels(require_key(root, "kernels", top), top.child("kernels"));

  config.borders = parse_borders(root, top);
  config.outputs = parse_outputs(root, top);
  config.implementations =
      parse_implementations(require_key(root, "implementations", top), top.child("implementations"),
                            std::filesystem::path(path).parent_path().string());
  apply_searches(config, root, top);
  config.baseline = parse_baseline(root, config.implementations, top.child("baseline"));
  parse_measure_section(root, top, config);
  if (root["save_outputs"])
    config.save_outputs = read_bool(root["save_outputs"], top.child("save_outputs"));
  if (root["gallery"])
    config.gallery = parse_gallery(root["gallery"], config, top.child("gallery"));
  else if (config.save_outputs)
    config.gallery.implementation = config.implementations.front().name;
  if (check_sections)
    check_sections(root, top);  // export re-reads figures from the resolved config
  config.report = nlohmann::json::object();
  for (const char* key : {"derive", "figures", "tables"})
    if (root[key]) config.report[key] = yaml_to_json(root[key], YamlBooleans::true_false_only);
  check_plan_size(config, root["implementations"], top.child("implementations"));
  check_impossible_params(config, root["implementations"], top.child("implementations"));
  config.resolved = resolved_config(config);
  return config;
}

// Whatever a library throws while a config is read still names the config (and the key, where
// yaml-cpp's mark gives the place).
template <typename Load>
Config guarded_load(const std::string& path, const Load& load) {
  try {
    return load();
  } catch (const YAML::Exception& error) {
    throw ConfigError(path, error.mark.line + 1, error.mark.column + 1, "", error.msg);
  } catch (const std::bad_alloc&) {
    throw ConfigError(path, 0, 0, "", "not enough memory to validate this config");
  } catch (const std::filesystem::filesystem_error& error) {
    throw ConfigError(path, 0, 0, "", error.path1().string() + ": " + error.code().message());
  }
}

}  // namespace

Config load_config(const std::string& path, const ConfigSectionCheck& check_sections) {
  return guarded_load(path, [&] { return load_config(read_config(path), check_sections); });
}

Config load_config(const ConfigFile& file, const ConfigSectionCheck& check_sections) {
  return guarded_load(
      file.path, [&] { return load_config_unguarded(file, parse_config(file), check_sections); });
}

Config load_config(const ConfigFile& file, const YAML::Node& root,
                   const ConfigSectionCheck& check_sections) {
  return guarded_load(file.path, [&] { return load_config_unguarded(file, root, check_sections); });
}

}  // namespace convlab
