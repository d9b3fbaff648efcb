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
  std::string implementation;
  std::string problem;  // "noise-4096, gaussian7, replicate, u8"
  std::string machine;
  std::string strategy;
  std::uint64_t seed = 0;
  int measured = 0;               // variants the search measured (failed ones included)
  std::optional<double> best_ms;  // nullopt: no variant ran
  nlohmann::json best_params;
  int best_step = 0;
  // Seconds its variants spent compiling and being measured, and the search's time (the
  // compiles it waited for and its measurements); nullopt for records of earlier versions.
  std::optional<double> compile_s, measure_s, elapsed_s;
  std::optional<double> grid_best_ms;  // where the file holds a grid of the same problem
  std::size_t grid_variants = 0;
};

std::vector<SearchOutcome> search_outcomes(const std::vector<Record>& records);

// "BLOCK=[32, 8], PX=2": params as a search's best is named.
std::string params_words(const nlohmann::json& params);

}  // namespace convlab
