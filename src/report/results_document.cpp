#include "report/results_document.hpp"

#include <filesystem>
#include <fstream>

#include "report/figure_data.hpp"
#include "results/results_file.hpp"
#include "results/results_schema.hpp"

namespace convlab {

ResultsDocument load_results_document(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path file(path);
  std::error_code error;
  if (fs::is_directory(file, error)) file /= "results.json";
  ResultsDocument results;
  results.path = file.generic_string();
  results.directory = file.parent_path().empty() ? "." : file.parent_path().generic_string();
  const auto status = fs::status(file, error);
  if (status.type() != fs::file_type::regular && status.type() != fs::file_type::not_found)
    throw ExportError(results.path + ": " +
                      (error ? error.message() : std::string("not a regular file")));
  std::ifstream in(file);
  if (!in) throw ExportError(results.path + ": cannot open (no results here yet?)");
  try {
    results.content = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    throw ExportError(results.path + ": not valid JSON: " + error.what());
  }
  const auto& content = results.content;
  if (!content.is_object() || !content.contains("schema_version"))
    throw ExportError(results.path + ": schema_version: missing; is this a convlab results file?");
  if (content["schema_version"] != 1)
    throw ExportError(results.path + ": schema_version: " + content["schema_version"].dump() +
                      " is not supported (this convlab reads version 1)");
  if (!content.contains("records") || !content["records"].is_array())
    throw ExportError(results.path + ": records: missing or not a list");
  try {
    check_results_types(content, results.path);
  } catch (const ResultsFileError& error) {
    throw ExportError(error.what());
  }
  return results;
}

}  // namespace convlab
