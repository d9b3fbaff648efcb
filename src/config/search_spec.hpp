// A config's `search:` block (docs/search.md): instead of measuring every variant of an
// implementation's parameter grid, a strategy chooses which variants to measure, within a budget,
// after restrictions have removed invalid ones. For the whole config (every implementation with
// more than one variant) or per implementation (`implementations: {NAME: {..., search: {...}}}`).
//
//   search: {strategy: annealing, budget: 40, seed: 1,
//            restrict: ["BLOCK_X * BLOCK_Y <= 1024", "TILE % BLOCK_X == 0"]}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config_error.hpp"
#include "impl/implementation.hpp"

namespace YAML {
class Node;
}

namespace convlab {

enum class SearchStrategy { grid, random, annealing, genetic };
enum class SearchObjective { median_ms, end_to_end };

std::string_view to_string(SearchStrategy strategy);
std::optional<SearchStrategy> parse_search_strategy(std::string_view text);
const std::vector<std::string>& search_strategy_names();
std::string_view to_string(SearchObjective objective);

struct SearchSpec {
  std::vector<SearchStrategy> strategies{SearchStrategy::grid};
  std::vector<std::uint64_t> seeds{1};
  std::optional<int> budget;          // variants measured per problem and search
  std::optional<double> max_seconds;  // or: measuring time per problem and search
  std::vector<std::string> restrict;  // expressions over params, each must hold
  SearchObjective objective = SearchObjective::median_ms;
  // annealing: the starting temperature (a relative slowdown accepted with probability 1/e) and
  // its factor per step; genetic: individuals per generation and the chance of a gene mutating.
  double temperature = 0.1;
  double cooling = 0.95;
  int population = 8;
  double mutation = 0.2;

  // Today's behaviour: every variant measured, nothing recorded of a search.
  bool measures_everything() const;
};

// One search of a sweep: the strategy and seed that tag its points (plan.hpp) and records.
struct SearchTag {
  SearchStrategy strategy = SearchStrategy::grid;
  std::uint64_t seed = 1;
  bool operator==(const SearchTag& o) const { return strategy == o.strategy && seed == o.seed; }
};

// Reads a search block; `top_level` tells whether it is the config's (then over every
// implementation) or one implementation's. Throws ConfigError at the key at fault.
SearchSpec parse_search(const YAML::Node& node, const YamlLocation& where);

// The numeric names a restriction may use for one combination of params: an integer param is its
// name, a pair NAME gives NAME_X and NAME_Y, a boolean 1 or 0; words have no number.
std::vector<std::pair<std::string, double>> restriction_names(const Params& params);

// Keeps the combinations every restriction holds for. Throws ConfigError at
// `search.restrict[i]` for an expression that does not parse, names an unknown parameter (with
// the closest name) or leaves no variant.
std::vector<Params> apply_restrictions(const std::vector<Params>& combinations,
                                       const SearchSpec& spec, const YAML::Node& restrict_node,
                                       const YamlLocation& restrict_at);

}  // namespace convlab
