// results.json on disk: read (for resuming and exporting) and atomic rewrite.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/part_block.hpp"
#include "results/record.hpp"
#include "results/run_block.hpp"

namespace convlab {

constexpr int kResultsSchemaVersion = 1;

struct ResultsFile {
  nlohmann::json experiment = nlohmann::json::object();  // name, title, description, baseline
  std::vector<RunBlock> runs;                            // run blocks, oldest first
  std::vector<Record> records;
  nlohmann::json gallery = nlohmann::json::array();  // saved input/output images
  std::optional<PartBlock> part;  // files of a shard or a device worker (part_block.hpp)
};

class ResultsFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads a results file; throws ResultsFileError naming the file when it is not valid JSON, has
// another schema version or fields of the wrong type. A missing file gives an empty ResultsFile.
// Records written before machines were recorded get theirs from their run block (machine.hpp).
// What the folder's journal (results_journal.hpp) holds beyond the file is folded in, and the
// derived metrics computed again, so readers see every finished point also after a kill -9.
ResultsFile read_results(const std::string& path);
nlohmann::json to_json(const ResultsFile& results);
nlohmann::json records_json(const std::vector<Record>& records);
// The text write_results_atomically writes, to_json(results).dump(1) and a newline, handed to
// `emit` in pieces: a record at a time, so that a large file never exists as one document.
void write_results_text(const ResultsFile& results,
                        const std::function<void(const std::string&)>& emit);
// Writes to a temporary file of its own (path + ".<pid>.<random>.tmp"), flushes it to disk, then
// renames it over path: readers and interrupted runs only ever see a complete file. On failure
// the temporary file is removed. Concurrent writers go through ResultsStore (results_store.hpp).
void write_results_atomically(const std::string& path, const ResultsFile& results);

}  // namespace convlab
