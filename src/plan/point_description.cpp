#include "plan/point_description.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/sha256.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

FilterValue filter_value_of(const json& value) {
  return {value.is_number(), value.is_number() ? value.get<double>() : 0.0, field_text(value)};
}

// The part of `path` after `prefix` and a dot, or nullopt when the path does not start there.
std::optional<std::string_view> below(std::string_view path, std::string_view prefix) {
  if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0 ||
      path[prefix.size()] != '.')
    return std::nullopt;
  return path.substr(prefix.size() + 1);
}

const json& member(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key))
    throw std::invalid_argument(std::string(key) + ": missing");
  return object[key];
}

std::string text_member(const json& object, const char* key) {
  const json& value = member(object, key);
  if (!value.is_string()) throw std::invalid_argument(std::string(key) + ": expected a string");
  return value.get<std::string>();
}

int integer_member(const json& object, const char* key) {
  const json& value = member(object, key);
  if (!value.is_number_integer())
    throw std::invalid_argument(std::string(key) + ": expected an integer");
  return value.get<int>();
}

}  // namespace

const std::vector<PointField>& point_description_fields() {
  using Kind = PointFieldKind;
  using D = const PointDescription&;
  static const std::vector<PointField> fields{
      {"implementation", Kind::string, true, [](D d) { return json(d.implementation); }},
      {"family", Kind::string, true, [](D d) { return json(d.family); }},
      {"params", Kind::object, true, [](D d) { return d.params; }},
      {"image", Kind::object, true, nullptr},
      {"image.name", Kind::string, true, [](D d) { return json(d.image.name); }},
      {"image.width", Kind::number, true, [](D d) { return json(d.image.width); }},
      {"image.height", Kind::number, true, [](D d) { return json(d.image.height); }},
      {"image.channels", Kind::number, true, [](D d) { return json(d.image.channels); }},
      {"kernel", Kind::object, true, nullptr},
      {"kernel.name", Kind::string, true, [](D d) { return json(d.kernel.name); }},
      {"kernel.size", Kind::number, true, [](D d) { return json(d.kernel.size); }},
      {"kernel.type", Kind::string, false, [](D d) { return json(d.kernel.type); }},
      {"kernel.separable", Kind::boolean, false, [](D d) { return json(d.kernel.separable); }},
      {"border", Kind::string, true, [](D d) { return json(d.border); }},
      {"output", Kind::string, true, [](D d) { return json(d.output); }},
      {"search", Kind::object, false, nullptr},
      {"search.strategy", Kind::string, false,
       [](D d) { return d.search ? json(d.search->strategy) : json(); }},
      {"search.seed", Kind::number, false,
       [](D d) { return d.search ? json(d.search->seed) : json(); }},
      // The source version (SourceFacts::version): the snapshot's hash where a record has one,
      // else its source's.
      {"source", Kind::object, false, nullptr},
      {"source.sha256", Kind::string, false, nullptr},
      {"source.snapshot_sha256", Kind::string, false, nullptr},
  };
  return fields;
}

namespace {

// The rows to_json() writes, with their place in it as a JSON pointer, in the order of its keys
// (sorted at every level, as nlohmann::json keeps them).
struct WrittenField {
  const PointField* field;
  json::json_pointer at;
  std::vector<std::string> keys;
};

const std::vector<WrittenField>& written_fields() {
  static const std::vector<WrittenField> written = [] {
    std::vector<WrittenField> rows;
    for (const PointField& field : point_description_fields()) {
      if (!field.read) continue;
      std::vector<std::string> keys;
      std::string pointer;
      const std::string path = field.path;
      for (size_t start = 0; start <= path.size();) {
        const size_t dot = std::min(path.find('.', start), path.size());
        keys.push_back(path.substr(start, dot - start));
        pointer += "/" + keys.back();
        start = dot + 1;
      }
      rows.push_back({&field, json::json_pointer(pointer), keys});
    }
    std::sort(rows.begin(), rows.end(),
              [](const WrittenField& a, const WrittenField& b) { return a.keys < b.keys; });
    return rows;
  }();
  return written;
}

}  // namespace

json PointDescription::to_json() const {
  json description = json::object();
  for (const WrittenField& row : written_fields()) {
    json value = row.field->read(*this);
    if (!value.is_null()) description[row.at] = std::move(value);
  }
  return description;
}

std::string point_digest(const json& description) {
  return sha256_hex(description.dump()).substr(0, 16);
}

std::string PointDescription::digest() const {
  return point_digest(to_json());
}

std::string PointDescription::label() const {
  std::string words = implementation;
  for (const auto& [key, value] : params.items()) words += " " + key + "=" + field_text(value);
  return words + " | " + image.name + " | " + kernel.name + " | " + border + " | " + output;
}

std::optional<FilterValue> PointDescription::filter_value(std::string_view path) const {
  if (const auto param = below(path, "params")) {
    const json* value = find_field(params, *param);
    return value ? std::optional<FilterValue>(filter_value_of(*value)) : std::nullopt;
  }
  for (const WrittenField& row : written_fields()) {
    if (path != row.field->path || row.field->kind == PointFieldKind::object) continue;
    const json value = row.field->read(*this);
    return value.is_null() ? std::nullopt : std::optional<FilterValue>(filter_value_of(value));
  }
  return std::nullopt;
}

void PointDescription::add_field_paths(std::vector<std::string>& paths) const {
  for (const WrittenField& row : written_fields()) {
    if (row.field->kind == PointFieldKind::object) {
      add_field_paths_of(row.field->read(*this), row.field->path, paths);
      continue;
    }
    if (!row.field->read(*this).is_null()) add_field_path(row.field->path, paths);
  }
}

bool operator==(const PointDescription& a, const PointDescription& b) {
  const auto search_of = [](const PointDescription& d) {
    return d.search ? std::make_pair(d.search->strategy, d.search->seed)
                    : std::make_pair(std::string(), std::uint64_t{0});
  };
  return a.implementation == b.implementation && a.family == b.family && a.params == b.params &&
         a.image.name == b.image.name && a.image.width == b.image.width &&
         a.image.height == b.image.height && a.image.channels == b.image.channels &&
         a.kernel.name == b.kernel.name && a.kernel.type == b.kernel.type &&
         a.kernel.size == b.kernel.size && a.kernel.separable == b.kernel.separable &&
         a.border == b.border && a.output == b.output &&
         a.search.has_value() == b.search.has_value() && search_of(a) == search_of(b) &&
         a.source_version == b.source_version;
}

PointDescription point_description_from_json(const json& j, std::string source_version) {
  PointDescription d;
  d.implementation = text_member(j, "implementation");
  d.family = text_member(j, "family");
  d.params = member(j, "params");
  if (!d.params.is_object()) throw std::invalid_argument("params: expected an object");
  const json& image = member(j, "image");
  d.image = {text_member(image, "name"), integer_member(image, "width"),
             integer_member(image, "height"), integer_member(image, "channels")};
  const json& kernel = member(j, "kernel");
  d.kernel.name = text_member(kernel, "name");
  d.kernel.type = text_member(kernel, "type");
  d.kernel.size = integer_member(kernel, "size");
  const json& separable = member(kernel, "separable");
  if (!separable.is_boolean()) throw std::invalid_argument("separable: expected true or false");
  d.kernel.separable = separable.get<bool>();
  d.border = text_member(j, "border");
  d.output = text_member(j, "output");
  if (j.contains("search")) {
    const json& search = j["search"];
    const json& seed = member(search, "seed");
    if (!seed.is_number_unsigned()) throw std::invalid_argument("seed: expected a whole number");
    d.search = DescribedSearch{text_member(search, "strategy"), seed.get<std::uint64_t>()};
  }
  d.source_version = std::move(source_version);
  return d;
}

}  // namespace convlab
