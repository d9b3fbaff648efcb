// Loading a results.json (docs/results-schema.md) for export and compare.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace convlab {

struct ResultsDocument {
  std::string path;       // the results.json itself
  std::string directory;  // where it lives: outputs/<name>
  nlohmann::json content;
};

// `path` is a results.json or the directory holding one. Throws ExportError naming the file when
// it is missing, not JSON, or of another schema version.
ResultsDocument load_results_document(const std::string& path);

}  // namespace convlab
