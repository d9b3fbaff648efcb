// Metrics computed from records: throughput per record, and relations between records
// (speedup against the baseline, parallel efficiency, roofline fraction). Computed over the
// whole file when a run folds its journal into results.json (results_journal.hpp).
#pragma once

#include "store/results_file.hpp"

namespace convlab {

void derive_metrics(ResultsFile& results);

}  // namespace convlab
