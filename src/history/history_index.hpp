// A history folder (`convlab history run`, docs/history.md): one experiment measured by the
// convlab of each of several commits, each commit's results apart. history.json is its index,
// typed here; to_json and history_index_from_json are the only place its JSON names appear.
//
//   DIR/history.json                          the commits in order and how each run went
//   DIR/machines/<machine>/<commit>/results.json   that commit's convlab's results on that machine
//   DIR/machines/<machine>/<commit>/build.log and run.log
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "measure/cpu_calibration.hpp"

namespace convlab {

// A history folder or an argument about one that cannot be used: the message names the file and
// key; the command prints it and exits 2.
class HistoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr const char* kHistoryIndexFile = "history.json";
inline constexpr int kHistoryIndexVersion = 1;

struct HistoryCommit {
  std::string id;       // the full commit id
  std::string subject;  // the first line of its message
  std::string date;     // committer date, ISO 8601
  long long time = 0;   // committer date, seconds since the epoch: the order of the history
};

// How the run of one commit on one machine ended.
enum class CommitOutcome {
  ok,             // built, ran, every point ok or skipped
  points_failed,  // built and ran; some points failed (their records say why)
  build_failed,   // the commit's convlab did not configure or build
  run_failed,     // its convlab refused the config or stopped (an older convlab may not know
                  // a newer key), or wrote no readable results
  interrupted     // stopped by SIGINT or SIGTERM; `history run` again resumes it
};
const char* to_string(CommitOutcome outcome);
std::optional<CommitOutcome> commit_outcome_named(const std::string& name);

// The machine a commit ran on, as `history run` found it: the host (cpu model, hostname, host id,
// as store/machine.hpp keys records) and a folder name of it.
struct HistoryMachine {
  std::string folder;  // "vm-1a2b3c4d": the hostname and 8 hex digits of the host's key
  std::string label;   // "AMD EPYC 7B13 (vm)"
  std::string key;     // cpu_model, hostname, host id
};

struct CommitRun {
  std::string commit;  // full id
  HistoryMachine machine;
  CommitOutcome outcome = CommitOutcome::ok;
  std::string reason;  // why it failed, the last lines of its log; empty when ok
  // The CPU calibration `history run` measured just before running the commit's convlab, on the
  // threads it runs on: the run block of a convlab older than the calibration records none.
  std::optional<CpuCalibration> calibration;
  bool build_cached = false;  // the commit's convlab was built before and taken from the cache
  double build_seconds = 0.0, run_seconds = 0.0;
  std::string finished;  // ISO 8601 UTC

  // Relative to the history folder.
  std::string folder() const;  // machines/<machine>/<commit>
  std::string results() const;
};

struct HistoryIndex {
  int version = kHistoryIndexVersion;
  std::string experiment;   // the config's name
  std::string config_path;  // as given to `history run`
  std::string repository;   // the git repository the commits come from
  std::vector<std::string> cmake_args;
  std::vector<HistoryCommit> commits;  // oldest first
  std::vector<CommitRun> runs;

  // The commit's place in `commits`; nullopt when it is not there.
  std::optional<std::size_t> commit_index(const std::string& id) const;
  const CommitRun* run_of(const std::string& commit, const std::string& machine_folder) const;
  // Adds the commits not there yet and keeps `commits` in committer-date order (stable).
  void add_commits(const std::vector<HistoryCommit>& more);
  // Puts `run` in place of the run of its commit and machine, or adds it.
  void record(const CommitRun& run);
};

nlohmann::json to_json(const HistoryIndex& index);
// Throws HistoryError naming `file` and the key that is wrong.
HistoryIndex history_index_from_json(const nlohmann::json& j, const std::string& file);

// DIR/history.json read; HistoryError when it is missing or not one.
HistoryIndex read_history_index(const std::string& dir);
// Whether DIR holds a history.json.
bool holds_history(const std::string& dir);
// Written whole (a temporary file and a rename), so an interruption keeps the previous index.
void write_history_index(const std::string& dir, const HistoryIndex& index);

}  // namespace convlab
