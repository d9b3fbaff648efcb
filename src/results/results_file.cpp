#include "results/results_file.hpp"

#include <optional>

#include "core/file_io.hpp"
#include "results/derive.hpp"
#include "results/machine.hpp"
#include "results/results_journal.hpp"
#include "results/results_schema.hpp"

namespace convlab {
namespace {

ResultsFile read_results_file(const std::string& path) {
  ResultsFile results;
  std::optional<std::string> text;
  try {
    text = read_file_if_present(path);
  } catch (const FileError& error) {
    throw ResultsFileError(std::string(error.what()) + "; move it away to start afresh");
  }
  if (!text) return results;
  if (nests_deeper_than(*text, kMaxResultsNesting))
    throw ResultsFileError(path + ": nests lists or objects more than " +
                           std::to_string(kMaxResultsNesting) +
                           " deep, which no results file does; move it away to start afresh");
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::exception& parse_error) {
    throw ResultsFileError(path + ": not valid JSON (" + parse_error.what() +
                           "); move it away to start afresh");
  }
  if (!document.is_object() || !document.contains("schema_version") ||
      document["schema_version"] != kResultsSchemaVersion)
    throw ResultsFileError(path + ": schema_version is not " +
                           std::to_string(kResultsSchemaVersion));
  check_results_types(document, path);
  results.experiment = document.value("experiment", nlohmann::json::object());
  for (const auto& run : document.value("runs", nlohmann::json::array()))
    results.runs.push_back(run_block_from_json(run));
  const nlohmann::json records = document.value("records", nlohmann::json::array());
  for (size_t i = 0; i < records.size(); ++i) {
    try {
      results.records.push_back(record_from_json(records[i]));
    } catch (const std::invalid_argument& error) {
      throw ResultsFileError(path + ": records[" + std::to_string(i) + "]." + error.what() +
                             " (docs/results-schema.md; move the file away to start afresh)");
    }
  }
  results.gallery = document.value("gallery", nlohmann::json::array());
  attach_machines(results.records, results.runs);
  return results;
}

}  // namespace

ResultsFile read_results(const std::string& path, std::vector<RejectedLine>* rejected) {
  ResultsFile results = read_results_file(path);
  const std::string journal_path = journal_path_for(path);
  JournalContents journal = read_journal_contents(journal_path);
  warn_of_rejected_lines(journal_path, journal.rejected);
  if (rejected) *rejected = std::move(journal.rejected);
  if (journal.lines.empty()) return results;
  fold_journal(results, journal.lines, path);
  derive_metrics(results);
  return results;
}

nlohmann::json records_json(const std::vector<Record>& records) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& record : records) list.push_back(to_json(record));
  return list;
}

nlohmann::json to_json(const ResultsFile& results) {
  nlohmann::json runs_json = nlohmann::json::array();
  for (const auto& run : results.runs) runs_json.push_back(to_json(run));
  return {{"schema_version", kResultsSchemaVersion},
          {"experiment", results.experiment},
          {"run", results.runs.empty() ? nlohmann::json(nullptr) : to_json(results.runs.back())},
          {"runs", runs_json},
          {"records", records_json(results.records)},
          {"gallery", results.gallery}};
}

void write_results_atomically(const std::string& path, const ResultsFile& results) {
  try {
    write_file(path, to_json(results).dump(1) + "\n", WriteTarget::owned, Durability::on_disk);
  } catch (const FileError& error) {
    throw ResultsFileError(error.what());
  }
}

}  // namespace convlab
