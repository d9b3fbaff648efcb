// What a report section says about a results file besides figures and tables: how verification
// went and where the numbers come from.
#pragma once

#include <string>
#include <vector>

#include "results/record.hpp"
#include "results/run_block.hpp"

namespace convlab {

struct VerificationSummary {
  size_t ok = 0;
  size_t skipped = 0;
  size_t failed = 0;
  bool has_worst = false;
  double worst_abs_error = 0.0;
  double worst_tolerance = 0.0;
  std::string worst_point;                // describe_point of the record with the largest error
  std::vector<std::string> failures;      // "point: reason", at most a few
  std::vector<std::string> skip_reasons;  // distinct reasons with counts
};

VerificationSummary summarize_verification(const std::vector<Record>& records);

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

}  // namespace convlab
