// The one execution path of `convlab run`, whichever backend (run/backend.hpp) calls it: the
// job's work units (run/schedule.hpp) are walked in order; each point is identified by the point
// executor, kept when its file already has an ok record of it, otherwise measured (alone, or with
// the rest of its problem when interleaved) and handed to the recorder (run/recorder.hpp) and
// the observers (run/observers.hpp).
#pragma once

#include <string>
#include <vector>

#include "run/backend.hpp"
#include "store/record.hpp"
#include "store/run_block.hpp"
#include "store/run_counts.hpp"

namespace convlab {

struct LocalOutcome {
  std::vector<std::string> keys;  // record keys of the points reached, in schedule order
  std::vector<Record> rows;       // their records, for the summary
  RunCounts counts;
  RunBlock run;
};

// Throws ConfigError when an image cannot be made (what was measured is kept) and
// ResultsFileError when the results file cannot be read or written.
LocalOutcome run_locally(const RunJob& job);

}  // namespace convlab
