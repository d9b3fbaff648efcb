// Builds an experiment's notebook (notebook.hpp) from its results, the config as it is on disk and
// the discussion written about it, once, for every renderer.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "notebook/experiment_config.hpp"
#include "notebook/notebook.hpp"
#include "query/results_document.hpp"

namespace convlab {

struct NotebookSources {
  // The config figures:, tables:, the title and the description come from, as the command read
  // it (notebook_config: a file, or "auto"), or null: the copy in results.json. Edited
  // declarations apply without re-running.
  std::shared_ptr<const ExperimentConfig> config;
  // The discussion (experiments/<name>.md); a file that does not exist means none.
  std::optional<std::string> discussion;
  // A config that is on disk but does not load (convlab watch after a bad save), as read: the
  // page shows it as written, and draws figures and tables as the copy in results.json declares
  // them.
  std::optional<ConfigFile> invalid_config;
};

// Throws ConfigError for bad declarations and ResultsError for a value reference that matches no
// point or several (file:line: {{query}}: why), and for a placed cell the notebook does not have
// (file:line: {{figure: nme}}: no figure 'nme' (did you mean 'name'?)). Figures and tables that
// select no data are left out, each with a note and an omitted cell where it would have been.
ExperimentNotebook build_notebook(const ResultsDocument& results, const NotebookSources& sources);

// The derived columns (derive:) of an experiment's config: the config `config` names ("auto": the
// path the run recorded, else configs/<name>.yaml), else the copy in results.json. Throws
// ConfigError for a config that does not load or a column that is not an expression.
std::vector<DerivedColumn> derived_columns_of(const ResultsDocument& results,
                                              const std::optional<std::string>& config);

// The notebook of a config that has no results yet: its name as title and the config as written
// (convlab watch shows it under the error of a config that never loaded).
ExperimentNotebook config_notebook(const std::string& name, const ConfigFile& file);

// The experiment's name: experiment.name, else the results folder's name.
std::string experiment_name(const ResultsDocument& results);

}  // namespace convlab
