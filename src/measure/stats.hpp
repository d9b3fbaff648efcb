// Summary statistics of timing samples.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

namespace convlab {

struct SampleStats {
  double min = 0, q1 = 0, median = 0, mean = 0, q3 = 0, max = 0;
  double stddev = 0;  // sample standard deviation (n - 1); 0 for one sample
  double cv = 0;      // stddev / mean
};

// q1, median and q3 interpolate linearly between order statistics (R type 7, numpy's default).
SampleStats summarize(const std::vector<double>& samples);

nlohmann::json to_json(const SampleStats& stats);

}  // namespace convlab
