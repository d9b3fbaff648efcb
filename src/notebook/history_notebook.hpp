// The notebook of a history folder (`convlab history run`): a page of the notebook next to its
// experiment's, and a section of the experiment's own report. Its cells, in reading order: what
// the history is and how steps are found, the steps found (regressions first), the commits with
// how each ran, a figure per problem (history_figure.hpp) and a table of every point's median
// across the commits with its spread. Rendered by html/ and report/ as any notebook.
#pragma once

#include <string>

#include "history/history_steps.hpp"
#include "notebook/notebook.hpp"

namespace convlab {

// The page's name: "history_<experiment>"; its title: "<experiment> across commits". The cells'
// records point into `history`, which must outlive the notebook.
ExperimentNotebook build_history_notebook(const History& history, const StepSettings& settings);

}  // namespace convlab
