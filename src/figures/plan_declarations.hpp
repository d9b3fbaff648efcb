// The config's figures and tables tried on its own plan before anything runs: a declaration
// whose cells would each hold several points (two image sizes on one line at one K, with reduce:
// single) fails at export, after the whole run; `validate` and `run` refuse it at once, with the
// same message. Points the config alone rules out (plan/skips.hpp) are left out, since they are
// never measured; points only this machine skips stay in, since another machine measures them.
#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/config_error.hpp"
#include "plan/plan.hpp"

namespace YAML {
class Node;
}

namespace convlab {

// Throws ConfigError at figures[i] or tables[i] when extracting the declaration from the plan's
// points, each standing in for the record the run would write, fails for another reason than
// having no data (a where: that selects no point, a y the points lack: those depend on results).
// `plan` is the config's plan as expand_plan gives it. Returns warnings, "file:line: key: ...":
// a figure or table whose cells reduce the points of several images into one (reduce: min over
// photographs it does not tell apart).
std::vector<std::string> check_declarations_on_plan(const YAML::Node& config_root,
                                                    const YamlLocation& top, const Config& config,
                                                    const std::vector<Point>& plan);

}  // namespace convlab
