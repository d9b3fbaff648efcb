#include "config/config_error.hpp"

#include <yaml-cpp/yaml.h>

namespace convlab {
namespace {

std::string format_error(const std::string& file, int line, int column, const std::string& key_path,
                         const std::string& message) {
  std::string text = file;
  if (line > 0) text += ":" + std::to_string(line) + ":" + std::to_string(column);
  text += ": ";
  if (!key_path.empty()) text += key_path + ": ";
  return text + message;
}

}  // namespace

ConfigError::ConfigError(const std::string& file, int line, int column, const std::string& key_path,
                         const std::string& message)
    : std::runtime_error(format_error(file, line, column, key_path, message)),
      file_(file),
      line_(line),
      key_path_(key_path),
      message_(message) {}

YamlLocation YamlLocation::child(const std::string& key) const {
  return {file, key_path.empty() ? key : key_path + "." + key};
}

YamlLocation YamlLocation::index(size_t i) const {
  return {file, key_path + "[" + std::to_string(i) + "]"};
}

void YamlLocation::fail(const YAML::Node& node, const std::string& message) const {
  const YAML::Mark mark = node.Mark();
  // yaml-cpp marks are 0-based; a node made up rather than parsed has -1.
  const int line = mark.line >= 0 ? mark.line + 1 : 0;
  const int column = mark.column >= 0 ? mark.column + 1 : 0;
  throw ConfigError(file, line, column, key_path, message);
}

}  // namespace convlab
