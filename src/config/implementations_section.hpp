// The implementations: section (docs/config.md, "Implementations"): convlab's own implementations
// by name with the axes they sweep, and users' own kernels (config/user_kernel_entry.hpp); an
// implementation's own search: block is read here and applied with the config's
// (config/search_section.hpp).
#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/yaml_read.hpp"

namespace convlab {

// `config_folder`: where a user's kernel source named relative to the config is looked for.
std::vector<ImplementationSweep> parse_implementations(const YAML::Node& node,
                                                       const YamlLocation& where,
                                                       const std::string& config_folder);

// " (openmp, cpu_fused)": the implementations a config names, for messages about another one.
std::string implementations_words(const std::vector<ImplementationSweep>& sweeps);

}  // namespace convlab
