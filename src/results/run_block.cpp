#include "results/run_block.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

std::optional<std::string> text_or_null(const json& object, const char* key) {
  if (!object.contains(key) || !object[key].is_string()) return std::nullopt;
  return object[key].get<std::string>();
}

}  // namespace

std::string RunBlock::build_id() const {
  return build.is_object() ? build.value("id", "") : "";
}

std::string RunBlock::host_cpu_model() const {
  return host.is_object() ? host.value("cpu_model", "") : "";
}

const json* RunBlock::calibration() const {
  if (!cuda.is_object() || !cuda.contains("calibration")) return nullptr;
  return &cuda["calibration"];
}

json to_json(const RunBlock& run) {
  json j = run.recorded;
  j["id"] = run.id;
  j["started"] = run.started;
  j["finished"] = run.finished ? json(*run.finished) : json(nullptr);
  if (run.interrupted) j["interrupted"] = *run.interrupted;
  j["config"] = {
      {"path", run.config_path}, {"sha256", run.config_sha256}, {"resolved", run.resolved_config}};
  j["host"] = run.host;
  j["build"] = run.build;
  if (!run.cuda.is_null()) j["cuda"] = run.cuda;
  return j;
}

RunBlock run_block_from_json(const json& j) {
  RunBlock run;
  run.id = j.value("id", "");
  run.started = j.value("started", "");
  run.finished = text_or_null(j, "finished");
  run.interrupted = text_or_null(j, "interrupted");
  const json config = j.value("config", json::object());
  run.config_path = config.value("path", "");
  run.config_sha256 = config.value("sha256", "");
  run.resolved_config = config.value("resolved", json::object());
  run.host = j.value("host", json::object());
  run.build = j.value("build", json::object());
  run.cuda = j.value("cuda", json());
  for (const auto& [key, value] : j.items())
    if (key != "id" && key != "started" && key != "finished" && key != "interrupted" &&
        key != "config" && key != "host" && key != "build" && key != "cuda")
      run.recorded[key] = value;
  return run;
}

}  // namespace convlab
