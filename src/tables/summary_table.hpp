// What `convlab run` and `convlab show` print at the end: a markdown table of the measured points
// (ok and failed), skipped points folded into one line per reason, and the counts of the run.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "store/record.hpp"
#include "store/run_block.hpp"
#include "store/run_counts.hpp"

namespace convlab {

// One row per ok or failed record; skipped records as "45 points skipped: no CUDA device" lines,
// most frequent reason first; then the GPU of the run block, when it had one. An ok row without a
// speedup says why (speedup_gap.hpp), looking for its baseline among `context` (the whole file's
// records, when the table shows a part of them) or else among `records`.
void print_summary_table(const std::vector<Record>& records, const RunBlock& run, std::ostream& out,
                         const std::vector<Record>* context = nullptr);

// What a winners summary of a run (app/run_end_summary.hpp) leaves out of its table: failed points
// one line each with the reason ("failed: openmp threads=2 | ... : outside tolerance ..."), skipped
// points one line per reason, then the GPU of the run block, as print_summary_table ends.
void print_unranked_points(const std::vector<Record>& records, const RunBlock& run,
                           std::ostream& out);

// Points with a parallel efficiency above 1 (point_flags.hpp): a count line with the flag's mark
// and one line per point, at most `shown`; nothing when none is.
void print_efficiency_flags(const std::vector<Record>& records, std::ostream& out,
                            size_t shown = 5);

// Points whose timing's coefficient of variation exceeds `cv_limit`: a count line and the
// `shown` worst, or nothing when none is. Those above 50 % (point_flags.hpp) carry the flag's
// mark, and a line says how many there are and what the mark means.
void print_noisy_points(const std::vector<Record>& records, std::ostream& out,
                        double cv_limit = 0.10, size_t shown = 5);

// "kept 3 · ran 12 · skipped 45 · failed 0" (and "· not run N" when --max-points stopped early).
std::string run_counts_line(const RunCounts& counts);
// "ok 12 · skipped 45 · failed 0" over records of any runs (convlab show).
std::string status_counts_line(const std::vector<Record>& records);

}  // namespace convlab
