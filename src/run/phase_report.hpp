// `convlab run --phases` (and --verbose): where a run's time went, as tables on stderr. A run
// prints its own (each device worker its own, tagged with its device); the process that started
// device workers then prints one line per worker from their run blocks, so that the workers'
// totals stand side by side.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "measure/work_phases.hpp"
#include "store/run_block.hpp"

namespace convlab {

// A row per problem (points, wall time, its phases, other, and the seconds spent ahead on the
// next problem in the background) and a row for the run (setup, start and device are its own).
// Each row's phases and other add up to its wall time.
void print_phases(const RunPhases& phases, const std::string& who, std::ostream& out);

// One row per worker run that recorded phases: its device, points, wall time and phase totals.
void print_worker_phases(const std::vector<RunBlock>& runs, std::ostream& out);

}  // namespace convlab
