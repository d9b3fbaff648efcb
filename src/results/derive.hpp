// Metrics computed from records: throughput per record, and relations between records
// (speedup against the baseline, parallel efficiency, roofline fraction). Recomputed over the
// whole file before every write, so they appear as soon as both sides of a relation exist.
#pragma once

#include "results/results_file.hpp"

namespace convlab {

void derive_metrics(ResultsFile& results);

}  // namespace convlab
