#include "figures/where_values.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "core/closest_name.hpp"
#include "core/point_filter.hpp"

namespace convlab {
namespace {

// The values of `field` among the points, as filter text, in order of first appearance; empty
// when no point has the field.
std::vector<std::string> values_of(const std::vector<PointDescription>& points,
                                   const std::string& field) {
  std::vector<std::string> values;
  for (const auto& point : points)
    if (const auto value = point.filter_value(field))
      if (std::find(values.begin(), values.end(), value->text) == values.end())
        values.push_back(value->text);
  return values;
}

bool some_point_has(const std::vector<PointDescription>& points, const std::string& field,
                    const std::string& value) {
  PointFilter one;
  one.clauses.push_back({field, "=", {value}});
  return std::any_of(points.begin(), points.end(), [&](const PointDescription& point) {
    return matches(one, [&point](std::string_view path) { return point.filter_value(path); });
  });
}

std::string listed(const std::vector<std::string>& values) {
  const size_t shown = std::min<size_t>(values.size(), 12);
  std::string text;
  for (size_t i = 0; i < shown; ++i) text += (i ? ", " : "") + values[i];
  if (values.size() > shown) text += ", ... (" + std::to_string(values.size()) + " in all)";
  return text;
}

// The plan's points, described once when the first clause needs them.
class PlanPoints {
 public:
  explicit PlanPoints(const std::function<std::vector<PointDescription>()>& make) : make_(make) {}
  const std::vector<PointDescription>& get() {
    if (!made_) points_ = make_(), made_ = true;
    return points_;
  }

 private:
  const std::function<std::vector<PointDescription>()>& make_;
  std::vector<PointDescription> points_;
  bool made_ = false;
};

void check_value(PlanPoints& plan, const std::string& field, const std::string& value,
                 const YAML::Node& node, const YamlLocation& at) {
  const std::vector<PointDescription>& points = plan.get();
  const std::vector<std::string> values = values_of(points, field);
  if (values.empty() || some_point_has(points, field, value)) return;
  // A number a letter away from another is no misspelling of it.
  const bool number =
      !value.empty() && value.find_first_not_of("0123456789.+-eE") == std::string::npos;
  const std::string guess = number ? "" : closest_name(value, values);
  at.fail(node, "no point of this config has " + field + " '" + value + "'" +
                    (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                    "; its points have " + listed(values));
}

// `where: {field: value | [values]}`: each value is checked at its own node.
void check_where_map(const YAML::Node& where, const YamlLocation& at, PlanPoints& points) {
  for (const auto& entry : where) {
    const std::string field = entry.first.Scalar();
    const YamlLocation field_at = at.child(field);
    if (entry.second.IsSequence()) {
      for (size_t i = 0; i < entry.second.size(); ++i)
        if (entry.second[i].IsScalar())
          check_value(points, field, entry.second[i].Scalar(), entry.second[i], field_at.index(i));
    } else if (entry.second.IsScalar()) {
      check_value(points, field, entry.second.Scalar(), entry.second, field_at);
    }
  }
}

void check_where(const YAML::Node& owner, const YamlLocation& at, PlanPoints& points) {
  if (!owner.IsMap() || !owner["where"]) return;
  const YAML::Node where = owner["where"];
  if (where.IsMap()) return check_where_map(where, at.child("where"), points);
  if (!where.IsScalar()) return;
  std::string error;
  const auto filter = parse_point_filter(where.Scalar(), &error);
  if (!filter) return;  // refused with its own message when the declarations were parsed
  for (const auto& clause : filter->clauses)
    if (clause.op == "=")
      for (const auto& value : clause.values)
        check_value(points, clause.field, value, where, at.child("where"));
}

}  // namespace

void check_where_values(const YAML::Node& config_root, const YamlLocation& top,
                        const std::function<std::vector<PointDescription>()>& plan_points) {
  if (!config_root.IsMap()) return;
  PlanPoints points(plan_points);
  for (const char* section : {"figures", "tables"}) {
    const YAML::Node list = config_root[section];
    if (!list || !list.IsSequence()) continue;
    const YamlLocation section_at = top.child(section);
    for (size_t i = 0; i < list.size(); ++i) {
      const YamlLocation at = section_at.index(i);
      check_where(list[i], at, points);
      const YAML::Node overlays = list[i].IsMap() ? list[i]["overlay"] : YAML::Node();
      if (overlays && overlays.IsSequence())
        for (size_t j = 0; j < overlays.size(); ++j)
          check_where(overlays[j], at.child("overlay").index(j), points);
    }
  }
}

}  // namespace convlab
