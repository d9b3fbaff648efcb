// The JSON types a results file must have where convlab reads it (docs/results-schema.md), checked
// once when the file is read, so that a hand-edited or foreign file is refused with the file and
// the JSON path at fault ("records[3].params: expected an object, got a string") instead of a
// library exception from deep inside a reader.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace convlab {

// How deeply lists and objects may nest in a results file or a journal line: far beyond what
// convlab writes (about 10 levels), and far below what exhausts the stack where a value is copied
// or checked recursively (a million levels did).
constexpr int kMaxResultsNesting = 256;

// Whether the JSON text nests lists and objects deeper than `max_depth` (text in strings is
// skipped). One pass over the text, before it is parsed.
bool nests_deeper_than(std::string_view text, int max_depth);

// Throws ResultsFileError "<path>: <json path>: <problem>" at the first field of the wrong type.
// Fields convlab does not read, and optional fields that are absent, are not looked at.
void check_results_types(const nlohmann::json& document, const std::string& path);
// The same for records[index] and runs[index] alone, for readers that take a file's records and
// run blocks one at a time.
void check_record_types(const nlohmann::json& record, std::size_t index, const std::string& path);
void check_run_types(const nlohmann::json& run, std::size_t index, const std::string& path);

}  // namespace convlab
