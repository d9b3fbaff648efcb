// `convlab merge DIR`: folds the shard files of DIR/shards (part_files.hpp) into DIR/results.json.
//
// - Files are checked against each other: a file that cannot be read (not JSON, cut short,
//   another schema version, fields of the wrong type), that is not a shard file, or whose shard
//   count, config hash, filter or plan partition differs from what most shard files say, is
//   refused with its file and key named; the others are merged.
// - Records keep their machine; the merge rule is results.json's (results_merge.hpp): a record
//   replaces the record of the same point on the same machine, so merging again, or merging a
//   shard that ran twice, adds nothing.
// - Records are checked against their file's part (shard_records.hpp): a record of a point the
//   part does not plan, or of a point and machine whose records differ, is named and left out.
// - Points a shard plans (its part block) without a record in its file are counted per shard, so
//   that a run of that shard measures only those; a shard with no file is counted from the plan
//   partition the other files carry.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "store/part_block.hpp"
#include "store/results_file.hpp"

namespace convlab {

struct ShardOutcome {
  enum class State { complete, incomplete, not_run, refused };
  ShardIndex shard;
  State state = State::not_run;
  std::string file;         // DIR/shards/shard-3-of-8.json
  std::size_t planned = 0;  // points the shard plans (0 when unknown)
  std::size_t missing = 0;  // of those, without a record
  std::size_t records = 0;  // records of the file
  std::string refusal;      // why the file was refused: file, key and problem
};

struct MergeSummary {
  std::string results_path;
  int count = 0;                     // N of the shards merged
  std::vector<ShardOutcome> shards;  // every shard 0..N-1, then files of other counts refused
  std::size_t records_merged = 0;    // records read from the accepted shard files
  std::size_t records_in_results = 0;
  std::string config_path, filter;  // as the shards ran (for the command that completes them)
  // Records left out of files otherwise merged (shard_records.hpp): file, key and why.
  std::vector<std::string> refused_records;

  bool any_refused() const;            // a file or a record
  std::size_t missing_points() const;  // of incomplete and not-run shards
};

// The points a part's file plans (its part block) that have no record in it; 0 without a part
// block.
std::size_t missing_points(const ResultsFile& part_file);

// Throws ResultsFileError when DIR/shards holds no shard file, or results.json cannot be read
// or written; refused shard files are reported in the summary, not thrown.
MergeSummary merge_shards(const std::string& out_dir);

// What to tell the user: one line per shard that is not complete, with the command that
// completes it, and per refused file.
std::vector<std::string> merge_report_lines(const MergeSummary& summary,
                                            const std::string& out_dir);

}  // namespace convlab
