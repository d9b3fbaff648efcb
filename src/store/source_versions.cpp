#include "store/source_versions.hpp"

namespace convlab {
namespace {

using nlohmann::json;

// The source path each user's kernel reads: what the runs' configs name, else what its records
// say (files whose runs kept no resolved config).
std::map<std::string, std::string> source_paths(const ResultsFile& results) {
  std::map<std::string, std::string> paths;
  for (const Record& record : results.records)
    if (record.source && !record.source->path.empty())
      paths.emplace(record.implementation, record.source->path);
  for (const RunBlock& run : results.runs) {
    const json& resolved = run.resolved_config;
    if (!resolved.is_object() || !resolved.contains("implementations")) continue;
    const json& implementations = resolved["implementations"];
    if (!implementations.is_object()) continue;
    for (const auto& [name, entry] : implementations.items())
      if (entry.is_object() && entry.contains("source") && entry["source"].is_string())
        paths[name] = entry["source"].get<std::string>();
  }
  return paths;
}

// The version of each user's kernel the run compiled, by the sources it recorded.
std::map<std::string, std::string> versions_in_run(
    const RunBlock& run, const std::map<std::string, std::string>& paths) {
  std::map<std::string, std::string> versions;
  for (const auto& [name, path] : paths)
    for (const KernelSourceText& source : run.sources)
      if (source.path == path && !source_version(source).empty())
        versions[name] = source_version(source);
  return versions;
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
  // The runs, oldest first: the latest naming a kernel has the last word.
  const std::map<std::string, std::string> paths = source_paths(results);
  for (const RunBlock& run : results.runs)
    for (const auto& [implementation, version] : versions_in_run(run, paths))
      current_[implementation] = version;
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
