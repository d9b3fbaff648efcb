// The measure: section (docs/config.md, "Measure"): warmup, repetitions, time limits, L2 flush and
// interleaving for the whole config, and measure.per_implementation on top of them for one
// implementation (interleaving excepted, which concerns every point of a problem together).
#pragma once

#include "config/config.hpp"
#include "config/yaml_read.hpp"

namespace convlab {

// Sets config.measure and config.measure_overrides; `config`: its implementations and their
// searches read already.
void parse_measure_section(const YAML::Node& root, const YamlLocation& top, Config& config);

}  // namespace convlab
