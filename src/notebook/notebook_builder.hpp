// Builds an experiment's notebook (notebook.hpp) from its results, the config as it is on disk and
// the discussion written about it, once, for every renderer.
#pragma once

#include <optional>
#include <string>

#include "notebook/notebook.hpp"
#include "results/results_document.hpp"

namespace convlab {

struct NotebookSources {
  // The config to read figures:, tables:, the title and the description from: a file, "auto" (the
  // path the run recorded when it still exists, else configs/<name>.yaml), or none: the copy in
  // results.json. Edited declarations apply without re-running.
  std::optional<std::string> config;
  // The discussion (experiments/<name>.md); a file that does not exist means none.
  std::optional<std::string> discussion;
};

// Throws ConfigError for bad declarations and ExportError for a value reference that matches no
// point or several (file:line: {{query}}: why). Figures and tables that select no data are left
// out, each with a note.
ExperimentNotebook build_notebook(const ResultsDocument& results, const NotebookSources& sources);

// The experiment's name: experiment.name, else the results folder's name.
std::string experiment_name(const ResultsDocument& results);

}  // namespace convlab
