// The search: section (docs/search.md) and each implementation's own search: block: which
// combinations of its axes an implementation measures, listed for a sweep, walked for a search
// that chooses its variants.
#pragma once

#include "config/config.hpp"
#include "config/yaml_read.hpp"

namespace convlab {

// Lists or walks the combinations of every implementation of `config`, read already.
void apply_searches(Config& config, const YAML::Node& root, const YamlLocation& top);

}  // namespace convlab
