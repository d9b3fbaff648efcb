// The kernel library: builds every named filter from its parameters and detects separability.
// docs/config.md ("kernels") states every formula; tests/test_filters.cpp checks them.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/filter.hpp"

namespace convlab {

struct FilterTypeInfo {
  std::string type;
  std::string summary;
  int fixed_size = 0;             // 0: any odd size; otherwise the only size the filter has
  std::vector<std::string> keys;  // parameter keys accepted besides `type`
};

const std::vector<FilterTypeInfo>& filter_types();
const FilterTypeInfo* find_filter_type(const std::string& type);

// One resolved request: a single size (sweeps are expanded by the config layer).
struct FilterRequest {
  std::string type;
  int size = 3;
  std::optional<double> sigma;   // gaussian, log, dog
  std::optional<double> sigma2;  // dog: the wider Gaussian (default 1.6 x sigma)
  bool normalize = false;        // divide by the sum of the weights
  std::string custom_name;
  std::vector<std::vector<double>> matrix;  // custom
};

// Thrown for a request that cannot make a filter; the message names the offending parameter.
class FilterError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

Filter make_filter(const FilterRequest& request);

// OpenCV's rule when sigma is not given: 0.3 * ((K - 1) * 0.5 - 1) + 0.8.
double default_sigma(int size);

// Rank-1 factorisation column x row of a size x size matrix, or nullopt when the matrix is not
// rank 1 within `relative_tolerance` of its largest magnitude.
struct Separation {
  std::vector<double> column;
  std::vector<double> row;
};
std::optional<Separation> factor_rank1(const std::vector<double>& weights, int size,
                                       double relative_tolerance = 1e-6);

}  // namespace convlab
