// What a run ends with, handed to the summary the command prints (app/run_end_summary.hpp): run/
// measures and records; how the end of a run looks on the terminal is the command's.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "store/record.hpp"
#include "store/run_block.hpp"
#include "store/run_counts.hpp"

namespace convlab {

struct RunEnd {
  std::vector<Record> rows;  // the records of the job's points, in schedule order
  RunBlock run;              // this process's run block
  RunCounts counts;
  std::string results_path;
  std::vector<RunBlock> worker_runs;  // of the device workers (--devices)
};

// Told how a run that is not quiet ended; the run's exit status does not depend on it.
using RunEndReport = std::function<void(const RunEnd&)>;

// The status a run's records give it: 1 when one failed, 0 otherwise.
inline int records_status(const std::vector<Record>& rows) {
  const bool failed = std::any_of(rows.begin(), rows.end(), [](const Record& record) {
    return record.status == Status::failed;
  });
  return failed ? 1 : 0;
}

}  // namespace convlab
