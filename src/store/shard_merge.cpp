#include "store/shard_merge.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <thread>
#include <unordered_set>

#include "core/file_io.hpp"
#include "core/shell_quote.hpp"
#include "plan/plan.hpp"
#include "store/part_files.hpp"
#include "store/results_file.hpp"
#include "store/results_journal.hpp"
#include "store/results_merge.hpp"
#include "store/results_store.hpp"
#include "store/shard_records.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// Records left out are named one a line up to this many, then counted.
const std::size_t kRecordLinesShown = 50;

struct ShardFile {
  ShardOutcome outcome;
  std::optional<ResultsFile> results;  // while accepted
};

// The value most files share; a tie goes to the first file's.
template <typename Value, typename Of>
Value most_common(const std::vector<ShardFile>& files, Of of) {
  std::map<Value, size_t> counts;
  std::optional<Value> first;
  for (const auto& file : files) {
    if (!file.results) continue;
    const Value value = of(*file.results);
    ++counts[value];
    if (!first) first = value;
  }
  Value best = first.value_or(Value{});
  for (const auto& [value, n] : counts)
    if (n > counts[best]) best = value;
  return best;
}

void refuse(ShardFile& file, const std::string& why) {
  file.outcome.state = ShardOutcome::State::refused;
  file.outcome.refusal = why;
  file.results.reset();
}

ShardFile read_shard_file(const std::string& out_dir, const ShardIndex& shard) {
  ShardFile file;
  file.outcome.shard = shard;
  file.outcome.file = shards_folder(out_dir) + "/" + shard_file_name(shard);
  try {
    // Only the shard's own files are read, as `convlab run --shard` reads them: a link (to any
    // file of the machine) is refused before a byte of its target is read.
    for (const auto& path : {file.outcome.file, journal_path_for(file.outcome.file)})
      require_owned_place(path);
    file.results = read_results(file.outcome.file);
  } catch (const FileError& error) {
    refuse(file, error.what());
    return file;
  } catch (const ResultsFileError& error) {
    refuse(file, error.what());
    return file;
  } catch (const std::exception& error) {  // read on a thread of its own: nothing may escape
    refuse(file, file.outcome.file + ": cannot read (" + error.what() + ")");
    return file;
  }
  const auto& part = file.results->part;
  if (!part || !part->shard)
    refuse(file, file.outcome.file +
                     ": part.shard: missing; not the file of a `convlab run --shard` run");
  else if (!(*part->shard == shard))
    refuse(file, file.outcome.file + ": part.shard: holds shard " +
                     std::to_string(part->shard->index) + " of " +
                     std::to_string(part->shard->count) + ", not the one its name says");
  return file;
}

// Refuses the files whose `key` differs from the value most files have.
template <typename Of>
void refuse_odd_ones(std::vector<ShardFile>& files, const char* key, Of of,
                     const std::string& what) {
  const auto common = most_common<std::string>(files, of);
  for (auto& file : files) {
    if (!file.results || of(*file.results) == common) continue;
    refuse(file, file.outcome.file + ": part." + key + ": " + what + " '" + of(*file.results) +
                     "', but most shard files have '" + common +
                     "'; move the files of the other run away");
  }
}

void count_missing(ShardFile& file) {
  const ResultsFile& results = *file.results;
  ShardOutcome& outcome = file.outcome;
  outcome.records = results.records.size();
  outcome.planned = results.part->points.size();
  outcome.missing = missing_points(results);
  outcome.state =
      outcome.missing == 0 ? ShardOutcome::State::complete : ShardOutcome::State::incomplete;
}

// Reading (parsing and checking) is most of a merge's time, and files are independent: one
// thread per core reads them.
void read_in_parallel(std::size_t count, const std::function<void(std::size_t)>& read) {
  const std::size_t threads = std::min<std::size_t>(
      count, std::max(1u, std::min(16u, std::thread::hardware_concurrency())));
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (std::size_t i = next++; i < count; i = next++) read(i);
    });
  for (auto& thread : pool) thread.join();
}

std::vector<ShardRecords> accepted(std::vector<ShardFile>& files) {
  std::vector<ShardRecords> records;
  for (auto& file : files)
    if (file.results) records.push_back({&file.outcome.file, &*file.results});
  return records;
}

std::string config_path_of(const ResultsFile& results) {
  return results.runs.empty() ? "" : results.runs.back().config_path;
}

}  // namespace

std::size_t missing_points(const ResultsFile& part_file) {
  if (!part_file.part) return 0;
  std::unordered_set<std::string> measured;
  for (const auto& record : part_file.records)
    measured.insert(record.description().digest());
  const auto& planned = part_file.part->points;
  return static_cast<std::size_t>(
      std::count_if(planned.begin(), planned.end(),
                    [&](const std::string& digest) { return measured.count(digest) == 0; }));
}

bool MergeSummary::any_refused() const {
  if (!refused_records.empty()) return true;
  return std::any_of(shards.begin(), shards.end(), [](const ShardOutcome& shard) {
    return shard.state == ShardOutcome::State::refused;
  });
}

std::size_t MergeSummary::missing_points() const {
  std::size_t missing = 0;
  for (const auto& shard : shards)
    if (shard.state != ShardOutcome::State::refused) missing += shard.missing;
  return missing;
}

MergeSummary merge_shards(const std::string& out_dir) {
  const std::vector<ShardIndex> present = shards_with_files(out_dir);
  if (present.empty())
    throw ResultsFileError(shards_folder(out_dir) +
                           ": no shard files (shard-I-of-N.json); run `convlab run CONFIG "
                           "--shard I/N --out " +
                           shell_word(out_dir) + "` first");
  std::vector<ShardFile> files(present.size());
  read_in_parallel(present.size(),
                   [&](std::size_t i) { files[i] = read_shard_file(out_dir, present[i]); });

  const auto count_of = [](const ResultsFile& r) { return std::to_string(r.part->shard->count); };
  refuse_odd_ones(files, "shard.count", count_of, "a sharding into");
  refuse_odd_ones(
      files, "config_sha256", [](const ResultsFile& r) { return r.part->config_sha256; },
      "the config hash is");
  refuse_odd_ones(
      files, "filter", [](const ResultsFile& r) { return r.part->filter; }, "the filter is");
  refuse_odd_ones(
      files, "partition", [](const ResultsFile& r) { return r.part->partition; },
      "the plan was cut as");

  MergeSummary summary;
  summary.results_path = out_dir + "/results.json";
  summary.refused_records = drop_foreign_records(accepted(files));
  const std::string count = most_common<std::string>(files, count_of);
  summary.count = count.empty() ? 0 : std::stoi(count);
  std::vector<std::size_t> shard_points;
  for (auto& file : files) {
    if (!file.results) continue;
    count_missing(file);
    if (shard_points.empty()) shard_points = file.results->part->shard_points;
    summary.config_path = config_path_of(*file.results);
    summary.filter = file.results->part->filter;
  }

  ResultsStore store(out_dir, "results.json", LockUse::best_effort);
  const bool any_accepted = std::any_of(files.begin(), files.end(),
                                        [](const ShardFile& f) { return f.results.has_value(); });
  if (any_accepted) {
    const ResultsFile merged = store.update([&](ResultsFile& results) {
      ResultsFolding folding(results, summary.results_path);
      for (auto& file : files) {
        if (!file.results) continue;
        const size_t records = file.results->records.size();
        try {
          file.results->part.reset();
          folding.fold(std::move(*file.results), file.outcome.file);
          summary.records_merged += records;
        } catch (const ResultsFileError& error) {
          refuse(file, error.what());
        }
        file.results.reset();
      }
      folding.finish();
    });
    summary.records_in_results = merged.records.size();
  }

  std::map<int, ShardOutcome> by_index;
  for (auto& file : files)
    if (file.outcome.shard.count == summary.count)
      by_index[file.outcome.shard.index] = file.outcome;
  for (int index = 0; index < summary.count; ++index) {
    auto found = by_index.find(index);
    if (found != by_index.end()) {
      summary.shards.push_back(found->second);
      continue;
    }
    ShardOutcome not_run;
    not_run.shard = {index, summary.count};
    not_run.file = shards_folder(out_dir) + "/" + shard_file_name(not_run.shard);
    if (static_cast<size_t>(index) < shard_points.size()) {
      not_run.planned = shard_points[index];
      not_run.missing = shard_points[index];
    }
    summary.shards.push_back(not_run);
  }
  for (auto& file : files)
    if (file.outcome.shard.count != summary.count) summary.shards.push_back(file.outcome);
  return summary;
}

std::vector<std::string> merge_report_lines(const MergeSummary& summary,
                                            const std::string& out_dir) {
  std::vector<std::string> lines;
  const auto rerun = [&](const ShardIndex& shard) {
    if (summary.config_path.empty()) return std::string();
    std::string command = "; measure them with: convlab run " + shell_word(summary.config_path) +
                          " --shard " + std::to_string(shard.index) + "/" +
                          std::to_string(shard.count) + " --out " + shell_word(out_dir);
    if (!summary.filter.empty()) command += " --filter " + shell_quoted(summary.filter);
    return command;
  };
  for (std::size_t i = 0; i < summary.refused_records.size(); ++i) {
    if (i == kRecordLinesShown) {
      lines.push_back("and " + std::to_string(summary.refused_records.size() - i) +
                      " more records refused the same way; not merged");
      break;
    }
    lines.push_back(summary.refused_records[i]);
  }
  for (const auto& shard : summary.shards) {
    const std::string of = std::to_string(shard.shard.index);
    switch (shard.state) {
      case ShardOutcome::State::complete:
        break;
      case ShardOutcome::State::incomplete:
        lines.push_back(std::to_string(shard.missing) + " point" + (shard.missing == 1 ? "" : "s") +
                        " of shard " + of + " missing (" + std::to_string(shard.planned) +
                        " planned)" + rerun(shard.shard));
        break;
      case ShardOutcome::State::not_run:
        lines.push_back("shard " + of + " of " + std::to_string(shard.shard.count) +
                        " has not run (no " + shard.file + ")" +
                        (shard.planned > 0
                             ? ": " + std::to_string(shard.missing) + " points missing"
                             : std::string()) +
                        rerun(shard.shard));
        break;
      case ShardOutcome::State::refused:
        lines.push_back(shard.refusal + "; not merged");
        break;
    }
  }
  return lines;
}

}  // namespace convlab
