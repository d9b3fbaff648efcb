// The keys of each mapping of the config language, one named table per mapping: the key, what it
// means, whether it is required and the JSON Schema of its value. The config reader accepts exactly
// the keys of these tables (require_known_keys) and `convlab schema` describes them from the same
// rows (config/config_schema.hpp), so the two cannot disagree on which keys exist.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace convlab {

// What one config may ask for, so that validating any config stays within seconds and well under
// 1 GB (docs/config.md, "Limits"); the largest committed sweeps are far below each.
constexpr int kMaxImageEdge = 1 << 16;
constexpr size_t kMaxImages = 4096;
constexpr size_t kMaxKernels = 1024;
constexpr size_t kMaxKernelWeights = size_t(1) << 24;  // all kernels together
constexpr size_t kMaxPoints = 100000;
// Names become file and folder names (outputs/<name>/, gallery images), which the file system
// limits to 255 bytes.
constexpr size_t kMaxNameLength = 100;
// measure: the largest count of warm-up calls or repetitions.
constexpr long long kMaxRepetitions = 1000000;

struct ConfigKey {
  std::string name;
  std::string description;
  bool required = false;
  nlohmann::json value;  // JSON Schema of the key's value; null: given by the stage owning it
};
using ConfigKeys = std::vector<ConfigKey>;

std::vector<std::string> key_names(const ConfigKeys& keys);

// The mappings of the config. Image sets are told apart by their `type`: one of these two.
constexpr const char* kGeneratedImageSet = "generated";
constexpr const char* kFileImageSet = "files";
const ConfigKeys& top_level_keys();
const std::vector<std::string>& image_set_types();  // generated, files
const ConfigKeys& generated_image_keys();
const ConfigKeys& file_image_keys();
const std::vector<std::string>& image_patterns();  // what a generated image shows
const std::vector<int>& image_channel_counts();    // 1 (gray) and 3 (RGB)
const ConfigKeys& baseline_keys();
// A user's own kernel under implementations (config/user_kernel_entry.hpp): the names it may have
// (a regular expression, also the schema's pattern), and its entry's keys.
constexpr const char* kUserKernelNamePattern = "[A-Za-z][A-Za-z0-9_-]{0,63}";
const ConfigKeys& user_kernel_keys();
const ConfigKeys& gallery_keys();
// `whole_config`: the config's own measure block, which also takes per_implementation and
// interleave; false: one implementation's entry under per_implementation.
ConfigKeys measure_keys(bool whole_config);

// The JSON Schema of a search block (config/search_spec.hpp).
nlohmann::json search_schema();

// Small JSON Schema builders the tables and the schema share.
namespace schema {
nlohmann::json described(nlohmann::json schema, const std::string& description);
nlohmann::json integer(long long minimum, long long maximum);
nlohmann::json string_enum(const std::vector<std::string>& values);
// One value or a non-empty list of them (a sweep).
nlohmann::json sweep_of(const nlohmann::json& value);
// A pair [x, y] of values.
nlohmann::json pair_of(const nlohmann::json& value);
}  // namespace schema

}  // namespace convlab
