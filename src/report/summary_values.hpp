// The report's summary (report/summary.tex) is LaTeX written by hand whose numbers come from the
// results: {{experiment: field[point filter]}} (notebook/value_references.hpp) stands for the one
// ok point the filter selects in that experiment. The export writes the summary with every
// reference replaced by its number.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "store/record.hpp"

namespace convlab {

// The ok points of an experiment, or nullptr when it has no results.
using ExperimentPoints = std::function<const std::vector<const Record*>*(const std::string&)>;

// `tex` with each reference replaced by its number in LaTeX. An experiment without results reads
// "no results" (flagged) and adds a line to `warnings`; a reference that names no experiment,
// matches no point or several throws ResultsError "file:line: {{query}}: why".
std::string resolve_summary(const std::string& tex, const std::string& file,
                            const ExperimentPoints& points, std::vector<std::string>& warnings);

}  // namespace convlab
