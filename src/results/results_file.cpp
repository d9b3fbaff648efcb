#include "results/results_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace convlab {

ResultsFile read_results(const std::string& path) {
  ResultsFile results;
  if (!std::filesystem::exists(path)) return results;
  std::ifstream file(path);
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(file);
  } catch (const nlohmann::json::exception& error) {
    throw ResultsFileError(path + ": not valid JSON (" + error.what() +
                           "); move it away to start afresh");
  }
  if (!document.is_object() || document.value("schema_version", 0) != kResultsSchemaVersion)
    throw ResultsFileError(path + ": schema_version is not " +
                           std::to_string(kResultsSchemaVersion));
  results.experiment = document.value("experiment", nlohmann::json::object());
  for (const auto& run : document.value("runs", nlohmann::json::array()))
    results.runs.push_back(run);
  for (const auto& record : document.value("records", nlohmann::json::array()))
    results.records.push_back(record);
  results.gallery = document.value("gallery", nlohmann::json::array());
  return results;
}

nlohmann::json to_json(const ResultsFile& results) {
  return {{"schema_version", kResultsSchemaVersion},
          {"experiment", results.experiment},
          {"run", results.runs.empty() ? nlohmann::json(nullptr) : results.runs.back()},
          {"runs", results.runs},
          {"records", results.records},
          {"gallery", results.gallery}};
}

void write_results_atomically(const std::string& path, const ResultsFile& results) {
  const std::string temporary = path + ".tmp";
  const std::string text = to_json(results).dump(1) + "\n";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw ResultsFileError(temporary + ": cannot write (" + std::strerror(errno) + ")");
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      throw ResultsFileError(temporary + ": write failed (" + std::strerror(errno) + ")");
    }
    written += static_cast<size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    throw ResultsFileError(path + ": cannot replace (" + std::strerror(errno) + ")");
}

}  // namespace convlab
