// A config's `search:` block (docs/search.md): instead of measuring every variant of an
// implementation's parameter grid, a strategy chooses which variants to measure, within a budget
// of variants or of seconds, among those its restrictions allow. For the whole config (every
// implementation with more than one variant) or per implementation
// (`implementations: {NAME: {..., search: {...}}}`).
//
//   search: {strategy: annealing, budget: 40, seed: 1,
//            restrict: ["BLOCK_X * BLOCK_Y <= 1024", "TILE % BLOCK_X == 0"]}
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config_error.hpp"
#include "config/search_strategies.hpp"

namespace YAML {
class Node;
}

namespace convlab {

enum class SearchStrategy {
#define CONVLAB_SEARCH_ENUMERATOR(name) name,
  CONVLAB_SEARCH_STRATEGIES(CONVLAB_SEARCH_ENUMERATOR)
#undef CONVLAB_SEARCH_ENUMERATOR
};
enum class SearchObjective { median_ms, end_to_end };

// Every strategy, in the rows' order.
const std::vector<SearchStrategy>& search_strategies();
std::string_view to_string(SearchStrategy strategy);
std::optional<SearchStrategy> parse_search_strategy(std::string_view text);
// "grid, random, annealing, ... and tpe": for messages.
std::string search_strategy_words();
std::string_view to_string(SearchObjective objective);

// A number a strategy reads from the block (temperature, population, ...): its default, its range
// and what it means, for the reader, the schema and docs/search.md.
struct SearchSetting {
  std::string key;
  double fallback = 0.0;
  double low = 0.0, high = 0.0;  // the value is above `low` (from `low` when `from_low`), at most
                                 // `high`
  bool from_low = false;
  bool whole = false;      // a whole number
  std::string strategies;  // which strategies read it, in words
  std::string description;
};
const std::vector<SearchSetting>& search_settings();

// Variants proposed ahead of the measurements by default: compiled meanwhile, in parallel.
constexpr int kDefaultSearchAhead = 4;

struct SearchSpec {
  std::vector<SearchStrategy> strategies{SearchStrategy::grid};
  std::vector<std::uint64_t> seeds{1};
  std::optional<int> budget;          // variants measured per problem and search
  std::optional<double> max_seconds;  // and/or: seconds per problem and search (compiles waited
                                      // for and measurements)
  std::vector<std::string> restrict;  // expressions over params, each must hold
  SearchObjective objective = SearchObjective::median_ms;
  // Variants proposed ahead of the measurements, compiled in parallel meanwhile; part of the
  // sequence (the same seed, times and `ahead` give the same variants).
  int ahead = kDefaultSearchAhead;
  std::map<std::string, double> settings;  // those the config gives (search_settings())

  // The value of a setting: the config's, else its default.
  double setting(const std::string& key) const;
  // Today's behaviour: every variant measured, nothing recorded of a search.
  bool measures_everything() const;
};

// One search of a sweep: the strategy and seed that tag its points (plan.hpp) and records.
struct SearchTag {
  SearchStrategy strategy = SearchStrategy::grid;
  std::uint64_t seed = 1;
  bool operator==(const SearchTag& o) const { return strategy == o.strategy && seed == o.seed; }
};

// Reads a search block. Throws ConfigError at the key at fault; restrictions are checked
// against the params by config/search_domain.hpp.
SearchSpec parse_search(const YAML::Node& node, const YamlLocation& where);

}  // namespace convlab
