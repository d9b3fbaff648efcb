// A results folder shared by concurrent runs. Runs append what they finish to DIR/results.journal
// (results_journal.hpp) and fold it into DIR/results.json when they start, end or are interrupted.
// Both are done holding an exclusive advisory lock (flock) on DIR/results.lock: the lock is the
// single point of mutual exclusion between processes writing the folder, so two runs with
// disjoint --filters end with the union of their records whatever the interleaving.
#pragma once

#include <string>
#include <vector>

#include "results/results_file.hpp"
#include "results/results_journal.hpp"

namespace convlab {

// Holds the folder's lock for its lifetime. Waiting is announced once on stderr when another
// process holds it; the kernel releases it if the holder dies, also on kill -9.
class ResultsLock {
 public:
  explicit ResultsLock(const std::string& out_dir);
  ~ResultsLock();
  ResultsLock(const ResultsLock&) = delete;
  ResultsLock& operator=(const ResultsLock&) = delete;

 private:
  int fd_ = -1;
};

class ResultsStore {
 public:
  explicit ResultsStore(std::string out_dir);

  const std::string& out_dir() const { return out_dir_; }
  const std::string& results_path() const { return results_path_; }

  // The file as it is now (empty when the folder or file does not exist yet). In a folder this
  // process can write, what stands where results.json, the journal and the file of rejected
  // journal lines go must be a regular file or nothing (a FIFO, a directory or a link is refused
  // with a ResultsFileError naming it), so that a run is refused before any point runs.
  ResultsFile read() const;

  // Creates the folder, takes the lock and appends the lines to the journal, flushed to disk.
  void append(const std::vector<JournalLine>& lines) const;

  // Takes the lock, removes temporary files that dead writers left, reads the file with the
  // journal folded in, sets the journal's rejected lines aside (results_journal.hpp), writes the
  // file atomically, removes the journal and returns what was written. Does nothing but read when
  // there is no journal.
  ResultsFile compact() const;

  bool has_journal() const;

 private:
  std::string out_dir_;
  std::string results_path_;
  std::string journal_path_;
};

// Every temporary file of a results folder: results.json.<pid>.<random>.tmp, and results.json.tmp
// of earlier versions. Only called with the lock held, when no writer can be between its write
// and its rename.
void remove_stale_temporaries(const std::string& out_dir);

}  // namespace convlab
