// results.json on disk: read (for resuming and exporting) and atomic rewrite.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/part_block.hpp"
#include "store/record.hpp"
#include "store/run_block.hpp"

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

struct RejectedLine;  // results_journal.hpp

// Reads a results file; throws ResultsFileError naming the file when it is not valid JSON, has
// another schema version or fields of the wrong type. A missing file gives an empty ResultsFile.
// Records written before machines were recorded get theirs from their run block (machine.hpp).
// What the folder's journal (results_journal.hpp) holds beyond the file is folded in, and the
// derived metrics computed again, so readers see every finished point also after a kill -9.
// Anything but a regular file at `path` (a FIFO, a device, a directory) is refused before it is
// read. Journal lines that cannot be read are skipped with a warning on stderr naming their line
// (results_journal.hpp); `rejected`, when given, receives them.
ResultsFile read_results(const std::string& path, std::vector<RejectedLine>* rejected = nullptr);

// Results kept compressed: a results.json may stand as results.json.gz (`gzip results.json`),
// which every reader reads as the plain file (core/gzip_reader.hpp); writers refuse to add to it
// (ResultsStore). The file that holds `path`'s results: `path` when anything stands there, else
// path + ".gz" when that does, else `path`.
std::string stored_results_path(const std::string& path);
// Whether `folder` holds a results file, plain or compressed.
bool holds_results_file(const std::string& folder);
// `path` without a final ".gz": the name of the plain file, which names the journal and the lock.
std::string plain_results_path(const std::string& path);
nlohmann::json to_json(const ResultsFile& results);
nlohmann::json records_json(const std::vector<Record>& records);
// The text write_results_atomically writes, to_json(results).dump(1) and a newline, handed to
// `emit` in pieces: a record at a time, so that a large file never exists as one document.
void write_results_text(const ResultsFile& results,
                        const std::function<void(const std::string&)>& emit);
// Writes to a temporary file of its own (path + ".<pid>.<random>.tmp"), flushes it to disk, then
// renames it over path (core/file_io.hpp AtomicFile): readers and interrupted runs only ever see a
// complete file. On failure, "PATH: write error: REASON", the temporary file is removed and the
// earlier file stays; anything but a regular file at `path`, a link included, is refused.
// Concurrent writers go through ResultsStore (results_store.hpp).
void write_results_atomically(const std::string& path, const ResultsFile& results);

}  // namespace convlab
