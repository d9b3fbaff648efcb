// The recorder: where a run's records go. Every finished point is appended to the results file's
// journal, flushed to disk (store/results_journal.hpp), under one lock in this process so that
// an interrupt never lands in the middle of a write; the journal is folded into the file when the
// run starts on one a killed run left, ends, stops on an error or is interrupted. The first write
// of a run names the experiment, the run block and, for a shard or device worker, the part block.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "store/part_block.hpp"
#include "store/record.hpp"
#include "store/results_file.hpp"
#include "store/results_store.hpp"
#include "store/run_block.hpp"

namespace convlab {

class Recorder {
 public:
  // Reads the file; throws ResultsFileError when it holds another experiment than
  // `experiment_name`. `read_only`: results files whose ok records also count as measured (a
  // device worker's target file), never written.
  Recorder(ResultsStore store, const std::string& experiment_name,
           const std::vector<std::string>& read_only = {});

  const std::string& results_path() const { return store_.results_path(); }
  // The file as last read or written; call while no point is being stored.
  const ResultsFile& results() const { return results_; }

  // What a killed run left in the journal, folded into the file before anything else.
  void fold_leftover_journal();

  // The run block and experiment written with the first record.
  void begin(RunBlock run, nlohmann::json experiment);
  const RunBlock& run_block() const { return run_; }
  // Written with the next lines (the newest part block of a file wins).
  void set_part(PartBlock part);
  // Where the run's time went, written with the run block when the run finishes.
  void set_phases(RunPhases phases);

  bool has_ok_record(const std::string& key);
  // The record of `key` in the file or a read-only file, or null.
  const Record* record(const std::string& key) const;

  // Appends the record, flushed to disk; the point counts as done under the same lock.
  void store(Record record);
  // A point kept from an earlier run counts as done.
  void count_kept() { ++points_done_; }
  std::size_t points_done() const { return points_done_; }

  // The gallery entries `build` makes from the file's records and earlier entries, written when
  // the run ends.
  void draw_gallery(const std::function<std::vector<nlohmann::json>(const ResultsFile&)>& build);

  // The run ends: finished now, the journal folded into the file.
  void finish();
  // The run stopped on an error: what it measured is folded into the file; a failure to do so
  // is left unsaid (the error that stopped the run is the one to report; the journal keeps it).
  void fold_after_error();
  // SIGINT or SIGTERM: waits for a write in progress, marks the run interrupted and folds the
  // journal in when anything was written. Holds the lock until the process exits, so no write
  // starts after this one. Returns the points done.
  std::size_t interrupt();

 private:
  std::vector<JournalLine> opening_lines();
  void compact();
  void index_records();
  void remember(const Record& record);

  ResultsStore store_;
  ResultsFile results_;
  std::map<std::string, std::size_t> record_index_;
  std::map<std::string, Record> read_only_records_;  // ok records of the read-only files, by key
  std::mutex write_mutex_;  // results_, the journal and run_ once points run; see interrupt
  bool written_ = false;
  std::atomic<std::size_t> points_done_{0};
  RunBlock run_;
  nlohmann::json experiment_;
  std::optional<PartBlock> pending_part_;
  std::vector<nlohmann::json> pending_gallery_;  // not yet in the journal
};

}  // namespace convlab
