// Whether a set of records comes from runs made under different conditions: a load average at
// the start that differs by more than one core, another commit, another build. A table or figure
// that relates such records may show a difference of conditions, not of implementations (a
// ratio of a point measured under load against one measured idle), so it says so next to its
// numbers. The conditions are those the run blocks recorded (measure/run_conditions.hpp,
// measure/provenance.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "store/record.hpp"
#include "store/run_block.hpp"

namespace convlab {

// One run the records come from, with the conditions tables compare.
struct RunConditionsSeen {
  std::string id;                     // the run block's id (records[].run_id)
  std::optional<double> load;         // 1-minute load average when the run started
  std::optional<std::string> commit;  // git commit the build came from
  std::optional<bool> dirty;          // with uncommitted changes
  std::string build_id;               // sha256 of the executable; empty when not recorded
  std::size_t records = 0;            // how many of the records it measured
};

// What differs is compared among runs of one host (its CPU model, hostname and host id): tables
// and figures keep machines apart, and two hosts' builds and loads differ by nature.
struct MixedRuns {
  std::vector<RunConditionsSeen> runs;  // in the order of the file's run blocks
  bool load_differs = false;    // a host's largest and smallest known load: more than one core
  bool commit_differs = false;  // two known commits of one host differ
  bool build_differs = false;   // two known build ids of one host differ
  bool mixed() const { return load_differs || commit_differs || build_differs; }
};

// The load difference beyond which two runs are under different conditions: one core busy.
inline constexpr double kLoadDifferenceLimit = 1.0;

// The runs `records` come from, looked up by run id in `runs` (ResultsFile::runs), and how their
// conditions differ. Records of a run block that is not there count for no run; a condition a
// run did not record (files of older versions) differs from nothing.
MixedRuns mixed_runs(const std::vector<const Record*>& records, const std::vector<RunBlock>& runs);

// The note for a table or figure, one line without a trailing newline, naming at most six runs;
// empty when not mixed:
// "Runs under different conditions (load average at the start differs by more than one core;
// other builds): 2024-05-01T10:00:00Z-1a2b3c4d (load 1.92, commit d1f834d, build 3fa2c1d0, 12
// records); 2024-05-01T10:10:00Z-5e6f7a8b (load 0.05, ...)."
std::string mixed_runs_note(const MixedRuns& mixed);

}  // namespace convlab
