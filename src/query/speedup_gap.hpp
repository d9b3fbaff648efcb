// Why a measured point has no speedup: speedups divide the baseline's median by the point's, for
// the same problem on the same machine (derive.hpp), so an empty speedup means that baseline point
// is not there to divide by. Tables say which of the reasons holds instead of leaving a blank.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/record.hpp"

namespace convlab {

// The baseline in words, from results.json's experiment.baseline ({implementation, params}):
// "sequential", "openmp threads=1"; empty when the file names none.
std::string baseline_words(const nlohmann::json& baseline);

// For a usable record without a speedup, among `records` (the file's, or those a table shows):
// "baseline skipped" or "baseline failed" (its point of this problem and machine ended so),
// "baseline on another machine" (measured only there), "baseline filtered out" (no record of it,
// and `filtered`: the run or view chose points with --filter) or "baseline not run". Empty when
// the record has a speedup, is not usable, or the file names no baseline.
std::string missing_speedup_reason(const Record& record, const std::vector<Record>& records,
                                   const nlohmann::json& baseline, bool filtered);

}  // namespace convlab
