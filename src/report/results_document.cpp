#include "report/results_document.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "report/figure_data.hpp"
#include "results/derive.hpp"
#include "results/machine.hpp"
#include "results/results_file.hpp"
#include "results/results_schema.hpp"

namespace convlab {

void attach_machine_identities(nlohmann::json& content) {
  ResultsFile file;
  file.experiment = content.value("experiment", nlohmann::json::object());
  for (const auto& run : content.value("runs", nlohmann::json::array()))
    file.runs.push_back(run_block_from_json(run));
  for (const auto& record : content["records"]) file.records.push_back(record_from_json(record));
  attach_machines(file.records, file.runs);
  // Labels: the host, and the GPU too where one host has several; hosts that read alike are told
  // apart by their host id.
  std::map<std::string, std::set<std::string>> gpus_of_host;
  std::map<std::string, std::set<std::string>> hosts_of_label;
  for (const auto& record : file.records) {
    gpus_of_host[host_key(record)];
    if (record.is_cuda()) gpus_of_host[host_key(record)].insert(machine_key(record));
    hosts_of_label[machine_label(record, false)].insert(host_key(record));
  }
  // Files of one machine relate only its records; in a file of several, metrics written before
  // machines were told apart may relate two, so they are computed again.
  const bool several_machines =
      gpus_of_host.size() > 1 ||
      std::any_of(gpus_of_host.begin(), gpus_of_host.end(),
                  [](const auto& host) { return host.second.size() > 1; });
  if (several_machines) derive_metrics(file);
  for (size_t i = 0; i < file.records.size(); ++i) {
    const Record& record = file.records[i];
    nlohmann::json& written = content["records"][i];
    const nlohmann::json typed = to_json(record);
    if (!written.contains("machine")) written["machine"] = typed["machine"];
    if (several_machines) written["derived"] = typed["derived"];
    const bool with_gpu = gpus_of_host[host_key(record)].size() > 1;
    std::string label = machine_label(record, with_gpu);
    if (hosts_of_label[machine_label(record, false)].size() > 1) {
      const auto& id = record.machine->host_id;
      label += " #" + (id ? id->substr(0, 8) : std::string("?"));
    }
    written["machine"]["label"] = label;
  }
}

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
  try {
    attach_machine_identities(results.content);
  } catch (const std::invalid_argument& error) {
    throw ExportError(results.path + ": records: " + error.what());
  }
  return results;
}

}  // namespace convlab
