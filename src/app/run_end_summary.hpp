// The summary `convlab run` and `convlab watch` print at the end of a run (run/run_end.hpp hands
// them its end): the fastest point of every problem or every point, the failed and skipped points,
// a note when they come from runs under different conditions, the noisy and the flagged points,
// the counts line and where the results are.
#pragma once

#include <ostream>

#include "run/run_end.hpp"

namespace convlab {

// What the summary shows of the run's points: the fastest of every problem, as
// `convlab show --best` (best), or every point (all, `convlab run --table`).
enum class SummaryRows { best, all };

// The summary of `end` on `out`, "results in" on stderr, then the GPU of each device worker's run.
// The winners and the note read the results file (its baseline and run blocks).
void print_run_summary(const RunEnd& end, std::ostream& out, SummaryRows shown = SummaryRows::best);

// What a command hands a run to print its summary on stdout (RunOptions::summary).
RunEndReport run_summary_on_stdout(SummaryRows shown);

}  // namespace convlab
