#include "notebook/verification_and_provenance.hpp"

#include <algorithm>
#include <map>

#include "figures/figure_data.hpp"
#include "query/record_fields.hpp"
#include "query/record_queries.hpp"

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

// The source revision: a short hash, marked when the tree had changes.
void describe_commit(const std::optional<GitFacts>& git, Provenance& p) {
  const std::string commit = git && git->commit ? *git->commit : "";
  p.commit_known = !commit.empty();
  p.commit = commit.empty() ? "unknown (not a git checkout)" : commit.substr(0, 12);
  if (git && git->dirty.value_or(false)) p.commit += " (uncommitted changes)";
}

Provenance provenance_of(const RunBlock& run) {
  Provenance p;
  const json& host = run.host;
  p.hostname = text_at(host, "hostname", "unknown host");
  p.cpu = text_at(host, "cpu_model", "unknown CPU");
  if (host.contains("logical_cpus"))
    p.cpu += ", " + text_at(host, "logical_cpus") + " logical CPUs";
  if (host.contains("memory_bytes") && host["memory_bytes"].is_number())
    p.memory = format_bytes(host["memory_bytes"].get<double>());
  p.os = text_at(host, "os");
  const json& cuda = run.cuda;
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
  const json& build = run.build;
  p.compiler = text_at(build, "compiler", "unknown compiler") + " " +
               text_at(build, "compiler_version") + ", " + text_at(build, "build_type", "?") +
               (build.value("cuda_built", false) ? ", CUDA built" : ", without CUDA");
  p.flags = text_at(build, "flags");
  describe_commit(run.git, p);
  p.started = run.started;
  p.finished = run.finished.value_or("unfinished");
  p.config_path = run.config_path;
  p.config_sha256 = run.config_sha256;
  p.config = run.config_path + " (sha256 " + run.config_sha256.substr(0, 12) + ")";
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

VerificationSummary summarize_verification(const ResultsDocument& results) {
  VerificationSummary summary;
  std::map<std::string, size_t> skip_counts;
  for (const Record* latest : latest_points(results)) {
    const Record& record = *latest;
    const std::string reason = record.reason.empty() ? "no reason given" : record.reason;
    if (record.status == Status::ok) ++summary.ok;
    if (record.status == Status::skipped) {
      ++summary.skipped;
      ++skip_counts[reason];
    }
    if (record.status == Status::failed) {
      ++summary.failed;
      if (summary.failures.size() < 8)
        summary.failures.push_back(point_in_words(record) + ": " + reason);
    }
    if (!record.verification) continue;
    const double error = record.verification->max_abs_error;
    if (!summary.has_worst || error > summary.worst_abs_error) {
      summary.has_worst = true;
      summary.worst_abs_error = error;
      summary.worst_tolerance = record.verification->tolerance;
      summary.worst_point = point_in_words(record);
    }
  }
  for (const auto& [reason, count] : skip_counts)
    summary.skip_reasons.push_back(std::to_string(count) + " x " + reason);
  return summary;
}

std::vector<Provenance> run_provenance(const std::vector<RunBlock>& runs) {
  std::vector<Provenance> rows;
  for (const RunBlock& run : runs) rows.push_back(provenance_of(run));
  return rows;
}

}  // namespace convlab

namespace convlab {

std::vector<ImplementationVerification> verification_by_implementation(
    const std::vector<Record>& records) {
  std::vector<ImplementationVerification> rows;
  for (const Record& record : records) {
    auto row = std::find_if(rows.begin(), rows.end(), [&](const ImplementationVerification& r) {
      return r.implementation == record.implementation;
    });
    if (row == rows.end()) {
      rows.push_back({});
      row = rows.end() - 1;
      row->implementation = record.implementation;
    }
    if (record.status == Status::ok) ++row->ok;
    if (record.status == Status::skipped) ++row->skipped;
    if (record.status == Status::failed) ++row->failed;
    if (!record.verification) continue;
    const Verification& v = *record.verification;
    row->values_compared += static_cast<double>(v.values_compared);
    if (!row->has_error || v.max_abs_error > row->max_abs_error) {
      row->has_error = true;
      row->max_abs_error = v.max_abs_error;
      row->tolerance = v.tolerance;
    }
    if (v.exactness_counted) {
      row->exactness_counted = true;
      row->values_not_exact += static_cast<double>(v.values_not_exact);
      row->points_not_exact += v.values_not_exact > 0;
    }
  }
  return rows;
}

RunCounts latest_run_counts(const std::vector<Record>& records, const std::string& latest_run_id) {
  RunCounts counts;
  for (const Record& record : records) {
    if (record.status == Status::skipped) {
      ++counts.skipped;
      continue;
    }
    if (record.status == Status::failed) {
      ++counts.failed;
      continue;
    }
    (record.run_id == latest_run_id ? counts.ran : counts.kept) += 1;
  }
  return counts;
}

}  // namespace convlab
