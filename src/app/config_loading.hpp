// Loading a config for a command: config/ checks everything it owns, and the report's figures:
// and tables: are checked by the report at the same place in the file (config.hpp,
// ConfigSectionCheck), so `convlab run` and `convlab validate` refuse a bad figure before anything
// runs; once the plan is known, a figure's or table's where: that asks for a value no point has
// is refused too (report/where_values.hpp), and so is a declaration whose cells would hold
// several of the plan's points (report/plan_declarations.hpp).
#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "plan/plan.hpp"

namespace convlab {

// A config as a command takes it: checked, with its plan expanded once for the checks and for
// the command (run, validate, watch), which takes both from here.
struct LoadedConfig {
  Config config;
  std::vector<Point> plan;
  // What the checks found worth saying without refusing the config, "file:line: key: ..." (a
  // figure whose points of several images fall into one cell); `validate` prints them.
  std::vector<std::string> warnings;
};

// Reads the file once (read_config) and loads it.
LoadedConfig load_config_for_command(const std::string& path);
// A config file the command read already (convlab watch reads it once per save).
LoadedConfig load_config_for_command(const ConfigFile& file);

}  // namespace convlab
