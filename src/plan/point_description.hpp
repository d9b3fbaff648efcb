// What a point is, typed: the implementation and its params, the image, the kernel, the border,
// the output, the search that measures it and the version of a user's kernel. A plan's point
// carries one (plan.hpp) and a record makes one of its fields (store/record.hpp), so that a
// planned point and the record that measured it are compared, hashed and named by one code.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/point_filter.hpp"

namespace convlab {

struct DescribedImage {
  std::string name;
  int width = 0, height = 0, channels = 0;
};

struct DescribedKernel {
  std::string name, type;
  int size = 0;
  bool separable = false;
};

// A variant a search may measure: which search, by strategy and seed.
struct DescribedSearch {
  std::string strategy;
  std::uint64_t seed = 0;
};

struct PointDescription {
  std::string implementation;
  std::string family;  // "cpu" or "cuda"
  nlohmann::json params = nlohmann::json::object();
  DescribedImage image;
  DescribedKernel kernel;
  std::string border, output;
  std::optional<DescribedSearch> search;  // none for a plain sweep
  // A user's kernel: the hash of the source it was compiled from (SourceFacts::version); empty
  // for the implementations built into convlab. Two versions of a source are two points.
  std::string source_version;

  // The fields a point filter reads and the digest hashes, as JSON: every field but the source
  // version, which the point's id (record.point_id) covers.
  nlohmann::json to_json() const;
  // 16 hex digits of the SHA-256 of to_json(): how shard and worker files list the points they
  // plan, without the images.
  std::string digest() const;
  // "openmp threads=2 schedule=static | noise-16x16 | gaussian3 | replicate | u8"
  std::string label() const;
  // A field as a point filter (core/point_filter.hpp) compares it, by its dotted path in
  // to_json(); nullopt when the point has no such field.
  std::optional<FilterValue> filter_value(std::string_view path) const;
  // The dotted paths of every value of to_json(), in its order, appended to `paths` where new.
  void add_field_paths(std::vector<std::string>& paths) const;
};

// PointDescription::digest of a description already made JSON (to_json()).
std::string point_digest(const nlohmann::json& description);

bool operator==(const PointDescription& a, const PointDescription& b);
inline bool operator!=(const PointDescription& a, const PointDescription& b) {
  return !(a == b);
}

// The description to_json() wrote, with `source_version` (absent from the JSON) as given.
// Throws std::invalid_argument naming the field when a required one is missing or of the wrong
// type.
PointDescription point_description_from_json(const nlohmann::json& description,
                                             std::string source_version = "");

// The one table of a description's fields: where each stands in to_json() and in a record
// (docs/results-schema.md), its JSON type, whether every record has it, and how it is read from
// a description. to_json(), filter_value() and add_field_paths() follow it, and so do the
// results file's checks (store/results_schema.cpp). The source version's rows come last: a
// record holds them in its source block, and to_json() leaves them out.
enum class PointFieldKind { object, string, number, boolean };
struct PointField {
  const char* path;  // dotted
  PointFieldKind kind;
  bool required;
  // The field's value in to_json(), null where the description has none (the search of a plain
  // sweep); nullptr for rows that only hold others (image, kernel, search) and the source's rows.
  nlohmann::json (*read)(const PointDescription&);
};
const std::vector<PointField>& point_description_fields();

}  // namespace convlab
