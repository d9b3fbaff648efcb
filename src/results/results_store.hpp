// A results folder shared by concurrent runs. Every change to DIR/results.json is a
// read-merge-write made while holding an exclusive advisory lock (flock) on DIR/results.lock: the
// lock is the single point of mutual exclusion between processes writing the folder, so two runs
// with disjoint --filters end with the union of their records whatever the interleaving. Anything
// else that appends to the folder later (a per-point journal) takes the same lock.
#pragma once

#include <functional>
#include <string>

#include "results/results_file.hpp"

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

  // The file as it is now (empty when the folder or file does not exist yet).
  ResultsFile read() const;

  // Creates the folder, takes the lock, removes temporary files that dead writers left, reads the
  // file, lets `merge` change it, writes it atomically and returns what was written.
  ResultsFile update(const std::function<void(ResultsFile&)>& merge) const;

 private:
  std::string out_dir_;
  std::string results_path_;
};

// Every temporary file of a results folder: results.json.<pid>.<random>.tmp, and results.json.tmp
// of earlier versions. Only called with the lock held, when no writer can be between its write
// and its rename.
void remove_stale_temporaries(const std::string& out_dir);

}  // namespace convlab
