#include "config/search_spec.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "config/yaml_read.hpp"
#include "core/closest_name.hpp"
#include "core/expression.hpp"

namespace convlab {
namespace {

const std::vector<std::string> kBlockKeys{"strategy", "budget",    "max_seconds", "seed",
                                          "restrict", "objective", "ahead"};

const std::vector<std::string>& strategy_names() {
  static const std::vector<std::string> names{
#define CONVLAB_SEARCH_NAME(name) #name,
      CONVLAB_SEARCH_STRATEGIES(CONVLAB_SEARCH_NAME)
#undef CONVLAB_SEARCH_NAME
  };
  return names;
}

template <typename T>
std::vector<T> one_or_list(const YAML::Node& node, const YamlLocation& at,
                           T (*read)(const YAML::Node&, const YamlLocation&)) {
  std::vector<T> values;
  if (node.IsSequence()) {
    if (node.size() == 0) at.fail(node, "an empty list chooses nothing; give at least one");
    for (std::size_t i = 0; i < node.size(); ++i) {
      T value = read(node[i], at.index(i));
      if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
    }
  } else {
    values.push_back(read(node, at));
  }
  return values;
}

SearchStrategy read_strategy(const YAML::Node& node, const YamlLocation& at) {
  const std::string text = read_string(node, at);
  if (auto strategy = parse_search_strategy(text)) return *strategy;
  const std::string guess = closest_name(text, strategy_names());
  at.fail(node, "unknown strategy '" + text + "'" +
                    (guess.empty() ? "" : " (did you mean '" + guess + "'?)") + "; there are " +
                    search_strategy_words());
}

std::uint64_t read_seed(const YAML::Node& node, const YamlLocation& at) {
  const long long seed = read_integer(node, at);
  if (seed < 0) at.fail(node, "a seed is a whole number from 0");
  return static_cast<std::uint64_t>(seed);
}

std::string range_words(const SearchSetting& setting) {
  const auto number = [](double v) {
    std::string text = std::to_string(v);
    text.erase(text.find_last_not_of('0') + 1);
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
  };
  return setting.key + " is " + (setting.whole ? "a whole number " : "") +
         (setting.from_low ? "from " : "above ") + number(setting.low) + " to " +
         number(setting.high) + ": " + setting.description;
}

double read_setting(const SearchSetting& setting, const YAML::Node& node, const YamlLocation& at) {
  const double value = setting.whole ? double(read_integer(node, at)) : read_number(node, at);
  const bool above = setting.from_low ? value >= setting.low : value > setting.low;
  if (!(above && value <= setting.high)) at.fail(node, range_words(setting));
  return value;
}

void read_restrictions(const YAML::Node& restrict, const YamlLocation& at, SearchSpec& spec) {
  if (!restrict.IsSequence()) at.fail(restrict, "restrict is a list of expressions, in quotes");
  for (std::size_t i = 0; i < restrict.size(); ++i) {
    const std::string text = read_string(restrict[i], at.index(i));
    try {
      Expression::parse(text);
    } catch (const ExpressionError& error) {
      at.index(i).fail(restrict[i], "'" + text + "': " + error.what() + " at character " +
                                        std::to_string(error.position() + 1));
    }
    spec.restrict.push_back(text);
  }
}

// A whole number from 1 to `most` at `key`.
int read_count(const YAML::Node& node, const YamlLocation& where, const char* key, long long most,
               const std::string& what) {
  const long long count = read_integer(node[key], where.child(key));
  if (count < 1 || count > most) where.child(key).fail(node[key], what);
  return static_cast<int>(count);
}

std::vector<std::string> known_keys() {
  std::vector<std::string> keys = kBlockKeys;
  for (const SearchSetting& setting : search_settings()) keys.push_back(setting.key);
  return keys;
}

}  // namespace

const std::vector<SearchStrategy>& search_strategies() {
  static const std::vector<SearchStrategy> all{
#define CONVLAB_SEARCH_VALUE(name) SearchStrategy::name,
      CONVLAB_SEARCH_STRATEGIES(CONVLAB_SEARCH_VALUE)
#undef CONVLAB_SEARCH_VALUE
  };
  return all;
}

std::string_view to_string(SearchStrategy strategy) {
  return strategy_names().at(static_cast<std::size_t>(strategy));
}

std::optional<SearchStrategy> parse_search_strategy(std::string_view text) {
  const auto& names = strategy_names();
  const auto found = std::find(names.begin(), names.end(), text);
  if (found == names.end()) return std::nullopt;
  return static_cast<SearchStrategy>(found - names.begin());
}

std::string search_strategy_words() {
  const auto& names = strategy_names();
  std::string words;
  for (std::size_t i = 0; i < names.size(); ++i)
    words += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return words;
}

std::string_view to_string(SearchObjective objective) {
  return objective == SearchObjective::median_ms ? "median_ms" : "end_to_end";
}

const std::vector<SearchSetting>& search_settings() {
  static const std::vector<SearchSetting> settings{
      {"temperature", 0.1, 0, 100, false, false, "annealing, dual_annealing",
       "the relative slowdown accepted with probability 1/e at the start, e.g. 0.1"},
      {"cooling", 0.95, 0, 1, false, false, "annealing",
       "the temperature's factor per measurement, above 0 and at most 1"},
      {"population", 8, 2, 1000, true, true, "genetic",
       "the elite kept, whose children are measured"},
      {"mutation", 0.2, 0, 1, true, false, "genetic",
       "the chance of a param of a child taking a random value, 0 to 1"},
      {"restart", 0.1, 0, 1, true, false, "greedy_ils",
       "the chance of starting again from a random variant instead of perturbing the best"},
      {"gamma", 0.2, 0, 0.5, false, false, "tpe",
       "the share of the variants measured that the model takes as good"},
  };
  return settings;
}

double SearchSpec::setting(const std::string& key) const {
  const auto given = settings.find(key);
  if (given != settings.end()) return given->second;
  for (const SearchSetting& setting : search_settings())
    if (setting.key == key) return setting.fallback;
  return 0.0;
}

bool SearchSpec::measures_everything() const {
  return strategies.size() == 1 && strategies.front() == SearchStrategy::grid && !budget &&
         !max_seconds;
}

SearchSpec parse_search(const YAML::Node& node, const YamlLocation& where) {
  require_map(node, where);
  require_known_keys(node, where, known_keys());
  SearchSpec spec;
  if (node["strategy"])
    spec.strategies =
        one_or_list<SearchStrategy>(node["strategy"], where.child("strategy"), read_strategy);
  if (node["seed"])
    spec.seeds = one_or_list<std::uint64_t>(node["seed"], where.child("seed"), read_seed);
  if (node["budget"])
    spec.budget = read_count(node, where, "budget", 1000000,
                             "budget is the variants measured per problem, 1 to 1000000");
  if (node["max_seconds"]) {
    spec.max_seconds = read_number(node["max_seconds"], where.child("max_seconds"));
    if (!(*spec.max_seconds > 0 && *spec.max_seconds <= 1e7))
      where.child("max_seconds")
          .fail(node["max_seconds"],
                "max_seconds is the time per problem and search (compiles waited for and "
                "measurements), above 0");
  }
  if (node["ahead"])
    spec.ahead = read_count(node, where, "ahead", 64,
                            "ahead is the variants proposed ahead of the measurements and "
                            "compiled meanwhile, 1 to 64");
  if (node["objective"]) {
    const std::string objective = read_string(node["objective"], where.child("objective"));
    if (objective == "end_to_end")
      spec.objective = SearchObjective::end_to_end;
    else if (objective != "median_ms")
      where.child("objective")
          .fail(node["objective"],
                "objective is median_ms (the timed compute or kernel) or "
                "end_to_end (with the copies)");
  }
  if (const YAML::Node restrict = node["restrict"])
    read_restrictions(restrict, where.child("restrict"), spec);
  for (const SearchSetting& setting : search_settings())
    if (node[setting.key])
      spec.settings[setting.key] =
          read_setting(setting, node[setting.key], where.child(setting.key));
  return spec;
}

}  // namespace convlab
