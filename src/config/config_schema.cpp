#include "config/config_schema.hpp"

#include <functional>
#include <stdexcept>

#include "config/config_keys.hpp"
#include "core/output_types.hpp"
#include "core/types.hpp"
#include "filters/filter_descriptor.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

using nlohmann::json;

constexpr const char* kSchemaDraft = "https://json-schema.org/draft/2020-12/schema";

// An object of exactly these keys: properties, required, additionalProperties false. `filled`
// gives the schemas of keys whose row leaves its value to the caller.
json object_of(const ConfigKeys& keys, const std::map<std::string, json>& filled = {}) {
  json properties = json::object(), required = json::array();
  for (const auto& key : keys) {
    json value = key.value;
    if (const auto found = filled.find(key.name); found != filled.end()) value = found->second;
    if (value.is_null())
      throw std::logic_error("the config schema has no value for '" + key.name +
                             "': give its table row a schema");
    properties[key.name] = schema::described(value, key.description);
    if (key.required) required.push_back(key.name);
  }
  json object{{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
  if (!required.empty()) object["required"] = required;
  return object;
}

std::vector<std::string> implementation_names() {
  std::vector<std::string> names;
  for (const auto& impl : implementation_registry()) names.push_back(impl.name);
  return names;
}

json filter_parameter_schema(const FilterParameter& parameter, const FilterDescriptor& filter) {
  switch (parameter.kind) {
    case FilterParameterKind::size: {
      json size = schema::integer(filter.min_size, kMaxFilterSize);
      size["not"] = {{"multipleOf", 2}};  // odd
      if (filter.fixed_size != 0) size = {{"const", filter.fixed_size}};
      return schema::sweep_of(size);
    }
    case FilterParameterKind::positive_number:
      return {{"type", "number"}, {"exclusiveMinimum", 0}};
    case FilterParameterKind::boolean:
      return {{"type", "boolean"}};
    case FilterParameterKind::name:
      return {{"type", "string"}, {"pattern", "^[A-Za-z0-9_.-]+$"}, {"maxLength", kMaxNameLength}};
    case FilterParameterKind::matrix:
      return {{"type", "array"},
              {"minItems", 1},
              {"items", {{"type", "array"}, {"minItems", 1}, {"items", {{"type", "number"}}}}}};
  }
  return nullptr;
}

json axis_value_schema(const AxisSpec& axis) {
  switch (axis.kind) {
    case AxisKind::integer:
      return schema::integer(axis.min_value, axis.max_value);
    case AxisKind::integer_pair:
      return schema::pair_of(schema::integer(axis.min_value, axis.max_value));
    case AxisKind::choice:
      return schema::string_enum(axis.choices);
    case AxisKind::boolean:
      return {{"type", "boolean"}};
  }
  return nullptr;
}

json names_schema(const std::vector<std::string>& names) {
  return schema::sweep_of(schema::string_enum(names));
}

json images_schema() {
  json sets = json::array();
  sets.push_back({{"$ref", "#/$defs/generated_images"}});
  sets.push_back({{"$ref", "#/$defs/image_files"}});
  return {{"type", "array"}, {"minItems", 1}, {"items", {{"oneOf", sets}}}};
}

json kernels_schema() {
  json types = json::array();
  for (const auto& filter : filter_types())
    types.push_back({{"$ref", "#/$defs/kernel_" + filter.type}});
  return {{"type", "array"}, {"minItems", 1}, {"items", {{"oneOf", types}}}};
}

// Any name a user's kernel may have; the built-in implementations' names are such names too.
json implementation_name_rule() {
  return {{"pattern", std::string("^") + kUserKernelNamePattern + "$"}};
}

// An object keyed by implementation: each built-in one by name, with the schema `builtin` gives,
// and any other name, a user's kernel, with `user`.
json keyed_by_implementation(const std::function<json(const std::string&)>& builtin,
                             const json& user) {
  json properties = json::object();
  for (const auto& name : implementation_names()) properties[name] = builtin(name);
  return {{"type", "object"},
          {"properties", properties},
          {"propertyNames", implementation_name_rule()},
          {"additionalProperties", user}};
}

json implementations_schema() {
  json implementations = keyed_by_implementation(
      [](const std::string& name) {
        return json{{"$ref", "#/$defs/implementation_" + name}};
      },
      {{"$ref", "#/$defs/user_kernel"}});
  implementations["minProperties"] = 1;
  return implementations;
}

json measure_schema() {
  const json override_ref{{"$ref", "#/$defs/measure_override"}};
  const json overrides =
      keyed_by_implementation([&](const std::string&) { return override_ref; }, override_ref);
  return object_of(measure_keys(true), {{"per_implementation", overrides}});
}

// One of this config's implementations: a built-in one, or the name of a user's kernel.
json implementation_reference() {
  json user = implementation_name_rule();
  user["type"] = "string";
  return {{"anyOf", json::array({schema::string_enum(implementation_names()), user})}};
}

json baseline_schema() {
  const json implementation = implementation_reference();
  return {{"anyOf", json::array({implementation, object_of(baseline_keys(), {{"implementation",
                                                                              implementation}})})}};
}

}  // namespace

json kernel_schema(const std::string& type) {
  const FilterDescriptor* filter = find_filter_type(type);
  if (filter == nullptr) throw std::logic_error("no filter type '" + type + "'");
  ConfigKeys keys{{"type", filter->summary, true, {{"const", filter->type}}}};
  for (const auto& parameter : filter->parameters)
    keys.push_back({parameter.key, parameter.description, parameter.required,
                    filter_parameter_schema(parameter, *filter)});
  return schema::described(object_of(keys), filter->type + ": " + filter->summary);
}

json implementation_schema(const std::string& name) {
  const Implementation* impl = find_implementation(name);
  if (impl == nullptr) throw std::logic_error("no implementation '" + name + "'");
  json axes = json::object();
  for (const auto& axis : impl->axes) {
    const json value = axis_value_schema(axis);
    // A pair's sweep is a list of pairs; [16, 16] alone is one pair.
    axes[axis.name] = schema::described(schema::sweep_of(value),
                                        axis.help + " (default " + axis.default_value.dump() + ")");
  }
  axes["search"] = search_schema();  // config/search_spec.hpp, beside the axes
  return {{"description", impl->description},
          {"type", json::array({"object", "null"})},
          {"properties", axes},
          {"additionalProperties", false}};
}

json config_schema(const std::map<std::string, json>& sections) {
  std::vector<std::string> borders, outputs;
  for (Border b : all_borders()) borders.emplace_back(to_string(b));
  for (OutputType o : all_output_types()) outputs.emplace_back(to_string(o));
  const json gallery_implementation = implementation_reference();
  std::map<std::string, json> filled{
      {"images", images_schema()},
      {"kernels", kernels_schema()},
      {"border", names_schema(borders)},
      {"output", names_schema(outputs)},
      {"implementations", implementations_schema()},
      {"baseline", baseline_schema()},
      {"measure", measure_schema()},
      {"gallery", object_of(gallery_keys(), {{"implementation", gallery_implementation}})},
  };
  for (const auto& [key, value] : sections) filled[key] = value;

  json defs = json::object();
  defs["generated_images"] = object_of(generated_image_keys());
  defs["image_files"] = object_of(file_image_keys());
  defs["measure_override"] = object_of(measure_keys(false));
  for (const auto& filter : filter_types())
    defs["kernel_" + filter.type] = kernel_schema(filter.type);
  for (const auto& name : implementation_names())
    defs["implementation_" + name] = implementation_schema(name);
  defs["user_kernel"] = schema::described(
      object_of(user_kernel_keys()),
      "your own kernel: a source file convlab compiles and runs like its implementations "
      "(docs/own-kernels.md)");

  json root = object_of(top_level_keys(), filled);
  root["$schema"] = kSchemaDraft;
  root["title"] = "convlab experiment config";
  root["description"] =
      "An experiment of convlab: images, kernels, implementations and how they are timed "
      "(docs/config.md). Generated by `convlab schema`.";
  root["$defs"] = defs;
  return root;
}

}  // namespace convlab
