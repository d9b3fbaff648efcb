// Whether an experiment's results still describe its config on disk: the config's hash against
// the one the run recorded, which settings changed, and how many points of the config as it is
// now have no record at all. A notebook that hides stale state misleads; every renderer shows it.
#pragma once

#include <optional>
#include <string>

#include "notebook/experiment_config.hpp"
#include "notebook/notebook.hpp"
#include "query/results_document.hpp"

namespace convlab {

// The config to read for an experiment: `requested` as given, or for "auto" the path the latest
// run recorded when it exists and names a .yaml or .yml file, else configs/<name>.yaml when that
// exists; nullopt: none.
std::optional<std::string> config_to_read(const std::optional<std::string>& requested,
                                          const ResultsDocument& results, const std::string& name);

// `config`: the config as it is now, read by the command (null when it is gone).
Freshness assess_freshness(const ResultsDocument& results, const ExperimentConfig* config);

}  // namespace convlab
