#include "measure/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace convlab {
namespace {

double sorted_quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double position = q * static_cast<double>(sorted.size() - 1);
  const size_t lower = static_cast<size_t>(std::floor(position));
  const size_t upper = std::min(lower + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(lower);
  return sorted[lower] + fraction * (sorted[upper] - sorted[lower]);
}

}  // namespace

SampleStats summarize(const std::vector<double>& samples) {
  SampleStats s;
  if (samples.empty()) return s;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  s.q1 = sorted_quantile(sorted, 0.25);
  s.median = sorted_quantile(sorted, 0.5);
  s.q3 = sorted_quantile(sorted, 0.75);
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
  if (sorted.size() > 1) {
    double squares = 0.0;
    for (double v : sorted) squares += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(squares / static_cast<double>(sorted.size() - 1));
  }
  s.cv = s.mean > 0 ? s.stddev / s.mean : 0.0;
  return s;
}

nlohmann::json to_json(const SampleStats& s) {
  return {{"min", s.min}, {"q1", s.q1},   {"median", s.median}, {"mean", s.mean},
          {"q3", s.q3},   {"max", s.max}, {"stddev", s.stddev}, {"cv", s.cv}};
}

}  // namespace convlab
