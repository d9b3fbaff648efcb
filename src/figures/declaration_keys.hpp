// The keys of figure, overlay, best and table declarations (docs/report.md), one table each: the
// reader (figures/declarations.cpp) accepts exactly these keys and the config schema describes them
// from the same rows (declarations_schema).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config_keys.hpp"

namespace convlab {

const ConfigKeys& figure_keys();
const ConfigKeys& overlay_keys();
// The keys of a figure's best: map.
const ConfigKeys& best_keys();
const ConfigKeys& table_keys();
// How the points of one cell are reduced, in the order of CellReduce: single, min, max, mean.
const std::vector<std::string>& cell_reduce_names();

// The schemas of the config's `figures:` and `tables:` keys, for config_schema().
std::map<std::string, nlohmann::json> declarations_schema();

}  // namespace convlab
