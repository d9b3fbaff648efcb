// A results file shared by concurrent runs. Runs append what they finish to DIR/results.journal
// (results_journal.hpp) and fold it into DIR/results.json when they start, end or are interrupted.
// Both are done holding an exclusive advisory lock (flock) on DIR/results.lock: the lock is the
// single point of mutual exclusion between processes writing the file, so two runs with
// disjoint --filters end with the union of their records whatever the interleaving.
//
// A store may name another file of the folder (a shard's DIR/shards/shard-3-of-8.json, a device
// worker's part file): its journal and lock are named after it (shard-3-of-8.journal, .lock).
// Such files have one writer each, so their lock may be best effort: where the file system does
// not support flock (some network file systems answer ENOLCK), the store goes on without it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "store/results_file.hpp"
#include "store/results_journal.hpp"

namespace convlab {

// Holds the folder's lock for its lifetime. Waiting is announced once on stderr when another
// process holds it; the kernel releases it if the holder dies, also on kill -9.
enum class LockUse {
  required,     // a failing flock is an error
  best_effort,  // a file system without flock: go on unlocked (the file has one writer)
};

class ResultsLock {
 public:
  ResultsLock(const std::string& lock_path, LockUse use);
  ~ResultsLock();
  ResultsLock(const ResultsLock&) = delete;
  ResultsLock& operator=(const ResultsLock&) = delete;

 private:
  int fd_ = -1;
};

class ResultsStore {
 public:
  explicit ResultsStore(std::string out_dir, std::string file_name = "results.json",
                        LockUse lock_use = LockUse::required);

  const std::string& out_dir() const { return out_dir_; }
  const std::string& results_path() const { return results_path_; }
  const std::string& journal_path() const { return journal_path_; }

  // Every method refuses, with a ResultsFileError naming it, a folder whose results stand
  // compressed (results.json.gz and no results.json): those are read-only to convlab.
  //
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

  // Takes the lock, reads the file with the journal folded in, applies `change`, computes the
  // derived metrics over the whole file, writes it atomically, removes the journal and returns
  // what was written.
  ResultsFile update(const std::function<void(ResultsFile&)>& change) const;

  bool has_journal() const;

 private:
  std::string out_dir_;
  std::string file_name_;
  std::string results_path_;
  std::string journal_path_;
  std::string lock_path_;
  LockUse lock_use_;
};

// Every temporary file of a results file: results.json.<pid>.<random>.tmp, and results.json.tmp
// of earlier versions (`file_name` in place of results.json for other files). Only called with
// the lock held, when no writer can be between its write and its rename.
void remove_stale_temporaries(const std::string& out_dir,
                              const std::string& file_name = "results.json");

}  // namespace convlab
