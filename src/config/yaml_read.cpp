#include "config/yaml_read.hpp"

#include <algorithm>
#include <cmath>

#include "core/closest_name.hpp"

namespace convlab {
namespace {

std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : ", ") + w;
  return text;
}

template <typename T>
bool try_convert(const YAML::Node& node, T& value) {
  try {
    value = node.as<T>();
    return true;
  } catch (const YAML::Exception&) {
    return false;
  }
}

}  // namespace

void require_map(const YAML::Node& node, const YamlLocation& where) {
  if (!node.IsMap()) where.fail(node, "expected a mapping (key: value, ...)");
}

YAML::Node require_key(const YAML::Node& map, const std::string& key, const YamlLocation& where) {
  const YAML::Node node = map[key];
  if (!node) where.fail(map, "missing required key '" + key + "'");
  return node;
}

void require_known_keys(const YAML::Node& map, const YamlLocation& where,
                        const std::vector<std::string>& allowed) {
  require_map(map, where);
  for (const auto& entry : map) {
    const std::string key = entry.first.as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string message = "unknown key " + quoted_value(key);
    const std::string suggestion = closest_name(key, allowed);
    if (!suggestion.empty()) message += " (did you mean '" + suggestion + "'?)";
    message += "; allowed: " + join(allowed);
    where.child(key).fail(entry.first, message);
  }
}

// What a node holds, for messages: the scalar as written, or its kind.
std::string got(const YAML::Node& node) {
  if (node.IsScalar()) return quoted_value(node.Scalar());
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  return "nothing";
}

// A quoted scalar ("3", '3') is text: a number or a flag is written without quotes, so that what
// the file says is what is read. yaml-cpp would convert it anyway; convlab refuses it.
void refuse_quoted(const YAML::Node& node, const YamlLocation& where, const std::string& expected) {
  if (node.IsScalar() && node.Tag() == "!")
    where.fail(node, "expected " + expected + ", got the quoted text \"" +
                         shown_text(node.Scalar()) + "\"; write " + shown_text(node.Scalar()) +
                         " without quotes");
}

long long read_integer(const YAML::Node& node, const YamlLocation& where) {
  refuse_quoted(node, where, "an integer");
  long long value = 0;
  if (!node.IsScalar() || !try_convert(node, value))
    where.fail(node, "expected an integer, got " + got(node));
  return value;
}

double read_number(const YAML::Node& node, const YamlLocation& where) {
  refuse_quoted(node, where, "a number");
  double value = 0;
  if (!node.IsScalar() || !try_convert(node, value) || !std::isfinite(value))
    where.fail(node, "expected a number, got " + got(node));
  return value;
}

bool read_bool(const YAML::Node& node, const YamlLocation& where) {
  refuse_quoted(node, where, "true or false");
  bool value = false;
  if (!node.IsScalar() || !try_convert(node, value))
    where.fail(node, "expected true or false, got " + got(node));
  return value;
}

std::string read_string(const YAML::Node& node, const YamlLocation& where) {
  if (!node.IsScalar()) where.fail(node, "expected a string");
  return node.Scalar();
}

std::vector<YAML::Node> read_sweep(const YAML::Node& node, const YamlLocation& where) {
  std::vector<YAML::Node> values;
  if (node.IsSequence()) {
    for (const auto& item : node) values.push_back(item);
    if (values.empty()) where.fail(node, "an empty list sweeps nothing; give at least one value");
  } else if (node.IsScalar()) {
    values.push_back(node);
  } else {
    where.fail(node, "expected a value or a list of values");
  }
  return values;
}

nlohmann::json yaml_to_json(const YAML::Node& node, YamlBooleans booleans) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence: {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& item : node) list.push_back(yaml_to_json(item, booleans));
      return list;
    }
    case YAML::NodeType::Map: {
      nlohmann::json object = nlohmann::json::object();
      for (const auto& entry : node)
        object[entry.first.as<std::string>()] = yaml_to_json(entry.second, booleans);
      return object;
    }
    case YAML::NodeType::Scalar: {
      if (node.Tag() == "!") return node.Scalar();  // quoted: keep as a string
      long long integer = 0;
      double number = 0;
      bool flag = false;
      if (try_convert(node, integer)) return integer;
      if (try_convert(node, number)) return number;
      const bool word = booleans == YamlBooleans::true_false_only && node.Scalar() != "true" &&
                        node.Scalar() != "false";
      if (!word && try_convert(node, flag)) return flag;
      return node.Scalar();
    }
    default:
      return nullptr;
  }
}

}  // namespace convlab
