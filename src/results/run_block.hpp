// One run of `convlab run` as results.json records it (docs/results-schema.md, runs[] and run),
// typed where convlab reads it. to_json and run_block_from_json in run_block.cpp are the only
// place its JSON names appear. Facts that are only written and shown (the command line, git,
// the conditions at the start, the measure block) are kept as recorded, and so is any field of
// another version.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace convlab {

struct RunBlock {
  std::string id;
  std::string started;
  std::optional<std::string> finished;     // null while running and after an interruption
  std::optional<std::string> interrupted;  // when SIGINT or SIGTERM ended the run
  std::string config_path, config_sha256;
  nlohmann::json resolved_config = nlohmann::json::object();
  nlohmann::json host = nlohmann::json::object();      // provenance.hpp host_facts
  nlohmann::json build = nlohmann::json::object();     // provenance.hpp build_facts
  nlohmann::json cuda;                                 // device_facts.hpp; null without CUDA points
  nlohmann::json recorded = nlohmann::json::object();  // argv, git, conditions, measure, ...

  std::string build_id() const;
  std::string host_cpu_model() const;
  // The device's measured copy bandwidth and multiply-add rates, when the run calibrated one.
  const nlohmann::json* calibration() const;
};

nlohmann::json to_json(const RunBlock& run);
RunBlock run_block_from_json(const nlohmann::json& run);

}  // namespace convlab
