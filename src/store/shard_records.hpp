// The records of shard files checked against the parts their files plan, before `convlab merge`
// folds them (shard_merge.hpp): a record of a point its file's part does not plan (a point of
// another shard, or of no shard), and a point measured on one machine by two records that differ
// (in one file or in two), could only come from an edit or another run's file. Such records are
// left out, each named by its file and key; the other records of the file are merged.
#pragma once

#include <string>
#include <vector>

#include "store/results_file.hpp"

namespace convlab {

// A shard file read and accepted so far: its path and contents (with a part block and a shard).
struct ShardRecords {
  const std::string* file;
  ResultsFile* results;
};

// Removes the records outside their file's part, and every record of a point and machine whose
// records differ; returns one line per record removed ("DIR/shards/shard-1-of-4.json: records[3]:
// ..."), in file order.
std::vector<std::string> drop_foreign_records(const std::vector<ShardRecords>& files);

}  // namespace convlab
