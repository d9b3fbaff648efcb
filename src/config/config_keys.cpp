#include "config/config_keys.hpp"

#include <cstdint>
#include <limits>

#include "config/search_spec.hpp"

namespace convlab {

using nlohmann::json;

std::vector<std::string> key_names(const ConfigKeys& keys) {
  std::vector<std::string> names;
  for (const auto& key : keys) names.push_back(key.name);
  return names;
}

namespace schema {

json described(json schema, const std::string& description) {
  schema["description"] = description;
  return schema;
}

json integer(long long minimum, long long maximum) {
  return {{"type", "integer"}, {"minimum", minimum}, {"maximum", maximum}};
}

json string_enum(const std::vector<std::string>& values) {
  return {{"type", "string"}, {"enum", values}};
}

json sweep_of(const json& value) {
  return {{"anyOf", json::array({value, {{"type", "array"}, {"items", value}, {"minItems", 1}}})}};
}

json pair_of(const json& value) {
  return {{"type", "array"}, {"items", value}, {"minItems", 2}, {"maxItems", 2}};
}

}  // namespace schema

namespace {

const json kString = {{"type", "string"}};
const json kBoolean = {{"type", "boolean"}};
const json kSafeName = {{"type", "string"},
                        {"pattern", "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"},
                        {"maxLength", kMaxNameLength}};

json channels() {
  return schema::sweep_of({{"type", "integer"},
                           {"enum", image_channel_counts()},
                           {"description", "1 (gray) or 3 (RGB)"}});
}

}  // namespace

// The search block (config/search_spec.hpp), at the top level and in an implementation's entry.
json search_schema() {
  std::vector<std::string> names;
  for (SearchStrategy strategy : search_strategies()) names.emplace_back(to_string(strategy));
  const json strategy = schema::string_enum(names);
  const json seed = schema::integer(0, std::numeric_limits<std::int32_t>::max());
  const json positive{{"type", "number"}, {"exclusiveMinimum", 0}};
  json properties{{"strategy", schema::sweep_of(strategy)},
                  {"seed", schema::sweep_of(seed)},
                  {"budget", schema::integer(1, 1000000)},
                  {"max_seconds", positive},
                  {"ahead", schema::described(schema::integer(1, 64),
                                              "variants proposed ahead of the measurements and "
                                              "compiled meanwhile, in parallel (default 4)")},
                  {"restrict", {{"type", "array"}, {"items", kString}}},
                  {"objective", schema::string_enum({"median_ms", "end_to_end"})}};
  for (const SearchSetting& setting : search_settings()) {
    const auto number = [&](double v) {
      return setting.whole ? json(static_cast<long long>(v)) : json(v);
    };
    json value{{"type", setting.whole ? "integer" : "number"},
               {setting.from_low ? "minimum" : "exclusiveMinimum", number(setting.low)},
               {"maximum", number(setting.high)},
               {"description", setting.strategies + ": " + setting.description}};
    properties[setting.key] = value;
  }
  return {{"type", "object"},
          {"description", "search strategies over the params instead of the full grid"},
          {"properties", properties},
          {"additionalProperties", false}};
}

namespace {

// derive: {NAME: "expression"}; the expressions are checked by the report's declarations.
json derive_schema() {
  return {{"type", "object"},
          {"propertyNames", {{"pattern", "^[A-Za-z_][A-Za-z0-9_]{0,63}$"}}},
          {"additionalProperties", {{"type", "string"}, {"pattern", "\\S"}}}};
}

}  // namespace

const ConfigKeys& top_level_keys() {
  // Values the schema builds from other tables (images, kernels, implementations, ...) are null
  // here and filled in by config/config_schema.cpp or the stage owning the section.
  static const ConfigKeys keys{
      {"name", "the experiment's name: it names outputs/<name>/ (letters, digits, '_', '-', '.')",
       true, kSafeName},
      {"title", "a title for the report and the notebook (default: the name)", false, kString},
      {"description", "what the experiment measures and why, in Markdown", false, kString},
      {"images", "the image sets: generated images or image files", true, nullptr},
      {"kernels", "the kernels (filters) to convolve with; `convlab list` shows them", true,
       nullptr},
      {"border", "border handling, one or a list (a sweep); default replicate", false, nullptr},
      {"output", "output type, one or a list (a sweep); default u8", false, nullptr},
      {"implementations", "the implementations to run, each with its axes (a value or a sweep)",
       true, nullptr},
      {"baseline",
       "the implementation speedups are measured against (a name, or implementation and params); "
       "default sequential when configured, else the first",
       false, nullptr},
      {"measure", "how each point is timed", false, nullptr},
      {"search",
       "search strategies over every implementation's params instead of the full grid "
       "(docs/search.md)",
       false, search_schema()},
      {"save_outputs", "save every point's output image (for the gallery); default false", false,
       kBoolean},
      {"gallery", "which implementation's saved outputs the gallery shows", false, nullptr},
      {"derive",
       "derived columns: a name and an expression over records each, plotted and printed as the "
       "field derive.NAME (docs/notebook.md)",
       false, derive_schema()},
      {"figures", "the figures of the report and notebook (docs/report.md)", false, nullptr},
      {"tables", "the tables of the report and notebook (docs/report.md)", false, nullptr},
  };
  return keys;
}

const std::vector<std::string>& image_set_types() {
  static const std::vector<std::string> types{kGeneratedImageSet, kFileImageSet};
  return types;
}

const std::vector<int>& image_channel_counts() {
  static const std::vector<int> counts{1, 3};
  return counts;
}

const std::vector<std::string>& image_patterns() {
  static const std::vector<std::string> patterns{"noise", "scene"};
  return patterns;
}

const ConfigKeys& generated_image_keys() {
  static const json size = schema::integer(1, kMaxImageEdge);
  static const ConfigKeys keys{
      {"type", "generated: images made from a seed", true, {{"const", kGeneratedImageSet}}},
      {"sizes", "image sizes: N (square) or [width, height], one or a list", true,
       schema::sweep_of({{"anyOf", json::array({size, schema::pair_of(size)})}})},
      {"channels", "1 (gray) or 3 (RGB), one or a list; default 3", false, channels()},
      {"seed",
       "the random seed (0 or more); default 1",
       false,
       {{"type", "integer"}, {"minimum", 0}}},
      {"pattern", "noise (uniform random pixels, the default) or scene (shapes and gradients)",
       false, schema::string_enum(image_patterns())},
  };
  return keys;
}

const ConfigKeys& file_image_keys() {
  static const ConfigKeys keys{
      {"type",
       "files: image files (PNG, JPEG, PNM, PFM) matched by glob patterns",
       true,
       {{"const", kFileImageSet}}},
      {"glob", "a glob pattern or a list of them", true, schema::sweep_of(kString)},
      {"channels", "read as 1 (gray) or 3 (RGB) channels, one or a list; default 3", false,
       channels()},
      {"max_files",
       "use at most this many of the matched files",
       false,
       {{"type", "integer"}, {"minimum", 1}}},
  };
  return keys;
}

const ConfigKeys& baseline_keys() {
  static const ConfigKeys keys{
      {"implementation", "one of this config's implementations", true, nullptr},
      {"params",
       "axis values picking among its combinations, e.g. {threads: 1}",
       false,
       {{"type", "object"}}},
  };
  return keys;
}

namespace {

// A param's values are compiled in as macros: integers, pairs [x, y] (BLOCK_X, BLOCK_Y), words
// or booleans, one value or a list of one kind.
json user_kernel_param() {
  const json number = schema::integer(-(1LL << 30), 1LL << 30);
  const json word = {{"type", "string"}, {"pattern", "^[A-Za-z_][A-Za-z0-9_]{0,63}$"}};
  json kinds = json::array();
  for (const json& value : {number, word, kBoolean}) kinds.push_back(value);
  for (const json& value : {number, word, kBoolean, schema::pair_of(number)})
    kinds.push_back({{"type", "array"}, {"items", value}, {"minItems", 1}});
  return {{"anyOf", kinds}};
}

}  // namespace

const ConfigKeys& user_kernel_keys() {
  static const json param_name = {
      {"pattern", "^[A-Za-z][A-Za-z0-9_]{0,63}$"},
      {"not", {{"anyOf", json::array({{{"pattern", "^CONVLAB_"}}, {{"const", "threads"}}})}}}};
  static const ConfigKeys keys{
      {"source",
       "your kernel's source file, relative to the config: .cu (CUDA, compiled with NVRTC), "
       ".cpp/.cc/.cxx or .c (the system compiler)",
       true,
       {{"type", "string"}, {"pattern", "\\.(cu|cpp|cc|cxx|c)$"}, {"maxLength", 4096}}},
      {"params",
       "compile-time macros swept like axes (params.NAME): integers, pairs [x, y] (NAME_X, "
       "NAME_Y), words or true/false, one value or a list of one kind",
       false,
       {{"type", "object"},
        {"propertyNames", param_name},
        {"additionalProperties", user_kernel_param()}}},
      {"threads", "OpenMP threads of a call, one or a list (CPU sources only)", false,
       schema::sweep_of(schema::integer(1, 1024))},
      {"search",
       "search strategies over this kernel's params instead of the full grid (docs/search.md)",
       false, search_schema()},
  };
  return keys;
}

const ConfigKeys& gallery_keys() {
  static const ConfigKeys keys{
      {"implementation", "one of this config's implementations", true, nullptr},
  };
  return keys;
}

ConfigKeys measure_keys(bool whole_config) {
  const json count = schema::integer(1, kMaxRepetitions);
  ConfigKeys keys{
      {"warmup", "untimed calls before the timed ones", false, schema::integer(0, kMaxRepetitions)},
      {"min_reps", "at least this many timed repetitions", false, count},
      {"max_reps", "at most this many timed repetitions (not fewer than min_reps)", false, count},
      {"max_seconds",
       "stop repeating after this many seconds once min_reps are done",
       false,
       {{"type", "number"}, {"exclusiveMinimum", 0}}},
      {"l2_flush", "clear the GPU's L2 cache before every repetition", false, kBoolean},
      {"timeout",
       "seconds one point of a user's own kernel may take before it is stopped and failed "
       "(default 300)",
       false,
       {{"type", "number"}, {"exclusiveMinimum", 0}}},
      {"compile_timeout",
       "seconds compiling one variant of a user's own kernel may take before the compiler is "
       "stopped (default 120)",
       false,
       {{"type", "number"}, {"exclusiveMinimum", 0}, {"maximum", 86400}}},
      {"compile_memory_gib",
       "GiB of address space the compiler of a user's own kernel may use, with every program it "
       "starts (default 4)",
       false,
       {{"type", "number"}, {"minimum", 0.25}, {"maximum", 1024}}},
  };
  if (whole_config) {
    keys.push_back({"per_implementation",
                    "measure settings of single implementations, on top of these", false, nullptr});
    keys.push_back({"interleave",
                    "time the points of one problem together, in turns (set for the whole config)",
                    false, kBoolean});
  }
  return keys;
}

}  // namespace convlab
