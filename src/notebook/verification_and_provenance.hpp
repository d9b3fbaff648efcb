// What a notebook says about a results file besides figures and tables: how verification went,
// per experiment and per implementation, where the numbers come from and how the runs went.
#pragma once

#include <string>
#include <vector>

#include "store/record.hpp"
#include "query/results_document.hpp"
#include "store/run_block.hpp"
#include "tables/summary_table.hpp"

namespace convlab {

struct VerificationSummary {
  size_t ok = 0;
  size_t skipped = 0;
  size_t failed = 0;
  bool has_worst = false;
  double worst_abs_error = 0.0;
  double worst_tolerance = 0.0;
  std::string worst_point;                // point_in_words of the record with the largest error
  std::vector<std::string> failures;      // "point: reason", at most a few
  std::vector<std::string> skip_reasons;  // distinct reasons with counts
};

// The latest record of each point (and machine) of `results`, the current version of each user's
// kernel: a point measured again, or by an edited then restored kernel, counts once.
VerificationSummary summarize_verification(const ResultsDocument& results);

// One machine and build a run used; runs on the same machine and build share a row.
struct Provenance {
  std::string hostname;
  std::string cpu;
  std::string memory;
  std::string os;
  std::string gpu;          // "none" when the run had no CUDA point
  std::string gpu_details;  // compute capability, SMs, driver/runtime
  std::string compiler;     // compiler, version, build type
  std::string flags;
  std::string commit;  // short hash, "+dirty" when the tree had changes, "unknown" outside git
  std::string started;
  std::string finished;
  std::string config;  // path and sha256 prefix
  std::string config_path;
  std::string config_sha256;
  bool commit_known = false;
  std::string clocks;  // GPU SM and memory clocks as recorded, empty without a GPU
  std::string driver;  // CUDA driver and runtime
};

// One row per run, in the order given (oldest first).
std::vector<Provenance> run_provenance(const std::vector<RunBlock>& runs);

std::string format_bytes(double bytes);

// Verification of one implementation's records: counts, the largest error with its tolerance, and
// the u8 values not bit-identical to the correctly rounded reference.
struct ImplementationVerification {
  std::string implementation;
  size_t ok = 0, skipped = 0, failed = 0;
  bool has_error = false;
  double max_abs_error = 0.0;
  double tolerance = 0.0;          // of the point with the largest error
  double values_compared = 0.0;    // summed over its verified points
  double values_not_exact = 0.0;   // summed over its u8 points
  size_t points_not_exact = 0;     // u8 points with values not exact
  bool exactness_counted = false;  // some point had u8 output
};

// In order of first appearance.
std::vector<ImplementationVerification> verification_by_implementation(
    const std::vector<Record>& records);

// How the records of a results file ended: ok ones measured by the latest run (ran) or kept from
// earlier runs (kept), skipped and failed ones.
RunCounts latest_run_counts(const std::vector<Record>& records, const std::string& latest_run_id);

}  // namespace convlab
