// The kernel library: builds every named filter from its parameters (through its descriptor,
// filters/filter_descriptor.hpp) and detects separability. docs/config.md ("kernels") states every
// formula; tests/test_filters.cpp checks them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/filter.hpp"
#include "filters/filter_descriptor.hpp"

namespace convlab {

// Throws FilterError for an unknown type or a request its descriptor refuses.
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
