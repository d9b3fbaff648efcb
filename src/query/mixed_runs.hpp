// Whether a set of records comes from runs made under different conditions: a load average at
// the start that differs by more than one core, CPU calibrations apart beyond their limits
// (another machine, or this one in another state), another commit, another build. A table or figure
// that relates such records may show a difference of conditions, not of implementations (a
// ratio of a point measured under load against one measured idle), so it says so next to its
// numbers. The conditions are those the run blocks recorded (measure/run_conditions.hpp,
// measure/provenance.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "measure/cpu_calibration.hpp"
#include "store/record.hpp"
#include "store/run_block.hpp"

namespace convlab {

// One run the records come from, with the conditions tables compare.
struct RunConditionsSeen {
  std::string id;                             // the run block's id (records[].run_id)
  std::optional<double> load;                 // 1-minute load average when the run started
  std::optional<std::string> commit;          // git commit the build came from
  std::optional<bool> dirty;                  // with uncommitted changes
  std::string build_id;                       // sha256 of the executable; empty when not recorded
  std::optional<CpuCalibration> calibration;  // the CPU's when the run started
  std::size_t records = 0;                    // how many of the records it measured
};

// What differs is compared among runs of one host (its CPU model, hostname and host id): tables
// and figures keep machines apart, and two hosts' builds and loads differ by nature.
struct MixedRuns {
  std::vector<RunConditionsSeen> runs;  // in the order of the file's run blocks
  bool load_differs = false;    // a host's largest and smallest known load: more than one core
  bool commit_differs = false;  // two known commits of one host differ
  bool build_differs = false;   // two known build ids of one host differ
  // The largest difference of each figure between two known CPU calibrations of one host
  // (cpu_calibration.hpp); beyond a limit the runs are of another machine, or another state of it.
  std::optional<CalibrationGap> calibration_gap;
  bool calibration_differs() const { return calibration_gap && calibration_gap->apart(); }
  bool mixed() const {
    return load_differs || calibration_differs() || commit_differs || build_differs;
  }
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
// another machine (calibration 28 % apart: FMA rate 28 %, copy bandwidth 3 %); other builds):
// 2024-05-01T10:00:00Z-1a2b3c4d (load
// 1.92, copy 12.3 GB/s, 45.6 GFMA/s, commit d1f834d, build 3fa2c1d0, 12 records);
// 2024-05-01T10:10:00Z-5e6f7a8b (load 0.05, ...)."
std::string mixed_runs_note(const MixedRuns& mixed);

// "another machine (calibration 28 % apart: FMA rate 28 %, copy bandwidth 3 %)" beyond a limit,
// "the same machine (calibration 3 % apart: ...)" within them.
std::string calibration_finding(const CalibrationGap& gap);

// How the runs of two sets of records differ, each side's runs as mixed_runs gives them (compare's
// A and B): one finding a line, "another build (A: 1a2b3c4d; B: 5e6f7a8b)", "another machine
// (calibration 28 % apart: FMA rate 28 %, copy bandwidth 3 %; A copy 12.3 GB/s, 45.6 GFMA/s on 2
// threads; B ...)", "the CPU
// calibration is not recorded by A's runs (convlab before it was measured)", "another commit",
// "load at the start differs by more than one core". A side's calibration is the median of its
// runs' figures.
std::vector<std::string> differences_between(const MixedRuns& a, const MixedRuns& b);

}  // namespace convlab
