// Which points of a plan a run would keep from its results file instead of measuring them: those
// with an ok record measured by this build on this host, with the same measure settings (and, for
// a user's kernel, the same source). ProgressObserver's ETA, `convlab validate` and `--dry-run`
// ("0 new points (744 measured)") ask it before any image is made. The run itself decides by the
// record key (run/point_executor.hpp), which also hashes the image's bytes and, for CUDA points,
// names the device opened: a photograph edited since its records, or another GPU of the host,
// makes a point counted as measured here run all the same.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "store/results_file.hpp"

namespace convlab {

// The measure block a point of `implementation` is measured with, as the resolved config (and a
// run block's copy of it) holds it: the config's, or its per_implementation entry.
nlohmann::json point_measure_json(const nlohmann::json& resolved_config,
                                  const std::string& implementation);

class MeasuredPoints {
 public:
  MeasuredPoints() = default;  // nothing measured (--force, or no results file)
  explicit MeasuredPoints(const ResultsFile& results);

  bool has(const Config& config, const Point& point) const;

 private:
  std::set<std::string> measured_;
};

// The results file at `path` as MeasuredPoints reads it; nothing measured when there is none.
// Throws ResultsFileError when it cannot be read.
MeasuredPoints measured_points_at(const std::string& path);

// "0 new points (744 measured)": of the points that will run, those to measure and those kept.
std::string new_points_text(std::size_t to_run, std::size_t measured);

}  // namespace convlab
