// The kernel source cells of an experiment's notebook: one per source file of a user's own kernel
// that the latest run compiled, from the copy its run block keeps (run.config.sources), with the
// implementations of the config that name it.
#pragma once

#include <vector>

#include "notebook/notebook.hpp"
#include "query/results_document.hpp"

namespace convlab {

// In the order the run recorded them; none for a run of convlab's own implementations only.
std::vector<SourceCell> source_cells(const ResultsDocument& results);

}  // namespace convlab
