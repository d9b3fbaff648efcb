#include <iostream>

#include "app/commands.hpp"
#include "store/results_file.hpp"
#include "store/shard_merge.hpp"

namespace convlab {

int merge_command(const Arguments& args) {
  std::string out_dir;
  CommandLine line(
      "merge",
      {{},
       R"(Folds the shard files of DIR/shards (written by `convlab run CONFIG --shard I/N --out DIR`, one
per shard) into DIR/results.json. Records keep the machine that measured them, and a record
replaces the record of the same point from the same machine, so merging again adds nothing. A
shard file that cannot be read, that is a symbolic link, or that belongs to another config, filter
or sharding than most of them, is named with the key at fault and left out; the others are
merged. A record of a point its file's shard does not plan, or of a point and machine whose
records differ, is named by file and key and left out; the rest of its file is merged. For every
shard that is not complete it says how many points are missing and the command that measures
only those. The last shard to complete does this merge itself.
)",
       "",
       "0 every shard merged and complete, 1 points missing, 2 a shard "
       "file or record refused or bad arguments"});
  if (const auto status = line.positional("DIR", out_dir).parse(args)) return *status;
  while (out_dir.size() > 1 && out_dir.back() == '/') out_dir.pop_back();
  MergeSummary summary;
  try {
    summary = merge_shards(out_dir);
  } catch (const ResultsFileError& error) {
    return report_command_error("merge", error);
  }
  std::size_t merged_files = 0;
  for (const auto& shard : summary.shards)
    merged_files += shard.state == ShardOutcome::State::complete ||
                    shard.state == ShardOutcome::State::incomplete;
  std::cout << "convlab merge: merged " << merged_files << " of " << summary.count
            << " shard files (" << summary.records_merged << " records) into "
            << summary.results_path << " (" << summary.records_in_results << " records in all)\n";
  for (const auto& report : merge_report_lines(summary, out_dir))
    std::cerr << "convlab merge: " << report << "\n";
  if (summary.any_refused()) return 2;
  const bool complete =
      summary.missing_points() == 0 && merged_files == static_cast<std::size_t>(summary.count);
  return complete ? 0 : 1;
}

}  // namespace convlab
