// Loading a results.json (docs/results-schema.md) for export and compare: read once into typed
// records and run blocks, which everything after works on.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/results_file.hpp"

namespace convlab {

// Bad input found while reading or presenting results (export, compare, show, notebooks): a
// results file that cannot be read, a declaration that selects nothing sensible, an ambiguous
// live value; the CLI prints it and exits 2.
class ResultsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A declaration that is fine but selects no data in these results (the points were skipped, or
// were not run yet); the export leaves the figure out with a note instead of stopping.
class NoDataError : public ResultsError {
 public:
  using ResultsError::ResultsError;
};

// Which records a reader takes: those of the current version of each user's kernel
// (store/source_versions.hpp), which everything computes with, or every record, for listings
// that tell versions apart (convlab show and export --all-versions).
enum class VersionScope { current, all };

struct ResultsDocument {
  std::string path;       // the results.json itself
  std::string directory;  // where it lives: outputs/<name>
  // Every record has its machine, labelled for figures and tables (RecordMachine::label).
  ResultsFile file;
  std::optional<RunBlock> latest_run;  // "run": the run whose config the figures come from
  // Records of earlier versions of users' kernels, set aside when loaded for the current
  // version: results.json keeps them, nothing computes with them.
  std::vector<Record> other_versions;

  // The runs that measured the records, oldest first (the latest alone in files listing none).
  std::vector<RunBlock> measuring_runs() const;
  // experiment.<key> as text, or `fallback`.
  std::string experiment_text(const char* key, const std::string& fallback) const;
};

// `path` is a results.json or the directory holding one. Throws ResultsError naming the file when
// it is missing, not JSON, of another schema version or of the wrong types. Every record gets its
// machine (machine.hpp) with a label for figures and tables, and the derived metrics are
// recomputed so that none relates two machines or two versions of a user's kernel. Records of
// other versions than the current one go to `other_versions` unless `scope` is all.
ResultsDocument load_results_document(const std::string& path,
                                      VersionScope scope = VersionScope::current);

// The results file a command is given: PATH when it ends in .json, else PATH/results.json.
std::string results_file_of(const std::string& path);

// A results file already read (read_results, which folds in a journal) as a document, with its
// machines identified as load_results_document does.
ResultsDocument results_document_of(const std::string& path, ResultsFile file,
                                    VersionScope scope = VersionScope::current);

// The part of loading that identifies machines and recomputes the metrics, on typed results.
void attach_machine_identities(ResultsFile& results);

}  // namespace convlab
