// The JSON types a results file must have where convlab reads it (docs/results-schema.md), checked
// once when the file is read, so that a hand-edited or foreign file is refused with the file and
// the JSON path at fault ("records[3].params: expected an object, got a string") instead of a
// library exception from deep inside a reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace convlab {

// How deeply lists and objects may nest in a results file or a journal line: far beyond what
// convlab writes (about 10 levels), and far below what exhausts the stack where a value is copied
// or checked recursively (a million levels did).
constexpr int kMaxResultsNesting = 256;

// A results file (results.json, a shard's or a device worker's file) holds at most this many
// bytes: 100,000 points (a config's limit) take about 150 MB.
constexpr std::uint64_t kMaxResultsFileBytes = std::uint64_t(1) << 30;
// What reading one costs at most, per byte of the file. Measured on a file of 40,000 records
// (212 MB): `show` 2.2 times its size (the records typed), export and the notebook 4.1 times (the
// whole document), compare of the file with itself 5.4 times.
constexpr std::uint64_t kResultsMemoryPerByte = 6;

// The longest string a results file may hold (a name, a label, a path, a reason, a parameter's
// value), and the longest description (the experiment's, and the config's recorded with a run).
constexpr std::size_t kMaxResultsStringBytes = 4096;
constexpr std::size_t kMaxResultsTextBytes = 65536;
// What a writer keeps of a text it did not choose (an error's reason, a command-line argument):
// at most kMaxResultsStringBytes, cut on a character's boundary, so that its file reads back.
std::string within_results_limit(std::string text);

// Throws ResultsFileError naming the file when it is larger than kMaxResultsFileBytes, or when
// reading it would need more memory than is available (measure/provenance.hpp
// available_memory_bytes: the host's, bounded by ulimit -v and the cgroup's limit). Looked at
// before a byte is read, so that no reader ends in an allocation failure.
void check_results_file_size(const std::string& path, std::uint64_t bytes);

// Whether the JSON text nests lists and objects deeper than `max_depth` (text in strings is
// skipped). One pass over the text, before it is parsed.
bool nests_deeper_than(std::string_view text, int max_depth);

// The longest run of white space outside strings a results file may hold: convlab's own files
// hold a few dozen bytes in a row. The JSON parser keeps the white space before a token in memory
// (a gigabyte of spaces once took 4 GB), so a longer run is refused before it reaches it.
constexpr std::uint64_t kMaxResultsWhiteSpace = std::uint64_t(1) << 20;

// What a results file's text may not hold, looked at a piece at a time as the file is read and
// before the parser sees it: nesting deeper than `max_depth`, or more than `max_white_space`
// bytes of white space in a row outside strings.
class JsonTextScan {
 public:
  JsonTextScan(int max_depth, std::uint64_t max_white_space)
      : max_depth_(max_depth), max_white_space_(max_white_space) {}
  // Empty, or what is wrong with the text so far, as words after "<path>: ".
  std::string take(std::string_view piece);

 private:
  int max_depth_;
  std::uint64_t max_white_space_;
  int depth_ = 0;
  bool in_string_ = false;
  bool escaped_ = false;
  std::uint64_t offset_ = 0;
  std::uint64_t white_space_ = 0;
};

// Throws ResultsFileError "<path>: <json path>: <problem>" at the first field of the wrong type.
// Fields convlab does not read, and optional fields that are absent, are not looked at.
void check_results_types(const nlohmann::json& document, const std::string& path);
// The same for records[index] and runs[index] alone, for readers that take a file's records and
// run blocks one at a time.
void check_record_types(const nlohmann::json& record, std::size_t index, const std::string& path);
void check_run_types(const nlohmann::json& run, std::size_t index, const std::string& path);

}  // namespace convlab
