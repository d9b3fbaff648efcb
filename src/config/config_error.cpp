#include "config/config_error.hpp"

#include <yaml-cpp/yaml.h>

#include "core/message_text.hpp"

namespace convlab {
namespace {

const std::size_t kShownCharacters = 64;

std::string format_error(const std::string& file, int line, int column, const std::string& key_path,
                         const std::string& message) {
  // A path of any length is quoted as a line's worth: its start and its file name.
  std::string text = shortened_path(file);
  if (line > 0) text += ":" + std::to_string(line) + ":" + std::to_string(column);
  text += ": ";
  if (!key_path.empty()) text += without_control_characters(key_path) + ": ";
  return text + without_control_characters(message);
}

}  // namespace

std::string shown_text(const std::string& text) {
  if (text.size() <= kShownCharacters) return without_control_characters(text);
  // Cut on a character boundary of UTF-8: a continuation byte is never the first one left out.
  std::size_t cut = kShownCharacters;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return without_control_characters(text.substr(0, cut)) + "...";
}

std::string quoted_value(const std::string& text) {
  return "'" + shown_text(text) + "'";
}

ConfigError::ConfigError(const std::string& file, int line, int column, const std::string& key_path,
                         const std::string& message)
    : std::runtime_error(format_error(file, line, column, key_path, message)),
      file_(file),
      line_(line),
      key_path_(key_path),
      message_(message) {}

YamlLocation YamlLocation::child(const std::string& key) const {
  const std::string shown = shown_text(key);
  return {file, key_path.empty() ? shown : key_path + "." + shown};
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
