// What each search of a results file found (config/search_spec.hpp): per problem, machine,
// implementation, strategy and seed, the variants it measured, its best and the step it was found
// at, and — where the same file holds the full grid of that implementation on that problem and
// machine — the grid's best, so that the found best reads as a ratio with the share of the grid
// the search measured to get there (`convlab show --search`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/record.hpp"

namespace convlab {

struct SearchOutcome {
  std::string implementation, problem, machine;
  std::string strategy;
  std::uint64_t seed = 0;
  int measured = 0;               // variants the search measured (failed ones included)
  std::optional<double> best_ms;  // nullopt: no variant ran
  nlohmann::json best_params;
  int best_step = 0;
  std::optional<double> grid_best_ms;  // where the file holds a grid of the same problem
  std::size_t grid_variants = 0;
};

std::vector<SearchOutcome> search_outcomes(const std::vector<Record>& records);

}  // namespace convlab
