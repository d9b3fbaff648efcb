// Loading a config for a command: config/ checks everything it owns, and the report's figures:
// and tables: are checked by the report at the same place in the file (config.hpp,
// ConfigSectionCheck), so `convlab run` and `convlab validate` refuse a bad figure before anything
// runs.
#pragma once

#include <string>

#include "config/config.hpp"

namespace convlab {

Config load_config_for_command(const std::string& path);

}  // namespace convlab
