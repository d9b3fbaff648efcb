// The config of an experiment's notebook as a command read it: the file once, with what every
// part of the page takes from it (its YAML for the title and description, the figures:, tables:
// and derive: it declares, the checked config and its plan for freshness, the kernel sources it
// names for the page's inputs). `convlab notebook` reads it once per page, `convlab watch` once
// per save, and hands it down; nothing below reads the file again.
#pragma once

#include <yaml-cpp/yaml.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "figures/declarations.hpp"
#include "plan/plan.hpp"
#include "query/results_document.hpp"

namespace convlab {

struct ExperimentConfig {
  ConfigFile file;
  YAML::Node root;                                         // file.text as YAML
  ReportDeclarations declarations;                         // its derive:, figures: and tables:
  std::optional<std::vector<std::string>> kernel_sources;  // named_kernel_sources
  // The checked config and its plan; nullopt when the file does not load as a config, load_error
  // saying why (the page then says the results cannot be compared with it).
  std::optional<Config> config;
  std::vector<Point> plan;
  std::string load_error;
};

// The config of `file`, loaded and its plan expanded where it can be. Throws ConfigError when
// the file is not YAML or its declarations are bad.
ExperimentConfig experiment_config(ConfigFile file);

// The same from a config a command loaded from `file` already (convlab watch), without loading
// it again.
ExperimentConfig experiment_config(ConfigFile file, Config config, std::vector<Point> plan);

// The file's YAML and declarations alone (derive: for show and export); throws as above.
ExperimentConfig declared_config(ConfigFile file);

// The config `requested` names for the experiment of `results` ("auto": config_to_read, in
// freshness.hpp), read once; null when there is none.
std::shared_ptr<const ExperimentConfig> notebook_config(const std::optional<std::string>& requested,
                                                        const ResultsDocument& results);

}  // namespace convlab
