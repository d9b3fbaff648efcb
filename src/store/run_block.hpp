// One run of `convlab run` as results.json records it (docs/results-schema.md, runs[] and run),
// typed. to_json and run_block_from_json in run_block.cpp are the only place its JSON names
// appear. The host, build and CUDA device facts stay the documents their writers produce
// (measure/provenance.hpp, device_facts.hpp); fields of another version are kept as read.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "measure/cpu_calibration.hpp"
#include "measure/measure_spec.hpp"
#include "measure/provenance.hpp"
#include "measure/run_conditions.hpp"
#include "measure/work_phases.hpp"

namespace convlab {

// The measure settings the run used: the config's defaults and its per-implementation overrides.
struct RunMeasure {
  MeasureSpec defaults;
  std::map<std::string, MeasureSpec> per_implementation;
};

// The text of a user's kernel source the run compiled, kept with the config so that the results
// file alone reproduces the experiment (run.config.sources[]).
// A file a user's kernel includes, relative to the source's folder.
struct IncludedText {
  std::string path;
  std::string sha256;
  std::string text;
};

struct KernelSourceText {
  std::string path;  // as the config names it
  std::string sha256;
  std::string text;
  std::vector<IncludedText> includes;  // the user's files it includes, each with its text
  std::string version;                 // with includes, the snapshot's sha256 (source_snapshot.hpp)
};

// A source entry of run.config.sources as read back.
KernelSourceText kernel_source_from_json(const nlohmann::json& source);

// The version of the kernel the run compiled, as source_version (impl/implementation.hpp) names
// it in the records: the snapshot's hash when the source includes files of its own, else the
// source's.
inline const std::string& source_version(const KernelSourceText& source) {
  return source.version.empty() ? source.sha256 : source.version;
}

struct RunBlock {
  std::string id;
  std::string started;
  std::optional<std::string> finished;     // null while running and after an interruption
  std::optional<std::string> interrupted;  // when SIGINT or SIGTERM ended the run
  std::string config_path, config_sha256;
  nlohmann::json resolved_config = nlohmann::json::object();
  std::vector<KernelSourceText> sources;            // users' kernels, each once
  nlohmann::json host = nlohmann::json::object();   // provenance.hpp host_facts
  nlohmann::json build = nlohmann::json::object();  // provenance.hpp build_facts
  nlohmann::json cuda;                              // device_facts.hpp; null without CUDA points
  // Absent only in files of versions that did not record them.
  std::optional<std::vector<std::string>> argv;
  std::optional<GitFacts> git;
  std::optional<RunConditions> conditions;        // of the machine when the run started
  std::optional<CpuCalibration> cpu_calibration;  // measured when the run started
  std::optional<RunMeasure> measure;
  std::optional<RunPhases> phases;  // where the run's time went, written when it ends
  // Fields of other versions, kept as read: top-level ones, and under "git", "conditions" and
  // "measure" what those blocks held that their typed form cannot.
  nlohmann::json unknown = nlohmann::json::object();

  std::string build_id() const;
  std::string host_cpu_model() const;
  // The device's measured copy bandwidth and multiply-add rates, when the run calibrated one.
  const nlohmann::json* calibration() const;
};

nlohmann::json to_json(const RunBlock& run);
// The CPU calibration as a run block records it (run.cpu_calibration); a history's index records
// it the same way.
nlohmann::json to_json(const CpuCalibration& calibration);
RunBlock run_block_from_json(const nlohmann::json& run);

}  // namespace convlab
