// `convlab history run`: the convlab of each commit built in a worktree of its own and run on one
// config, each commit's results kept apart in a history folder (history/history_index.hpp). The
// builds are cached by commit and CMake arguments; a history run again resumes where it stopped;
// a commit that does not build, refuses the config or fails points is recorded with the reason.
#pragma once

#include <string>
#include <vector>

namespace convlab {

struct HistoryRunOptions {
  std::string config_path;
  std::vector<std::string> commits;  // the COMMITS arguments
  int every = 1;                     // --every N
  std::string out;                   // the history folder; default outputs/history_<name>
  std::string repository = ".";      // --repo: where the commits are
  std::string cache;  // --cache; default $CONVLAB_HISTORY_DIR, else REPO/build/history
  std::vector<std::string> cmake_args;  // --cmake-arg, after those of this build
  bool inherit_cmake_args = true;       // false: --no-inherit
  unsigned jobs = 0;                    // --jobs; 0: the logical CPUs
  bool retry_failed = false;            // --retry-failed: failed builds and runs are made again
};

// Returns the exit status: 0 every commit ran (failures of commits are recorded, not errors),
// 130 interrupted, 2 bad arguments or a folder that cannot be used (message on stderr).
int run_history(const HistoryRunOptions& options);

}  // namespace convlab
