#include "report/report_outline.hpp"

#include <yaml-cpp/yaml.h>

#include "config/config_error.hpp"
#include "config/yaml_load.hpp"

namespace convlab {
namespace {

std::string text_of(const YAML::Node& node, const YamlLocation& where) {
  if (!node.IsScalar()) where.fail(node, "expected text");
  return node.Scalar();
}

ReportPart parse_part(const YAML::Node& node, const YamlLocation& where) {
  if (!node.IsMap()) where.fail(node, "a part is a map with title and experiments");
  ReportPart part;
  if (!node["title"]) where.fail(node, "missing key 'title'");
  part.title = text_of(node["title"], where.child("title"));
  if (node["claim"]) part.claim = text_of(node["claim"], where.child("claim"));
  if (node["extension"]) part.extension = node["extension"].as<bool>(false);
  const YAML::Node experiments = node["experiments"];
  if (!experiments || !experiments.IsSequence())
    where.fail(node, "missing list 'experiments' (the experiment names of the part)");
  for (size_t i = 0; i < experiments.size(); ++i)
    part.experiments.push_back(text_of(experiments[i], where.child("experiments").index(i)));
  return part;
}

}  // namespace

ReportOutline load_report_outline(const std::string& path) {
  const YAML::Node root = parse_config(read_config(path));
  const YamlLocation where{path, ""};
  ReportOutline outline;
  const YAML::Node parts = root["parts"];
  if (!parts || !parts.IsSequence()) where.fail(root, "missing list 'parts'");
  for (size_t i = 0; i < parts.size(); ++i)
    outline.parts.push_back(parse_part(parts[i], where.child("parts").index(i)));
  if (const YAML::Node figures = root["summary_figures"])
    outline.summary_figures = parse_summary_figures(figures, where.child("summary_figures"));
  return outline;
}

}  // namespace convlab
