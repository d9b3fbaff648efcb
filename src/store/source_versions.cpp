#include "store/source_versions.hpp"

namespace convlab {

std::string source_version(const Record& record) {
  if (!record.source) return "";
  return record.source->snapshot_sha256.empty() ? record.source->sha256
                                                : record.source->snapshot_sha256;
}

std::map<std::string, std::string> current_source_versions(const ResultsFile& results) {
  std::map<std::string, std::string> current;
  for (const RunBlock& run : results.runs)
    for (const KernelSourceText& source : run.sources)
      current[source.path] = source.includes.empty() ? source.sha256 : source.version;
  return current;
}

bool of_current_version(const Record& record, const std::map<std::string, std::string>& current) {
  if (!record.source) return true;
  const auto found = current.find(record.source->path);
  return found == current.end() || found->second == source_version(record);
}

}  // namespace convlab
