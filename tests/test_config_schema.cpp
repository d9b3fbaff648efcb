// The config schema (`convlab schema`, docs/config.schema.json) against the config reader, both
// ways: the schema names every filter, implementation, axis, border, output and key of the tables
// the reader uses, and a config built from each schema key and enum value is one the reader
// accepts. Committed configs are validated against the schema by an independent validator
// (Debian's valijson, draft 7), and the structural mistakes of the bad-config corpus fail it.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app/config_loading.hpp"
#include "config/config_error.hpp"
#include "config/config_keys.hpp"
#include "config/config_schema.hpp"
#include "core/output_types.hpp"
#include "figures/declaration_keys.hpp"
#include "filters/filter_descriptor.hpp"
#include "images/image_source.hpp"
#include "impl/registry.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSourceTree = CONVLAB_SOURCE_TREE;
const std::string kModeline = "# yaml-language-server: $schema=../docs/config.schema.json";

json generated_schema() {
  return config_schema(declarations_schema());
}

std::set<std::string> property_names(const json& object) {
  std::set<std::string> names;
  for (auto it = object.at("properties").begin(); it != object.at("properties").end(); ++it)
    names.insert(it.key());
  return names;
}

template <typename Names>
std::set<std::string> as_set(const Names& names) {
  return std::set<std::string>(names.begin(), names.end());
}

// ---- YAML to JSON as a YAML 1.2 (core schema) language server reads it ----

json plain_scalar(const std::string& text) {
  static const std::regex null_form("~|null|Null|NULL|");
  static const std::regex true_form("true|True|TRUE"), false_form("false|False|FALSE");
  static const std::regex integer_form("[-+]?[0-9]+");
  static const std::regex float_form(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
  if (std::regex_match(text, null_form)) return nullptr;
  if (std::regex_match(text, true_form)) return true;
  if (std::regex_match(text, false_form)) return false;
  if (std::regex_match(text, integer_form)) return std::stoll(text);
  if (std::regex_match(text, float_form)) return std::stod(text);
  return text;
}

json yaml_to_core_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      json object = json::object();
      for (const auto& entry : node) object[entry.first.Scalar()] = yaml_to_core_json(entry.second);
      return object;
    }
    case YAML::NodeType::Sequence: {
      json array = json::array();
      for (const auto& item : node) array.push_back(yaml_to_core_json(item));
      return array;
    }
    case YAML::NodeType::Scalar:
      // A quoted scalar's tag is "!": it stays a string, as the reader keeps it.
      return node.Tag() == "!" ? json(node.Scalar()) : plain_scalar(node.Scalar());
    default:
      return nullptr;
  }
}

json yaml_file_as_json(const fs::path& path) {
  return yaml_to_core_json(YAML::LoadFile(path.string()));
}

// ---- the independent validator ----

class SchemaValidator {
 public:
  explicit SchemaValidator(const json& schema_document) : document_(schema_document) {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(document_);
    parser.populateSchema(adapter, schema_);
  }

  // Empty when `instance` is valid, else valijson's errors, one a line.
  std::string errors(const json& instance) const {
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter adapter(instance);
    if (validator.validate(schema_, adapter, &results)) return "";
    std::string text;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
      std::string context;
      for (const auto& part : error.context) context += part;
      text += context + ": " + error.description + "\n";
    }
    return text.empty() ? "invalid\n" : text;
  }

 private:
  json document_;
  valijson::Schema schema_;
};

const SchemaValidator& committed_schema_validator() {
  static const SchemaValidator validator(
      json::parse(testing::read_text(kSourceTree / "docs" / "config.schema.json")));
  return validator;
}

std::vector<fs::path> committed_configs() {
  std::vector<fs::path> configs;
  for (const auto& entry : fs::directory_iterator(kSourceTree / "configs"))
    if (entry.path().extension() == ".yaml") configs.push_back(entry.path());
  std::sort(configs.begin(), configs.end());
  return configs;
}

// ---- the committed schema ----

TEST(ConfigSchema, CommittedSchemaIsWhatConvlabSchemaPrints) {
  const auto result = testing::run_shell("\"$CONVLAB\" schema");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string committed = testing::read_text(kSourceTree / "docs" / "config.schema.json");
  EXPECT_TRUE(result.output == committed)
      << "docs/config.schema.json is not the schema of this build's config reader; write it again "
         "with `make schema` (./build/convlab schema > docs/config.schema.json) and commit it";
  EXPECT_EQ(json::parse(result.output), generated_schema());
}

TEST(ConfigSchema, IsDraft202012UsingKeywordsDraft7Shares) {
  const json schema = generated_schema();
  EXPECT_EQ(schema.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
  // Keywords both drafts read alike; the validator of the tests is a draft 7 one.
  const std::set<std::string> shared{"$schema",       "$defs",       "$ref",
                                     "title",         "description", "type",
                                     "properties",    "required",    "additionalProperties",
                                     "propertyNames", "enum",        "const",
                                     "minimum",       "maximum",     "exclusiveMinimum",
                                     "multipleOf",    "not",         "items",
                                     "minItems",      "maxItems",    "minProperties",
                                     "anyOf",         "oneOf",       "pattern",
                                     "maxLength"};
  std::function<void(const json&, const std::string&)> walk = [&](const json& node,
                                                                  const std::string& path) {
    if (!node.is_object()) return;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const bool names_children = it.key() == "properties" || it.key() == "$defs";
      if (!names_children) {
        EXPECT_TRUE(shared.count(it.key())) << path << "/" << it.key();
      }
      if (it.value().is_array())
        for (const auto& item : it.value()) walk(item, path + "/" + it.key());
      else if (names_children)
        for (auto child = it.value().begin(); child != it.value().end(); ++child)
          walk(child.value(), path + "/" + it.key() + "/" + child.key());
      else
        walk(it.value(), path + "/" + it.key());
    }
  };
  walk(schema, "#");
}

// ---- from the reader's tables to the schema ----

TEST(ConfigSchema, NamesEveryKeyOfTheReadersTables) {
  const json schema = generated_schema();
  const json& defs = schema.at("$defs");
  EXPECT_EQ(property_names(schema), as_set(key_names(top_level_keys())));
  EXPECT_EQ(property_names(defs.at("generated_images")), as_set(key_names(generated_image_keys())));
  EXPECT_EQ(property_names(defs.at("image_files")), as_set(key_names(file_image_keys())));
  EXPECT_EQ(property_names(schema["properties"]["measure"]), as_set(key_names(measure_keys(true))));
  EXPECT_EQ(property_names(defs.at("measure_override")), as_set(key_names(measure_keys(false))));
  EXPECT_EQ(property_names(defs.at("user_kernel")), as_set(key_names(user_kernel_keys())));
  EXPECT_EQ(property_names(schema["properties"]["gallery"]), as_set(key_names(gallery_keys())));
  EXPECT_EQ(property_names(schema["properties"]["figures"]["items"]),
            as_set(key_names(figure_keys())));
  EXPECT_EQ(property_names(schema["properties"]["tables"]["items"]),
            as_set(key_names(table_keys())));
  for (const auto& key : top_level_keys())
    EXPECT_EQ(schema["properties"][key.name].value("description", ""), key.description);
  std::set<std::string> required(schema["required"].begin(), schema["required"].end());
  for (const auto& key : top_level_keys()) EXPECT_EQ(required.count(key.name) == 1, key.required);
}

TEST(ConfigSchema, NamesEveryFilterTypeWithItsParameters) {
  const json schema = generated_schema();
  const json& kernels = schema["properties"]["kernels"]["items"]["oneOf"];
  EXPECT_EQ(kernels.size(), filter_types().size());
  for (const auto& filter : filter_types()) {
    SCOPED_TRACE(filter.type);
    const json& def = schema["$defs"].at("kernel_" + filter.type);
    EXPECT_EQ(def["properties"]["type"]["const"], filter.type);
    std::set<std::string> keys{"type"};
    for (const auto& parameter : filter.parameters) keys.insert(parameter.key);
    EXPECT_EQ(property_names(def), keys);
    EXPECT_EQ(def["additionalProperties"], false);
    EXPECT_NE(def.value("description", "").find(filter.summary), std::string::npos);
    EXPECT_TRUE(std::count(kernels.begin(), kernels.end(),
                           json{{"$ref", "#/$defs/kernel_" + filter.type}}) == 1);
  }
}

TEST(ConfigSchema, NamesEveryImplementationWithItsAxes) {
  const json schema = generated_schema();
  std::set<std::string> names;
  for (const auto& impl : implementation_registry()) {
    SCOPED_TRACE(impl.name);
    names.insert(impl.name);
    const json& def = schema["$defs"].at("implementation_" + impl.name);
    std::set<std::string> axes{"search"};  // beside the axes, every entry may hold a search
    for (const auto& axis : impl.axes) axes.insert(axis.name);
    EXPECT_EQ(property_names(def), axes);
    for (const auto& axis : impl.axes)
      if (axis.kind == AxisKind::choice) {
        EXPECT_EQ(def["properties"][axis.name]["anyOf"][0]["enum"], json(axis.choices));
      }
  }
  EXPECT_EQ(property_names(schema["properties"]["implementations"]), names);
  EXPECT_EQ(property_names(schema["properties"]["measure"]["properties"]["per_implementation"]),
            names);
}

TEST(ConfigSchema, NamesEveryBorderAndOutput) {
  const json schema = generated_schema();
  std::vector<std::string> borders, outputs;
  for (Border b : all_borders()) borders.emplace_back(to_string(b));
  for (OutputType o : all_output_types()) outputs.emplace_back(to_string(o));
  EXPECT_EQ(schema["properties"]["border"]["anyOf"][0]["enum"], json(borders));
  EXPECT_EQ(schema["properties"]["output"]["anyOf"][0]["enum"], json(outputs));
}

// ---- from the schema to the reader: configs made of schema values are accepted ----

// A value the schema accepts, made from its first alternative; numbers count up so that two
// parameters of one entry (sigma, sigma2) differ.
json example_of(const json& schema, double& next_number) {
  if (schema.contains("const")) return schema["const"];
  if (schema.contains("enum")) return schema["enum"][0];
  if (schema.contains("anyOf")) return example_of(schema["anyOf"][0], next_number);
  const json type = schema.value("type", json("object"));
  const std::string first = type.is_array() ? type[0].get<std::string>() : type.get<std::string>();
  if (first == "integer") {
    long long value = schema.value("minimum", 1LL);
    if (schema.contains("not") && value % 2 == 0) ++value;  // odd sizes
    return value;
  }
  if (first == "number") return next_number += 0.5;
  if (first == "boolean") return false;
  if (first == "string") return "example";
  if (first == "array") {
    json array = json::array();
    for (int i = 0; i < schema.value("minItems", 1); ++i)
      array.push_back(example_of(schema["items"], next_number));
    return array;
  }
  json object = json::object();
  const json properties = schema.value("properties", json::object());
  for (auto it = properties.begin(); it != properties.end(); ++it)
    object[it.key()] = example_of(it.value(), next_number);
  return object;
}

json minimal_config() {
  return {{"name", "schema_example"},
          {"images", {{{"type", "generated"}, {"sizes", {16}}, {"channels", 1}}}},
          {"kernels", {{{"type", "box"}, {"size", 3}}}},
          {"implementations", {{"sequential", json::object()}}}};
}

// Loads `config` (written as JSON, which is YAML) with every check `convlab validate` makes, with
// `files` (path relative to the config -> text) beside it.
std::string load_errors(const json& config, const std::string& name,
                        const std::map<std::string, std::string>& files = {}) {
  const fs::path dir = testing::fresh_directory("schema-" + name);
  for (const auto& [file, text] : files) {
    fs::create_directories((dir / file).parent_path());
    testing::write_text(dir / file, text);
  }
  const fs::path path = dir / "config.yaml";
  testing::write_text(path, config.dump(2) + "\n");
  try {
    load_config_for_command(path.string());
    return "";
  } catch (const ConfigError& error) {
    return error.what();
  }
}

TEST(ConfigSchema, EveryKernelTypeWithEveryParameterIsAccepted) {
  const json schema = generated_schema();
  for (const auto& filter : filter_types()) {
    double next_number = 1.0;
    json kernel = example_of(schema["$defs"]["kernel_" + filter.type], next_number);
    if (kernel.contains("name")) kernel["name"] = "mine";
    if (kernel.contains("matrix")) kernel["matrix"] = {{0, 1, 0}, {1, 2, 1}, {0, 1, 0}};
    // The smallest size the schema allows is 1, where a Laplacian of Gaussian is 0: a size that
    // makes a kernel of every type.
    if (filter.fixed_size == 0 && kernel.contains("size")) kernel["size"] = 5;
    json config = minimal_config();
    config["kernels"] = {kernel};
    EXPECT_EQ(committed_schema_validator().errors(config), "") << kernel.dump();
    EXPECT_EQ(load_errors(config, "kernel-" + filter.type), "") << kernel.dump();
  }
}

TEST(ConfigSchema, EveryImplementationAndAxisValueIsAccepted) {
  const json schema = generated_schema();
  for (const auto& impl : implementation_registry()) {
    // The axes' values; the search block beside them has a test of its own (top-level keys).
    json def = schema["$defs"]["implementation_" + impl.name];
    def["properties"].erase("search");
    double next_number = 1.0;
    json config = minimal_config();
    config["implementations"] = {{impl.name, example_of(def, next_number)}};
    EXPECT_EQ(committed_schema_validator().errors(config), "") << impl.name;
    EXPECT_EQ(load_errors(config, "impl-" + impl.name), "") << config["implementations"].dump();
    for (const auto& axis : impl.axes)
      for (const auto& choice : axis.choices) {
        config["implementations"] = {{impl.name, {{axis.name, choice}}}};
        EXPECT_EQ(load_errors(config, "axis-" + impl.name + "-" + choice), "")
            << config["implementations"].dump();
      }
  }
}

TEST(ConfigSchema, EveryTopLevelKeyAndEnumValueIsAccepted) {
  const json schema = generated_schema();
  const fs::path photos = testing::fresh_directory("schema-photos");
  const std::vector<std::uint8_t> pixels(8 * 8 * 3, 128);
  write_png((photos / "gray.png").string(), 8, 8, 3, pixels.data());
  double next_number = 1.0;
  json config = minimal_config();
  config["title"] = "Every key";
  config["description"] = "Every top-level key the schema names.";
  config["images"].push_back(example_of(schema["$defs"]["image_files"], next_number));
  config["images"][1]["glob"] = (photos / "*.png").string();
  config["border"] = example_of(schema["properties"]["border"], next_number);
  config["output"] = example_of(schema["properties"]["output"], next_number);
  config["baseline"] = {{"implementation", "sequential"}, {"params", json::object()}};
  config["measure"] = example_of(schema["properties"]["measure"], next_number);
  config["measure"]["per_implementation"] = {
      {"sequential", example_of(schema["$defs"]["measure_override"], next_number)}};
  config["save_outputs"] = true;
  config["gallery"] = {{"implementation", "sequential"}};
  config["search"] = {
      {"strategy", "random"}, {"budget", 2}, {"seed", 4}, {"restrict", {"threads >= 1"}}};
  config["derive"] = {{"of_best", "median_ms / min(median_ms[])"}};
  config["figures"] = {{{"x", "image.width"}, {"y", "median_ms"}, {"reduce", "mean"}}};
  config["tables"] = {
      {{"rows", "kernel.name"}, {"columns", "border"}, {"value", "median_ms"}, {"reduce", "mean"}}};
  for (const auto& key : top_level_keys()) EXPECT_TRUE(config.contains(key.name)) << key.name;
  EXPECT_EQ(committed_schema_validator().errors(config), "") << config.dump(2);
  EXPECT_EQ(load_errors(config, "every-key"), "") << config.dump(2);

  const std::vector<std::pair<std::string, json>> enums{
      {"border", schema["properties"]["border"]["anyOf"][0]["enum"]},
      {"output", schema["properties"]["output"]["anyOf"][0]["enum"]},
      {"pattern", schema["$defs"]["generated_images"]["properties"]["pattern"]["enum"]},
      {"channels",
       schema["$defs"]["generated_images"]["properties"]["channels"]["anyOf"][0]["enum"]}};
  for (const auto& [key, values] : enums)
    for (const auto& value : values) {
      json one = minimal_config();
      if (key == "pattern" || key == "channels")
        one["images"][0][key] = value;
      else
        one[key] = value;
      EXPECT_EQ(committed_schema_validator().errors(one), "") << key << " " << value;
      EXPECT_EQ(load_errors(one, "enum-" + key + "-" + value.dump()), "") << key << " " << value;
    }
}

// A user's kernel: its entry made from the schema with every kind of param, and its name wherever
// a config names one of its implementations.
TEST(ConfigSchema, AUserKernelEntryAndItsNameAreAcceptedWhereAnImplementationGoes) {
  const json schema = generated_schema();
  double next_number = 1.0;
  json entry = example_of(schema["$defs"]["user_kernel"], next_number);
  entry["source"] = "kernels/mine.c";
  // A search block of every key is not one a reader takes (a budget and max_seconds both): the
  // search block's own test makes one of every key; here, one a search may have.
  entry["search"] = {{"strategy", "random"}, {"seed", 3}, {"budget", 2}};
  const std::map<std::string, std::string> source{
      {"kernels/mine.c", "#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n"}};
  json config = minimal_config();
  config["implementations"]["my-kernel"] = entry;
  EXPECT_EQ(committed_schema_validator().errors(config), "") << entry.dump();
  EXPECT_EQ(load_errors(config, "user-kernel-example", source), "") << entry.dump();

  entry["params"] = {{"TILE", {16, 32}},
                     {"BLOCK", {{16, 16}, {32, 8}}},
                     {"SCHEDULE", {"static", "dynamic"}},
                     {"UNROLL", {true, false}},
                     {"ONE", 4},
                     {"WORD", "fast"},
                     {"FLAG", true}};
  entry["threads"] = {1, 2};
  config["implementations"]["my-kernel"] = entry;
  config["baseline"] = "my-kernel";
  config["measure"] = {{"timeout", 30},
                       {"per_implementation", {{"my-kernel", {{"timeout", 5}, {"max_reps", 3}}}}}};
  config["save_outputs"] = true;
  config["gallery"] = {{"implementation", "my-kernel"}};
  EXPECT_EQ(committed_schema_validator().errors(config), "") << config.dump(2);
  EXPECT_EQ(load_errors(config, "user-kernel-everywhere", source), "") << config.dump(2);
  config["baseline"] = {{"implementation", "my-kernel"}, {"params", {{"threads", 2}}}};
  EXPECT_EQ(committed_schema_validator().errors(config), "") << config.dump(2);
  EXPECT_EQ(load_errors(config, "user-kernel-baseline", source), "") << config.dump(2);

  // A built-in implementation's name is not a user's kernel's, for the schema and the reader.
  json builtin = minimal_config();
  builtin["implementations"]["openmp"] = {{"source", "kernels/mine.c"}};
  EXPECT_NE(committed_schema_validator().errors(builtin), "");
  EXPECT_NE(load_errors(builtin, "user-kernel-builtin-name", source), "");
}

TEST(ConfigSchema, EveryReduceAndLogValueOfADeclarationIsAccepted) {
  const json schema = generated_schema();
  const json& figure = schema["properties"]["figures"]["items"]["properties"];
  for (const auto& reduce : figure["reduce"]["enum"]) {
    json config = minimal_config();
    config["figures"] = {{{"x", "image.width"}, {"y", "median_ms"}, {"reduce", reduce}}};
    config["tables"] = {{{"rows", "kernel.name"},
                         {"columns", "border"},
                         {"value", "median_ms"},
                         {"reduce", reduce}}};
    EXPECT_EQ(committed_schema_validator().errors(config), "") << reduce;
    EXPECT_EQ(load_errors(config, "reduce-" + reduce.get<std::string>()), "") << reduce;
  }
  for (const auto& log : figure["log"]["anyOf"][0]["enum"]) {
    json config = minimal_config();
    config["figures"] = {{{"x", "image.width"}, {"y", "median_ms"}, {"log", log}}};
    EXPECT_EQ(committed_schema_validator().errors(config), "") << log;
    EXPECT_EQ(load_errors(config, "log-" + log.get<std::string>()), "") << log;
  }
}

// best: (true, or a label and the implementations it sets aside) and an overlay of a constant, on
// the two types that take them: the schema and the reader accept them alike.
TEST(ConfigSchema, ABestSeriesAndAConstantOverlayAreAccepted) {
  json config = minimal_config();
  config["implementations"]["openmp"] = {{"threads", {1, 2}}};
  config["figures"] = {
      {{"name", "a"}, {"x", "kernel.name"}, {"y", "median_ms"}, {"best", true}},
      {{"name", "b"},
       {"type", "bars"},
       {"x", "kernel.name"},
       {"y", "median_ms"},
       {"best", {{"label", "fastest"}, {"except", {"sequential"}}}},
       {"overlay", {{{"label", "goal"}, {"value", 1.5}}}}},
      {{"name", "c"},
       {"x", "kernel.name"},
       {"y", "median_ms"},
       {"best", {{"except", "sequential"}}},
       {"overlay",
        {{{"label", "sequential"}, {"y", "median_ms"}, {"where", "implementation=sequential"}}}}}};
  EXPECT_EQ(committed_schema_validator().errors(config), "");
  EXPECT_EQ(load_errors(config, "best-and-goal"), "");
  // An overlay with both y and value is refused by both.
  config["figures"][1]["overlay"][0]["y"] = "median_ms";
  EXPECT_NE(committed_schema_validator().errors(config), "");
  EXPECT_NE(load_errors(config, "goal-and-y"), "");
}

// x and y default for a convergence figure (the search's step and best so far): the schema takes
// one without them, as the reader does, and refuses a line figure without them.
TEST(ConfigSchema, AConvergenceFigureMayLeaveOutXAndY) {
  json config = minimal_config();
  config["figures"] = {{{"type", "convergence"}}};
  EXPECT_EQ(committed_schema_validator().errors(config), "");
  EXPECT_EQ(load_errors(config, "convergence-defaults"), "");
  for (const json& figure : {json{{"type", "line"}, {"y", "median_ms"}},
                             json{{"type", "line"}, {"x", "image.width"}}, json::object()}) {
    config["figures"] = {figure};
    EXPECT_NE(committed_schema_validator().errors(config), "") << figure.dump();
    EXPECT_NE(load_errors(config, "line-without-x-or-y"), "") << figure.dump();
  }
}

// ---- committed configs and the bad-config corpus against the committed schema ----

TEST(ConfigSchema, EveryCommittedConfigNamesTheSchemaOnItsFirstLine) {
  for (const auto& path : committed_configs()) {
    const std::string text = testing::read_text(path);
    EXPECT_EQ(text.substr(0, text.find('\n')), kModeline)
        << path.filename() << ": the YAML language server reads the schema from this line";
  }
  // The line names the schema relative to the config, as the language server resolves it.
  EXPECT_TRUE(fs::exists(kSourceTree / "configs" / "../docs/config.schema.json"));
}

TEST(ConfigSchema, EveryCommittedConfigPassesTheSchema) {
  const auto configs = committed_configs();
  ASSERT_GE(configs.size(), 10u);
  for (const auto& path : configs)
    EXPECT_EQ(committed_schema_validator().errors(yaml_file_as_json(path)), "") << path.filename();
}

// The corpus files whose one mistake is in the structure of the config, and so must fail the
// schema too; the others (values that depend on the plan, files, limits or YAML syntax) pass it.
const std::vector<std::pair<std::string, std::string>> kStructuralMistakes{
    {"unknown_top_key", "a top-level key the config language does not have"},
    {"unknown_image_key", "an image set key that is not one of its type's"},
    {"unknown_kernel_type", "a filter type that is not in the library"},
    {"unknown_implementation", "an implementation that is not in the registry"},
    {"unknown_axis", "an axis the implementation does not have"},
    {"unknown_border", "a border that is not one of the five"},
    {"unknown_schedule", "a choice axis value that is not one of its choices"},
    {"gallery_unknown_key", "a gallery key besides implementation"},
    {"figure_unknown_key", "a figure key that is not one of the figure keys"},
    {"figure_best_unknown_key", "a key of best besides label and except"},
    {"figure_best_not_boolean", "best that is a word, neither true or false nor a map"},
    {"overlay_value_not_a_number", "an overlay's value that is a word"},
    {"overlay_without_y_or_value", "an overlay with neither y nor value"},
    {"missing_name", "the required key name left out"},
    {"channels_two", "channels other than 1 or 3"},
    {"kernel_size_even", "an even kernel size"},
    {"kernel_size_zero", "a kernel size below 1"},
    {"kernel_size_not_integer", "a kernel size that is not an integer"},
    {"fixed_size_kernel", "a size other than 3 for a fixed 3x3 kernel"},
    {"quoted_integer", "a quoted integer, a string"},
    {"quoted_flag", "a quoted boolean, a string"},
    {"max_seconds_not_number", "a number of seconds that is a word"},
    {"max_seconds_with_unit", "a number of seconds written with a unit, a string"},
    {"measure_interleave_not_bool", "interleave that is not a boolean"},
    {"measure_interleave_per_implementation", "interleave in a per-implementation entry"},
    {"seed_negative", "a negative seed"},
    {"threads_zero", "an integer axis below its minimum"},
    {"block_not_pair", "a list of pairs holding a one-number value"},
    {"image_size_negative", "a negative image size"},
    {"size_written_with_x", "an image size written as WxH, a string"},
    {"sigma_negative", "a sigma that is not positive"},
    {"empty_sweep", "an empty list where a sweep needs a value"},
    {"name_too_long", "a name longer than 100 characters"},
    {"unsafe_name", "a name that is not a safe file name"},
    {"user_kernel_unknown_key", "a user's kernel entry key besides source, params and threads"},
    {"user_kernel_not_a_source", "a source that is not a .cu, .cpp, .cc, .cxx or .c file"},
    {"user_kernel_param_not_a_macro", "a param value that is a fraction"},
    {"user_kernel_param_kinds_mixed", "a param list of integers and words"},
    {"user_kernel_param_reserved", "a param named CONVLAB_..."},
    {"user_kernel_threads_zero", "a thread count below 1"},
    {"user_kernel_bad_name", "a user's kernel named with a dot"},
};

TEST(ConfigSchema, StructuralMistakesOfTheBadConfigCorpusFailTheSchema) {
  for (const auto& [name, mistake] : kStructuralMistakes) {
    const fs::path path = fs::path(CONVLAB_TEST_DATA) / "bad" / (name + ".yaml");
    ASSERT_TRUE(fs::exists(path)) << path;
    EXPECT_NE(committed_schema_validator().errors(yaml_file_as_json(path)), "")
        << name << " (" << mistake << ") passes the schema";
  }
}

}  // namespace
}  // namespace convlab
