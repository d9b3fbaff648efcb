// The resolved config (Config::resolved): the whole config with every default filled in, as the
// results file records it and `convlab export` reads it back.
#pragma once

#include <nlohmann/json.hpp>

#include "config/config.hpp"

namespace convlab {

nlohmann::json resolved_config(const Config& config);

}  // namespace convlab
