// DIR/results.journal: what runs have finished since DIR/results.json was last written, one JSON
// object per line. Appending a point costs the same whatever the size of the results: the line is
// written and flushed to disk (fsync) under the folder's lock, and results.json is rewritten only
// when a run starts (resuming what a killed run left), ends or is interrupted, which folds the
// journal in and removes it (compaction, results_store.hpp).
//
// Lines: {"experiment": {...}}, {"run": {...}} (a run block, the newest line of an id wins),
// {"record": {...}} (replaces the record of the same point, as in results.json),
// {"gallery": {...}} and {"part": {...}} (the part block of a shard's or worker's file; the
// newest wins). A last line cut short by a crash is ignored: its point was never reported
// done.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/results_file.hpp"

namespace convlab {

// DIR/results.journal for DIR/results.json (the results file's name with the extension .journal).
std::string journal_path_for(const std::string& results_path);

struct JournalLine {
  enum class Kind { experiment, run, record, gallery, part } kind;
  nlohmann::json value;
};

// Appends the lines and flushes them to disk. The caller holds the folder's lock.
void append_journal(const std::string& journal_path, const std::vector<JournalLine>& lines);

// The journal's lines in order; none when there is no journal. Throws ResultsFileError naming the
// journal and the line when a complete line is not a journal line.
std::vector<JournalLine> read_journal(const std::string& journal_path);

// Applies journal lines to a results file as read from results.json: the experiment is replaced
// (another experiment's name is refused, naming `path`), run blocks are replaced by id or added,
// records replace the record of the same point or are added, gallery entries replace the entry of
// the same image, kernel and border or are added. Run blocks no record refers to are dropped unless
// the journal names them (a run still in progress).
void fold_journal(ResultsFile& results, const std::vector<JournalLine>& lines,
                  const std::string& path);

}  // namespace convlab
