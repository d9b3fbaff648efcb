#include "report/report_summary.hpp"

#include <map>

#include "report/figure_data.hpp"
#include "report/record_fields.hpp"

namespace convlab {
namespace {

using nlohmann::json;

std::string text_at(const json& object, const char* key, const std::string& fallback = "") {
  if (!object.is_object() || !object.contains(key) || object[key].is_null()) return fallback;
  const json& value = object[key];
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer()) return value.dump();
  if (value.is_number()) return format_number(value.get<double>(), 6);
  return value.dump();
}

const json& member(const json& object, const char* key) {
  static const json null_value;
  if (!object.is_object() || !object.contains(key)) return null_value;
  return object[key];
}

Provenance provenance_of(const json& run) {
  Provenance p;
  const json& host = member(run, "host");
  p.hostname = text_at(host, "hostname", "unknown host");
  p.cpu = text_at(host, "cpu_model", "unknown CPU");
  if (host.contains("logical_cpus"))
    p.cpu += ", " + text_at(host, "logical_cpus") + " logical CPUs";
  if (host.contains("memory_bytes") && host["memory_bytes"].is_number())
    p.memory = format_bytes(host["memory_bytes"].get<double>());
  p.os = text_at(host, "os");
  const json& cuda = member(run, "cuda");
  if (cuda.is_object() && cuda.value("available", false)) {
    p.gpu = text_at(cuda, "name", "CUDA device");
    std::string details;
    if (cuda.contains("compute_capability")) details += "cc " + text_at(cuda, "compute_capability");
    if (cuda.contains("sm_count")) details += ", " + text_at(cuda, "sm_count") + " SMs";
    if (cuda.contains("memory_bytes") && cuda["memory_bytes"].is_number())
      details += ", " + format_bytes(cuda["memory_bytes"].get<double>());
    if (cuda.contains("driver_version"))
      details += ", driver " + text_at(cuda, "driver_version") + ", runtime " +
                 text_at(cuda, "runtime_version");
    p.gpu_details = details;
    if (cuda.contains("sm_clock_mhz"))
      p.clocks = "SM " + text_at(cuda, "sm_clock_mhz") + " MHz, memory " +
                 text_at(cuda, "memory_clock_mhz") + " MHz";
    if (cuda.contains("driver_version"))
      p.driver = text_at(cuda, "driver_version") + " / " + text_at(cuda, "runtime_version");
  } else if (cuda.is_object()) {
    p.gpu = "no CUDA device";
  } else {
    p.gpu = "none used";
  }
  const json& build = member(run, "build");
  p.compiler = text_at(build, "compiler", "unknown compiler") + " " +
               text_at(build, "compiler_version") + ", " + text_at(build, "build_type", "?") +
               (build.value("cuda_built", false) ? ", CUDA built" : ", without CUDA");
  p.flags = text_at(build, "flags");
  const json& git = member(run, "git");
  const std::string commit = text_at(git, "commit");
  p.commit_known = !commit.empty();
  p.commit = commit.empty() ? "unknown (not a git checkout)" : commit.substr(0, 12);
  if (git.is_object() && git.contains("dirty") && git["dirty"].is_boolean() &&
      git["dirty"].get<bool>())
    p.commit += " (uncommitted changes)";
  p.started = text_at(run, "started");
  p.finished = text_at(run, "finished", "unfinished");
  const json& config = member(run, "config");
  p.config_path = text_at(config, "path");
  p.config_sha256 = text_at(config, "sha256");
  p.config = text_at(config, "path") + " (sha256 " + text_at(config, "sha256").substr(0, 12) + ")";
  return p;
}

}  // namespace

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  return format_number(bytes, 3) + " " + units[unit];
}

VerificationSummary summarize_verification(const json& results) {
  VerificationSummary summary;
  std::map<std::string, size_t> skip_counts;
  if (!results.contains("records")) return summary;
  for (const json& record : results["records"]) {
    const std::string status = record.value("status", std::string());
    if (status == "ok") ++summary.ok;
    if (status == "skipped") {
      ++summary.skipped;
      ++skip_counts[record.value("reason", std::string("no reason given"))];
    }
    if (status == "failed") {
      ++summary.failed;
      if (summary.failures.size() < 8)
        summary.failures.push_back(describe_point(record) + ": " +
                                   record.value("reason", std::string("no reason given")));
    }
    const json& verification = member(record, "verification");
    if (!verification.is_object() || !verification.contains("max_abs_error")) continue;
    const double error = verification["max_abs_error"].get<double>();
    if (!summary.has_worst || error > summary.worst_abs_error) {
      summary.has_worst = true;
      summary.worst_abs_error = error;
      summary.worst_tolerance = verification.value("tolerance", 0.0);
      summary.worst_point = describe_point(record);
    }
  }
  for (const auto& [reason, count] : skip_counts)
    summary.skip_reasons.push_back(std::to_string(count) + " x " + reason);
  return summary;
}

std::vector<Provenance> run_provenance(const json& results) {
  std::vector<Provenance> runs;
  if (results.contains("runs") && results["runs"].is_array() && !results["runs"].empty()) {
    for (const json& run : results["runs"]) runs.push_back(provenance_of(run));
  } else if (results.contains("run")) {
    runs.push_back(provenance_of(results["run"]));
  }
  return runs;
}

}  // namespace convlab
