#include "query/results_document.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "core/file_io.hpp"
#include "core/gzip_reader.hpp"
#include "query/record_queries.hpp"
#include "store/derive.hpp"
#include "store/machine.hpp"
#include "store/results_merge.hpp"
#include "store/results_schema.hpp"
#include "store/source_versions.hpp"

namespace convlab {
namespace {

using nlohmann::json;

// The label of each record's machine: the host, and the GPU too where one host has several;
// hosts that read alike are told apart by their host id.
void label_machines(std::vector<Record>& records,
                    const std::map<std::string, std::set<std::string>>& gpus_of_host) {
  std::map<std::string, std::set<std::string>> hosts_of_label;
  for (const auto& record : records)
    hosts_of_label[machine_label(record, false)].insert(host_key(record));
  for (auto& record : records) {
    const bool with_gpu = gpus_of_host.at(host_key(record)).size() > 1;
    std::string label = machine_label(record, with_gpu);
    if (hosts_of_label[machine_label(record, false)].size() > 1) {
      const auto& id = record.machine->host_id;
      label += " #" + (id ? id->substr(0, 8) : std::string("?"));
    }
    record.machine->label = label;
  }
}

// The parsed file, its version and types checked.
json read_checked_json(const std::string& path) {
  std::optional<std::string> text;
  try {
    // Its size is looked at first: a file too large for memory is refused by name, up front.
    struct stat info {};
    const bool present = ::stat(path.c_str(), &info) == 0;
    if (present && S_ISREG(info.st_mode))
      check_results_file_size(path, static_cast<std::uint64_t>(info.st_size));
    // A FIFO or a device is refused before it is read; a compressed file is bounded as it inflates.
    if (present && is_gzip_path(path))
      text = read_gzip_file(path, kMaxResultsFileBytes);
    else
      text = read_file_if_present(path);
  } catch (const FileError& error) {
    throw ResultsError(error.what());
  } catch (const ResultsFileError& error) {
    throw ResultsError(error.what());
  }
  if (!text) throw ResultsError(path + ": cannot open (no results here yet?)");
  JsonTextScan scan(kMaxResultsNesting, kMaxResultsWhiteSpace);
  if (const std::string problem = scan.take(*text); !problem.empty())
    throw ResultsError(path + ": " + problem);
  json content;
  try {
    content = json::parse(*text);
  } catch (const json::parse_error& error) {
    // Where, not what: the bytes around the place would quote the file.
    throw ResultsError(path + ": not valid JSON: a syntax error at byte " +
                       std::to_string(error.byte));
  } catch (const json::exception& error) {
    throw ResultsError(path + ": not valid JSON: " + error.what());
  }
  if (!content.is_object() || !content.contains("schema_version"))
    throw ResultsError(path + ": schema_version: missing; is this a convlab results file?");
  if (content["schema_version"] != kResultsSchemaVersion)
    throw ResultsError(path + ": schema_version: " + content["schema_version"].dump() +
                       " is not supported (this convlab reads version 1)");
  if (!content.contains("records") || !content["records"].is_array())
    throw ResultsError(path + ": records: missing or not a list");
  try {
    check_results_types(content, path);
  } catch (const ResultsFileError& error) {
    throw ResultsError(error.what());
  }
  return content;
}

// The typed document; throws std::invalid_argument naming the record field that cannot be read.
void read_typed(const json& content, ResultsDocument& document) {
  ResultsFile& file = document.file;
  file.experiment = content.value("experiment", json::object());
  for (const auto& run : content.value("runs", json::array()))
    file.runs.push_back(run_block_from_json(run));
  if (content.contains("run") && content["run"].is_object())
    document.latest_run = run_block_from_json(content["run"]);
  for (const auto& record : content["records"]) file.records.push_back(record_from_json(record));
  file.gallery = content.value("gallery", json::array());
}

// The records of the scope stay in the file, the others are set aside; the metrics are derived
// again where versions met (files written before derived metrics kept versions apart).
void keep_versions(ResultsDocument& document, VersionScope scope) {
  std::vector<Record>& records = document.file.records;
  const SourceVersions versions(document.file);
  if (std::all_of(records.begin(), records.end(),
                  [&](const Record& record) { return versions.is_current(record); }))
    return;
  if (scope == VersionScope::current) {
    std::vector<Record> current;
    for (Record& record : records)
      (versions.is_current(record) ? current : document.other_versions)
          .push_back(std::move(record));
    records = std::move(current);
  }
  attach_machines(records, document.file.runs);
  derive_metrics(document.file);
}

// The document's records as every reader takes them: of the scope's versions, with machines.
void prepare_records(ResultsDocument& document, VersionScope scope) {
  keep_versions(document, scope);
  attach_machine_identities(document.file);
  refuse_repeated_points(document.file.records, document.path);
}

}  // namespace

void attach_machine_identities(ResultsFile& file) {
  attach_machines(file.records, file.runs);
  std::map<std::string, std::set<std::string>> gpus_of_host;
  for (const auto& record : file.records) {
    gpus_of_host[host_key(record)];
    if (record.is_cuda()) gpus_of_host[host_key(record)].insert(machine_key(record));
  }
  // Files of one machine relate only its records; in a file of several, metrics written before
  // machines were told apart may relate two, so they are computed again.
  const bool several_machines =
      gpus_of_host.size() > 1 ||
      std::any_of(gpus_of_host.begin(), gpus_of_host.end(),
                  [](const auto& host) { return host.second.size() > 1; });
  if (several_machines) derive_metrics(file);
  label_machines(file.records, gpus_of_host);
}

std::vector<RunBlock> ResultsDocument::measuring_runs() const {
  if (!file.runs.empty()) return file.runs;
  if (latest_run) return {*latest_run};
  return {};
}

std::string ResultsDocument::experiment_text(const char* key, const std::string& fallback) const {
  const json& experiment = file.experiment;
  if (!experiment.is_object() || !experiment.contains(key) || !experiment[key].is_string())
    return fallback;
  return experiment[key].get<std::string>();
}

ResultsDocument results_document_of(const std::string& path, ResultsFile file, VersionScope scope) {
  ResultsDocument results;
  const std::filesystem::path at(path);
  results.path = at.generic_string();
  results.directory = at.parent_path().empty() ? "." : at.parent_path().generic_string();
  results.file = std::move(file);
  if (!results.file.runs.empty()) results.latest_run = results.file.runs.back();
  prepare_records(results, scope);
  return results;
}

std::string results_file_of(const std::string& path) {
  const std::string plain = plain_results_path(path);
  const bool json_file = plain.size() >= 5 && plain.compare(plain.size() - 5, 5, ".json") == 0;
  return json_file ? path : stored_results_path(path + "/results.json");
}

ResultsDocument load_results_document(const std::string& path, VersionScope scope) {
  namespace fs = std::filesystem;
  fs::path file(path);
  std::error_code error;
  if (fs::is_directory(file, error)) file /= "results.json";
  ResultsDocument results;
  results.path = fs::path(stored_results_path(file.string())).generic_string();
  results.directory = file.parent_path().empty() ? "." : file.parent_path().generic_string();
  const json content = read_checked_json(results.path);
  try {
    read_typed(content, results);
    prepare_records(results, scope);
  } catch (const std::invalid_argument& error) {
    throw ResultsError(results.path + ": records: " + error.what());
  } catch (const ResultsFileError& error) {
    throw ResultsError(error.what());
  }
  return results;
}

}  // namespace convlab
