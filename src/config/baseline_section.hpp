// The baseline: section (docs/config.md, "Baseline"): the implementation speedups are measured
// against, by name or with params that pick among its combinations; sequential when the config
// names it and has no baseline, else the first implementation.
#pragma once

#include <vector>

#include "config/config.hpp"
#include "config/yaml_read.hpp"

namespace convlab {

// `sweeps`: the config's implementations, their combinations listed or their search domain made.
BaselineSpec parse_baseline(const YAML::Node& root, const std::vector<ImplementationSweep>& sweeps,
                            const YamlLocation& where);

}  // namespace convlab
