// An experiment config, parsed and validated (docs/config.md). Everything that can be checked
// without running is checked in load_config, which throws ConfigError on the first problem.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "config/search_domain.hpp"
#include "config/search_spec.hpp"
#include "config/yaml_load.hpp"
#include "core/filter.hpp"
#include "core/types.hpp"
#include "images/image_spec.hpp"
#include "impl/implementation.hpp"
#include "measure/measure_spec.hpp"

namespace YAML {
class Node;
}

namespace convlab {

struct YamlLocation;

struct UserKernelSource;

// One implementation of the config with every combination of its swept axes.
struct ImplementationSweep {
  std::string name;
  nlohmann::json axes = nlohmann::json::object();  // axis -> the list of values swept
  std::vector<SearchAxis> axis_list;               // the same, in the config's order
  // Their cartesian product (after a grid's restrictions); empty for a search that walks them.
  std::vector<Params> combinations;
  // A user's own kernel (config/user_kernel_entry.hpp): its implementation, made from the entry,
  // and its source; null for convlab's own implementations, found in the registry by name.
  std::shared_ptr<const Implementation> user;
  std::shared_ptr<const UserKernelSource> user_source;
  // A search over the combinations (config/search_spec.hpp; after its restrictions), or none.
  std::optional<SearchSpec> search;
  // What a search that chooses its variants walks (config/search_domain.hpp): set with a budget,
  // max_seconds or a strategy other than the grid, whose variants are then never listed.
  std::shared_ptr<const SearchDomain> domain;
};

// The implementation a sweep runs: the user's kernel or the registry's entry of that name.
const Implementation& implementation_of(const ImplementationSweep& sweep);

// The implementation speedups are measured against; `params` (possibly partial) picks among its
// combinations, e.g. openmp with threads 1.
struct BaselineSpec {
  std::string implementation;
  Params params = Params::object();
};

// The gallery: block (configs with save_outputs: true): the implementation whose saved outputs the
// report's gallery shows; empty: the first implementation of the config.
struct GallerySpec {
  std::string implementation;
};

struct Config;
// The measure block for one implementation: the config's, with its per_implementation entry on top.
const MeasureSpec& measure_for(const Config& config, const std::string& implementation);
// A measure block as the resolved config and the run block write it.
nlohmann::json measure_json(const MeasureSpec& measure);

struct Config {
  std::string path;
  std::string sha256;  // of the file's bytes
  std::string name;
  std::string title;
  std::string description;
  std::vector<ImageSpec> images;
  std::vector<Filter> filters;
  std::vector<Border> borders;
  std::vector<OutputType> outputs;
  std::vector<ImplementationSweep> implementations;
  BaselineSpec baseline;
  MeasureSpec measure;
  std::map<std::string, MeasureSpec> measure_overrides;  // measure.per_implementation
  bool save_outputs = false;
  GallerySpec gallery;
  nlohmann::json report;  // derive, figures and tables as written (validated by the report module)
  nlohmann::json resolved;  // the whole config with every default filled in
};

// A check of sections that a later stage owns (the report's figures: and tables:), run where
// load_config validates them so that the first problem in file order is the one reported; throws
// ConfigError. The layers above supply it (app/config_loading.hpp), so config depends on none.
using ConfigSectionCheck = std::function<void(const YAML::Node& root, const YamlLocation& top)>;

Config load_config(const std::string& path, const ConfigSectionCheck& check_sections = nullptr);
// The config of a file read already (read_config), parsed here.
Config load_config(const ConfigFile& file, const ConfigSectionCheck& check_sections = nullptr);
// The config of a file read already, `root` its text as YAML (parse_config): what a command that
// looks at the file in several ways (the notebook) loads without reading it again.
Config load_config(const ConfigFile& file, const YAML::Node& root,
                   const ConfigSectionCheck& check_sections = nullptr);

}  // namespace convlab
