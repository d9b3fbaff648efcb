#include "run/measured_points.hpp"

#include <map>

#include "core/count_words.hpp"
#include "measure/provenance.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

// Runs of this executable on this host: their records are what a run now would keep.
bool measured_here(const RunBlock& run) {
  if (run.build_id() != build_id() || run.host_cpu_model() != cpu_model()) return false;
  // null where the machine has no machine id (the GPU machine): then any host of the model.
  const auto id = run.host.is_object() ? run.host.find("host_id") : run.host.end();
  const std::string recorded =
      id != run.host.end() && id->is_string() ? id->get<std::string>() : "";
  return recorded.empty() || recorded == host_id();
}

// The point, the version of a user's kernel and the measure settings.
std::string identity(const json& described, const std::string& source_version,
                     const json& measure) {
  return described.dump() + "\x1f" + measure.dump() + "\x1f" + source_version;
}

}  // namespace

json point_measure_json(const json& resolved_config, const std::string& implementation) {
  if (!resolved_config.is_object() || !resolved_config.contains("measure")) return json();
  json measure = resolved_config["measure"];
  const json overrides = measure.value("per_implementation", json::object());
  measure.erase("per_implementation");
  json chosen = overrides.is_object() && overrides.contains(implementation)
                    ? overrides[implementation]
                    : measure;
  // How a user's kernel may be compiled does not change what is measured.
  if (chosen.is_object()) {
    chosen.erase("compile_timeout");
    chosen.erase("compile_memory_gib");
  }
  return chosen;
}

MeasuredPoints::MeasuredPoints(const ResultsFile& results) {
  std::map<std::string, const RunBlock*> runs_here;
  for (const auto& run : results.runs)
    if (measured_here(run)) runs_here[run.id] = &run;
  for (const auto& record : results.records) {
    const auto run = runs_here.find(record.run_id);
    if (record.status != Status::ok || run == runs_here.end()) continue;
    const PointDescription point = record.description();
    measured_.insert(
        identity(point.to_json(), point.source_version,
                 point_measure_json(run->second->resolved_config, point.implementation)));
  }
}

bool MeasuredPoints::has(const Config& config, const Point& point) const {
  if (measured_.empty()) return false;
  const std::string& name = point.implementation->name;
  return measured_.count(identity(point.described, point.description.source_version,
                                  point_measure_json(config.resolved, name))) > 0;
}

MeasuredPoints measured_points_at(const std::string& path) {
  return MeasuredPoints(read_results(path));
}

std::string new_points_text(std::size_t to_run, std::size_t measured) {
  return count_words(to_run - measured, "new point") + " (" + std::to_string(measured) +
         " measured)";
}

}  // namespace convlab
