// How records enter a results file that already holds some: a new measurement of a point on the
// same machine replaces the earlier record in place, anything else is added. Indexed, so merging
// N records costs N lookups, not N scans of the file.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/record.hpp"
#include "store/results_file.hpp"
#include "store/run_block.hpp"

namespace convlab {

// A point on a machine: the record's point_id and its machine's model (the device left out). A
// results file holds one record of each.
std::string point_on_machine(const Record& record);

// Throws ResultsFileError naming both records when two of `records` measure one point on one
// machine: which of them a reader took would depend on their order.
void refuse_repeated_points(const std::vector<Record>& records, const std::string& path);

class RecordMerger {
 public:
  // `records` must outlive the merger and change only through it.
  explicit RecordMerger(std::vector<Record>& records);

  // Replaces the record of the same key, or of the same point on the same machine, with `record`,
  // or appends it.
  void add_or_replace(Record record);

 private:
  void index(size_t position);

  std::vector<Record>& records_;
  std::unordered_map<std::string, size_t> by_key_, by_point_;
};

// Folds whole results files (a shard's, a device worker's) into one, with one index over its
// records however many files come in: records as add_or_replace, run blocks replaced by id or
// added, gallery entries replaced by image, kernel and border or added.
class ResultsFolding {
 public:
  // `into` must outlive the folding; `into_path` names it in errors.
  ResultsFolding(ResultsFile& into, std::string into_path);

  // Throws ResultsFileError naming both files when `from` holds another experiment.
  void fold(ResultsFile from, const std::string& from_path);
  // Drops run blocks no record refers to any more.
  void finish();

 private:
  ResultsFile& into_;
  std::string into_path_;
  RecordMerger records_;
  std::unordered_map<std::string, size_t> run_by_id_;
};

// Keeps the run blocks that a record refers to or that `keep` names, in their order.
void keep_referenced_runs(std::vector<RunBlock>& runs, const std::vector<Record>& records,
                          const std::set<std::string>& keep);

}  // namespace convlab
