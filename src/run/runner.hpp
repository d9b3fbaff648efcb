// `convlab run`: executes a config's plan point by point, verifies every output against the
// reference, appends every finished point to the results folder's journal and folds it into
// results.json when the run ends or is stopped.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/point_filter.hpp"

namespace convlab {

// A command-line argument that cannot work with this config (exit 2, nothing written).
class RunArgumentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// quiet: no progress and no table (failed points are still named); verbose: a line per point
// with its repetitions, median and CV, on a terminal too.
enum class Verbosity { quiet, normal, verbose };

struct RunOptions {
  std::string config_path;
  std::string out_dir;  // default outputs/<name>
  std::optional<PointFilter> filter;
  bool force = false;
  bool dry_run = false;
  int cuda_device = 0;
  long max_points = -1;  // stop after running this many points (-1: no limit)
  Verbosity verbosity = Verbosity::normal;
  std::vector<std::string> argv;
};

// Exit codes: 0 all points ok or skipped, 1 a verification or runtime failure, 2 bad input.
// `config` is the one options.config_path names, loaded and checked.
int run_experiment(const RunOptions& options, Config config);

}  // namespace convlab
