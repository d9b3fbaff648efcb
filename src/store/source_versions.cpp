#include "store/source_versions.hpp"

#include <optional>

namespace convlab {
namespace {

using nlohmann::json;

// The version of `implementation` the run compiled, when its config names it as a user's kernel.
std::optional<std::string> version_in_run(const RunBlock& run, const std::string& implementation) {
  const json& resolved = run.resolved_config;
  if (!resolved.is_object() || !resolved.contains("implementations")) return std::nullopt;
  const json& implementations = resolved["implementations"];
  if (!implementations.is_object() || !implementations.contains(implementation))
    return std::nullopt;
  const json& entry = implementations[implementation];
  if (!entry.is_object() || !entry.contains("source") || !entry["source"].is_string())
    return std::nullopt;
  const std::string path = entry["source"].get<std::string>();
  for (const KernelSourceText& source : run.sources)
    if (source.path == path && !source_version(source).empty()) return source_version(source);
  if (entry.contains("sha256") && entry["sha256"].is_string())
    return entry["sha256"].get<std::string>();
  return std::nullopt;
}

}  // namespace

SourceVersions::SourceVersions(const ResultsFile& results) {
  std::map<std::string, size_t> run_order;
  for (size_t i = 0; i < results.runs.size(); ++i) run_order[results.runs[i].id] = i + 1;
  // Where no run names the kernel: its record of the latest run, the last in the file of those.
  std::map<std::string, size_t> order_of_current;
  for (const Record& record : results.records) {
    const std::string version = record.source_version();
    if (version.empty()) continue;
    const auto run = run_order.find(record.run_id);
    const size_t order = run == run_order.end() ? 0 : run->second;
    const auto known = order_of_current.find(record.implementation);
    if (known != order_of_current.end() && known->second > order) continue;
    order_of_current[record.implementation] = order;
    current_[record.implementation] = version;
  }
  for (auto& [implementation, version] : current_)
    for (auto run = results.runs.rbegin(); run != results.runs.rend(); ++run)
      if (const auto named = version_in_run(*run, implementation)) {
        version = *named;
        break;
      }
}

bool SourceVersions::is_current(const Record& record) const {
  const std::string version = record.source_version();
  return version.empty() || version == current(record.implementation);
}

std::string SourceVersions::current(const std::string& implementation) const {
  const auto found = current_.find(implementation);
  return found == current_.end() ? std::string() : found->second;
}

bool versions_meet(const std::vector<const Record*>& records) {
  std::map<std::string, std::string> version_of;
  for (const Record* record : records) {
    const std::string version = record->source_version();
    if (version.empty()) continue;
    const auto [known, added] = version_of.emplace(record->implementation, version);
    if (!added && known->second != version) return true;
  }
  return false;
}

std::string short_version(const std::string& version) {
  return version.substr(0, 12);
}

}  // namespace convlab
