#include "store/run_block.hpp"

#include <algorithm>

#include "config/config.hpp"
#include "store/results_schema.hpp"

namespace convlab {

nlohmann::json to_json(const CpuCalibration& calibration) {
  return {{"threads", calibration.threads},
          {"copy_bytes_per_s", calibration.copy_bytes_per_s},
          {"fma_per_s", calibration.fma_per_s},
          {"seconds", calibration.seconds}};
}

namespace {

using json = nlohmann::json;

template <typename T>
json optional_json(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

template <typename T>
std::optional<T> optional_of(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || object[key].is_null()) return std::nullopt;
  try {
    return object[key].get<T>();
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

json to_json(const GitFacts& git) {
  json j{{"commit", optional_json(git.commit)}, {"dirty", optional_json(git.dirty)}};
  if (git.source) j["source"] = *git.source;
  return j;
}

GitFacts git_from_json(const json& j) {
  return {optional_of<std::string>(j, "commit"), optional_of<bool>(j, "dirty"),
          optional_of<std::string>(j, "source")};
}

json to_json(const RunConditions& conditions) {
  json j{{"load_average", optional_json(conditions.load_average)},
         {"cpu_governor", optional_json(conditions.cpu_governor)}};
  if (conditions.cpu_governor_note) j["cpu_governor_note"] = *conditions.cpu_governor_note;
  return j;
}

RunConditions conditions_from_json(const json& j) {
  return {optional_of<std::vector<double>>(j, "load_average"),
          optional_of<std::string>(j, "cpu_governor"),
          optional_of<std::string>(j, "cpu_governor_note")};
}

CpuCalibration cpu_calibration_from_json(const json& j) {
  CpuCalibration calibration;
  calibration.threads = optional_of<int>(j, "threads").value_or(0);
  calibration.copy_bytes_per_s = optional_of<double>(j, "copy_bytes_per_s").value_or(0.0);
  calibration.fma_per_s = optional_of<double>(j, "fma_per_s").value_or(0.0);
  calibration.seconds = optional_of<double>(j, "seconds").value_or(0.0);
  return calibration;
}

json to_json(const RunMeasure& measure) {
  json j = measure_json(measure.defaults);
  for (const auto& [implementation, spec] : measure.per_implementation)
    j["per_implementation"][implementation] = measure_json(spec);
  return j;
}

MeasureSpec measure_spec_from_json(const json& j) {
  MeasureSpec spec;
  spec.warmup = optional_of<int>(j, "warmup").value_or(spec.warmup);
  spec.min_reps = optional_of<int>(j, "min_reps").value_or(spec.min_reps);
  spec.max_reps = optional_of<int>(j, "max_reps").value_or(spec.max_reps);
  spec.max_seconds = optional_of<double>(j, "max_seconds").value_or(spec.max_seconds);
  spec.l2_flush = optional_of<bool>(j, "l2_flush").value_or(spec.l2_flush);
  spec.interleave = optional_of<bool>(j, "interleave").value_or(spec.interleave);
  return spec;
}

RunMeasure measure_from_json(const json& j) {
  RunMeasure measure{measure_spec_from_json(j), {}};
  if (j.contains("per_implementation") && j["per_implementation"].is_object())
    for (const auto& [implementation, spec] : j["per_implementation"].items())
      measure.per_implementation[implementation] = measure_spec_from_json(spec);
  return measure;
}

json to_json(const PhaseSeconds& phases) {
  json j = json::object();
  for (std::size_t i = 0; i < kWorkPhaseCount; ++i)
    j[phase_name(static_cast<WorkPhase>(i))] = phases.seconds[i];
  return j;
}

PhaseSeconds phase_seconds_from_json(const json& j) {
  PhaseSeconds phases;
  if (!j.is_object()) return phases;
  for (const auto& [name, value] : j.items())
    if (const auto phase = phase_named(name); phase && value.is_number())
      phases[*phase] = value.get<double>();
  return phases;
}

json to_json(const ProblemPhases& problem) {
  return {{"image", problem.image},
          {"kernel", problem.kernel},
          {"border", problem.border},
          {"output", problem.output},
          {"points", problem.points},
          {"wall_s", problem.wall},
          {"seconds", to_json(problem.phases)},
          {"other_s", problem.other()},
          {"ahead_s", problem.ahead}};
}

ProblemPhases problem_phases_from_json(const json& j) {
  ProblemPhases problem;
  problem.image = j.value("image", "");
  problem.kernel = j.value("kernel", "");
  problem.border = j.value("border", "");
  problem.output = j.value("output", "");
  problem.points = optional_of<std::size_t>(j, "points").value_or(0);
  problem.wall = optional_of<double>(j, "wall_s").value_or(0.0);
  problem.phases = phase_seconds_from_json(j.value("seconds", json::object()));
  problem.ahead = optional_of<double>(j, "ahead_s").value_or(0.0);
  return problem;
}

json to_json(const RunPhases& phases) {
  json problems = json::array();
  for (const auto& problem : phases.problems) problems.push_back(to_json(problem));
  return {{"wall_s", phases.wall},
          {"seconds", to_json(phases.totals)},
          {"other_s", phases.other()},
          {"ahead_s", phases.ahead},
          {"prepare_ahead", phases.prepare_ahead},
          {"device", phases.device >= 0 ? json(phases.device) : json(nullptr)},
          {"cpus", phases.cpus},
          {"openmp_threads", phases.openmp_threads},
          {"problems", problems}};
}

RunPhases phases_from_json(const json& j) {
  RunPhases phases;
  phases.wall = optional_of<double>(j, "wall_s").value_or(0.0);
  phases.totals = phase_seconds_from_json(j.value("seconds", json::object()));
  phases.ahead = optional_of<double>(j, "ahead_s").value_or(0.0);
  phases.prepare_ahead = optional_of<bool>(j, "prepare_ahead").value_or(false);
  phases.device = optional_of<int>(j, "device").value_or(-1);
  phases.cpus = optional_of<std::string>(j, "cpus").value_or("");
  phases.openmp_threads = optional_of<int>(j, "openmp_threads").value_or(0);
  if (j.contains("problems") && j["problems"].is_array())
    for (const auto& problem : j["problems"])
      if (problem.is_object()) phases.problems.push_back(problem_phases_from_json(problem));
  return phases;
}

// What of `read` its typed form did not reproduce (a field of another version, or a value of an
// unexpected type), object by object, so that writing the block again keeps it.
json not_reproduced(const json& read, const json& typed) {
  json kept = json::object();
  for (const auto& [key, value] : read.items()) {
    if (typed.contains(key) && typed[key] == value) continue;
    if (value.is_object() && typed.contains(key) && typed[key].is_object()) {
      json inner = not_reproduced(value, typed[key]);
      if (!inner.empty()) kept[key] = std::move(inner);
    } else {
      kept[key] = value;
    }
  }
  return kept;
}

// The typed form with the kept fields put back where the typed form has nothing of its own.
json with_kept(json typed, const json& kept) {
  if (!kept.is_object()) return typed;
  for (const auto& [key, value] : kept.items()) {
    if (!typed.contains(key) || typed[key].is_null())
      typed[key] = value;
    else if (typed[key].is_object() && value.is_object())
      typed[key] = with_kept(typed[key], value);
  }
  return typed;
}

const char* const kRunFields[] = {
    "id",   "started", "finished", "interrupted", "config",          "host",    "build",
    "cuda", "argv",    "git",      "conditions",  "cpu_calibration", "measure", "phases"};

// The typed parts a run block of this version records (absent ones stay absent).
// What the typed form of a block cannot hold is kept in run.unknown under the block's name.
void read_recorded(const json& j, RunBlock& run) {
  if (j.contains("argv") && j["argv"].is_array())
    run.argv = optional_of<std::vector<std::string>>(j, "argv");
  // A block read where the file has it as an object; what its typed form does not reproduce is
  // kept under its name.
  const auto read = [&](const char* name, auto& block, auto parse) {
    if (!j.contains(name) || !j[name].is_object()) return;
    block = parse(j[name]);
    json kept = not_reproduced(j[name], to_json(*block));
    if (!kept.empty()) run.unknown[name] = std::move(kept);
  };
  read("git", run.git, git_from_json);
  read("conditions", run.conditions, conditions_from_json);
  read("cpu_calibration", run.cpu_calibration, cpu_calibration_from_json);
  read("measure", run.measure, measure_from_json);
  read("phases", run.phases, phases_from_json);
}

}  // namespace

std::string RunBlock::build_id() const {
  return build.is_object() ? build.value("id", "") : "";
}

std::string RunBlock::host_cpu_model() const {
  if (!host.is_object()) return "";
  const auto found = host.find("cpu_model");
  return found != host.end() && found->is_string() ? found->get<std::string>() : "";
}

const json* RunBlock::calibration() const {
  if (!cuda.is_object() || !cuda.contains("calibration")) return nullptr;
  return &cuda["calibration"];
}

json to_json(const RunBlock& run) {
  json j = run.unknown;
  j["id"] = run.id;
  j["started"] = run.started;
  j["finished"] = optional_json(run.finished);
  if (run.interrupted) j["interrupted"] = *run.interrupted;
  j["config"] = {
      {"path", run.config_path}, {"sha256", run.config_sha256}, {"resolved", run.resolved_config}};
  if (!run.sources.empty()) {
    json sources = json::array();
    for (const auto& source : run.sources) {
      json entry{{"path", source.path}, {"sha256", source.sha256}, {"text", source.text}};
      if (!source.includes.empty()) {
        entry["version"] = source.version;
        for (const IncludedText& included : source.includes)
          entry["includes"].push_back(
              {{"path", included.path}, {"sha256", included.sha256}, {"text", included.text}});
      }
      sources.push_back(entry);
    }
    j["config"]["sources"] = sources;
  }
  j["host"] = run.host;
  j["build"] = run.build;
  if (!run.cuda.is_null()) j["cuda"] = run.cuda;
  if (run.argv) {
    j["argv"] = json::array();
    for (const std::string& argument : *run.argv)
      j["argv"].push_back(within_results_limit(argument));
  }
  if (run.git) j["git"] = with_kept(to_json(*run.git), run.unknown.value("git", json()));
  if (run.conditions)
    j["conditions"] = with_kept(to_json(*run.conditions), run.unknown.value("conditions", json()));
  if (run.cpu_calibration)
    j["cpu_calibration"] =
        with_kept(to_json(*run.cpu_calibration), run.unknown.value("cpu_calibration", json()));
  if (run.measure)
    j["measure"] = with_kept(to_json(*run.measure), run.unknown.value("measure", json()));
  if (run.phases)
    j["phases"] = with_kept(to_json(*run.phases), run.unknown.value("phases", json()));
  return j;
}

KernelSourceText kernel_source_from_json(const json& source) {
  KernelSourceText text{source.value("path", ""),
                        source.value("sha256", ""),
                        source.value("text", ""),
                        {},
                        source.value("version", "")};
  if (source.contains("includes") && source["includes"].is_array())
    for (const auto& included : source["includes"])
      if (included.is_object())
        text.includes.push_back(
            {included.value("path", ""), included.value("sha256", ""), included.value("text", "")});
  return text;
}

RunBlock run_block_from_json(const json& j) {
  RunBlock run;
  run.id = j.value("id", "");
  run.started = j.value("started", "");
  run.finished = optional_of<std::string>(j, "finished");
  run.interrupted = optional_of<std::string>(j, "interrupted");
  const json config = j.value("config", json::object());
  run.config_path = config.value("path", "");
  run.config_sha256 = config.value("sha256", "");
  run.resolved_config = config.value("resolved", json::object());
  if (config.contains("sources") && config["sources"].is_array())
    for (const auto& source : config["sources"])
      if (source.is_object()) run.sources.push_back(kernel_source_from_json(source));
  run.host = j.value("host", json::object());
  run.build = j.value("build", json::object());
  run.cuda = j.value("cuda", json());
  read_recorded(j, run);
  for (const auto& [key, value] : j.items())
    if (std::find(std::begin(kRunFields), std::end(kRunFields), key) == std::end(kRunFields))
      run.unknown[key] = value;
  return run;
}

}  // namespace convlab
