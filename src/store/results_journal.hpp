// DIR/results.journal: what runs have finished since DIR/results.json was last written, one JSON
// object per line. Appending a point costs the same whatever the size of the results: the line is
// written and flushed to disk (fsync) under the folder's lock, and results.json is rewritten only
// when a run starts (resuming what a killed run left), ends or is interrupted, which folds the
// journal in and removes it (compaction, results_store.hpp).
//
// Lines: {"experiment": {...}}, {"run": {...}} (a run block, the newest line of an id wins),
// {"record": {...}} (replaces the record of the same point, as in results.json),
// {"gallery": {...}} and {"part": {...}} (the part block of a shard's or worker's file; the
// newest wins). A last line cut short by a crash is ignored: its point was never reported done.
// Any other line that is not a journal line (not JSON, another shape, fields of the wrong type:
// an edit, a disk error, a crash in the middle of a write that a later append ended) is skipped
// with a warning naming its line number, and every line before and after it is read as usual;
// when the journal is folded into results.json such lines are appended, as they were, to
// DIR/results.journal.rejected, so that nothing is lost.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/results_file.hpp"

namespace convlab {

// DIR/results.journal for DIR/results.json (the results file's name with the extension .journal).
std::string journal_path_for(const std::string& results_path);

struct JournalLine {
  enum class Kind { experiment, run, record, gallery, part } kind;
  nlohmann::json value;
};

// DIR/results.journal.rejected for DIR/results.journal.
std::string rejected_path_for(const std::string& journal_path);

// A complete line of the journal that is not a journal line: its number (from 1), its text and
// why it was not read.
struct RejectedLine {
  size_t number = 0;
  std::string text;
  std::string reason;
};

struct JournalContents {
  std::vector<JournalLine> lines;
  std::vector<RejectedLine> rejected;
};

// Appends the lines and flushes them to disk. The caller holds the folder's lock. Anything but a
// regular file at journal_path (a FIFO, a directory, a link) is refused with a ResultsFileError
// naming it, and a failed write is one: "PATH: write error: REASON".
void append_journal(const std::string& journal_path, const std::vector<JournalLine>& lines);

// The journal's lines in order, and those that are not journal lines; none when there is no
// journal. Anything but a regular file at journal_path is refused, before it is read, with a
// ResultsFileError naming it.
JournalContents read_journal_contents(const std::string& journal_path);

// read_journal_contents' lines, with a warning on stderr for each rejected line.
std::vector<JournalLine> read_journal(const std::string& journal_path);

// One warning on stderr per rejected line and process: "PATH: line N: skipped (REASON); ...".
void warn_of_rejected_lines(const std::string& journal_path,
                            const std::vector<RejectedLine>& rejected);

// Appends the rejected lines, as they were, to rejected_path_for(journal_path), flushed to disk;
// done before the journal is removed. The caller holds the folder's lock.
void set_aside_rejected_lines(const std::string& journal_path,
                              const std::vector<RejectedLine>& rejected);

// Applies journal lines to a results file as read from results.json: the experiment is replaced
// (another experiment's name is refused, naming `path`), run blocks are replaced by id or added,
// records replace the record of the same point or are added, gallery entries replace the entry of
// the same image, kernel and border or are added. Run blocks no record refers to are dropped unless
// the journal names them (a run still in progress).
void fold_journal(ResultsFile& results, const std::vector<JournalLine>& lines,
                  const std::string& path);

}  // namespace convlab
