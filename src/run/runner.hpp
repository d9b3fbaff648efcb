// `convlab run`: expands a config into its plan, turns it into work units (run/schedule.hpp) and
// hands them to a backend (run/backend.hpp): measured here, by one worker per CUDA device, or by
// SLURM array tasks. Every point is verified against the reference, appended to its results
// file's journal as it finishes and folded into the file when the run ends or is stopped.
#pragma once

#include <vector>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "run/run_options.hpp"

namespace convlab {

// Exit codes: 0 all points ok or skipped, 1 a verification or runtime failure, 2 bad input.
// `config` is the one options.config_path names, loaded and checked; `plan` its plan as
// expand_plan gives it (app/config_loading.hpp expands it once per command).
int run_experiment(const RunOptions& options, Config config, std::vector<Point> plan);

}  // namespace convlab
