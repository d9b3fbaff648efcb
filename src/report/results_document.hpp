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
// it is missing, not JSON, of another schema version or of the wrong types. Every record gets its
// machine (machine.hpp) with a "label" for figures and tables, and the derived metrics are
// recomputed so that none relates two machines.
ResultsDocument load_results_document(const std::string& path);

// The part of loading that identifies machines and recomputes the metrics, on a parsed document.
void attach_machine_identities(nlohmann::json& content);

}  // namespace convlab
