// The border: and output: sections (docs/config.md): one name or a list of names swept, each
// known (a misspelt one gets the closest name), the default replicate and u8.
#pragma once

#include <vector>

#include "config/yaml_read.hpp"
#include "core/types.hpp"

namespace convlab {

// The borders `root` sweeps (its key border), replicate when it names none.
std::vector<Border> parse_borders(const YAML::Node& root, const YamlLocation& top);
// The output types `root` sweeps (its key output), u8 when it names none.
std::vector<OutputType> parse_outputs(const YAML::Node& root, const YamlLocation& top);

}  // namespace convlab
