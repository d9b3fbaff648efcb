#include "config/search_spec.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "config/yaml_read.hpp"
#include "core/closest_name.hpp"
#include "core/expression.hpp"

namespace convlab {
namespace {

const std::vector<std::string> kSearchKeys{"strategy",   "budget",    "max_seconds", "seed",
                                           "restrict",   "objective", "temperature", "cooling",
                                           "population", "mutation"};

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
  const std::string guess = closest_name(text, search_strategy_names());
  at.fail(node, "unknown strategy '" + text + "'" +
                    (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                    "; there are grid, random, annealing and genetic");
}

std::uint64_t read_seed(const YAML::Node& node, const YamlLocation& at) {
  const long long seed = read_integer(node, at);
  if (seed < 0) at.fail(node, "a seed is a whole number from 0");
  return static_cast<std::uint64_t>(seed);
}

double read_in(const YAML::Node& node, const YamlLocation& at, double low, double high,
               const std::string& what) {
  const double value = read_number(node, at);
  if (!(value > low && value <= high)) at.fail(node, what);
  return value;
}

void read_strategy_settings(const YAML::Node& node, const YamlLocation& where, SearchSpec& spec) {
  if (node["temperature"])
    spec.temperature = read_in(node["temperature"], where.child("temperature"), 0, 100,
                               "temperature is a relative slowdown above 0, e.g. 0.1");
  if (node["cooling"])
    spec.cooling = read_in(node["cooling"], where.child("cooling"), 0, 1,
                           "cooling is the temperature's factor per step, above 0 and at most 1");
  if (node["population"]) {
    const long long population = read_integer(node["population"], where.child("population"));
    if (population < 2 || population > 1000)
      where.child("population").fail(node["population"], "population is 2 to 1000");
    spec.population = static_cast<int>(population);
  }
  if (node["mutation"])
    spec.mutation = read_in(node["mutation"], where.child("mutation"), -1e-300, 1,
                            "mutation is a probability, 0 to 1");
}

}  // namespace

std::string_view to_string(SearchStrategy strategy) {
  switch (strategy) {
    case SearchStrategy::grid:
      return "grid";
    case SearchStrategy::random:
      return "random";
    case SearchStrategy::annealing:
      return "annealing";
    case SearchStrategy::genetic:
      return "genetic";
  }
  return "grid";
}

const std::vector<std::string>& search_strategy_names() {
  static const std::vector<std::string> names{"grid", "random", "annealing", "genetic"};
  return names;
}

std::optional<SearchStrategy> parse_search_strategy(std::string_view text) {
  for (SearchStrategy s : {SearchStrategy::grid, SearchStrategy::random, SearchStrategy::annealing,
                           SearchStrategy::genetic})
    if (to_string(s) == text) return s;
  return std::nullopt;
}

std::string_view to_string(SearchObjective objective) {
  return objective == SearchObjective::median_ms ? "median_ms" : "end_to_end";
}

bool SearchSpec::measures_everything() const {
  return strategies.size() == 1 && strategies.front() == SearchStrategy::grid && !budget &&
         !max_seconds;
}

SearchSpec parse_search(const YAML::Node& node, const YamlLocation& where) {
  require_map(node, where);
  require_known_keys(node, where, kSearchKeys);
  SearchSpec spec;
  if (node["strategy"])
    spec.strategies =
        one_or_list<SearchStrategy>(node["strategy"], where.child("strategy"), read_strategy);
  if (node["seed"])
    spec.seeds = one_or_list<std::uint64_t>(node["seed"], where.child("seed"), read_seed);
  if (node["budget"] && node["max_seconds"])
    where.child("max_seconds")
        .fail(node["max_seconds"], "give a budget of variants or of max_seconds, not both");
  if (node["budget"]) {
    const long long budget = read_integer(node["budget"], where.child("budget"));
    if (budget < 1 || budget > 1000000)
      where.child("budget").fail(node["budget"],
                                 "budget is the variants measured per problem, "
                                 "1 to 1000000");
    spec.budget = static_cast<int>(budget);
  }
  if (node["max_seconds"])
    spec.max_seconds = read_in(node["max_seconds"], where.child("max_seconds"), 0, 1e7,
                               "max_seconds is the measuring time per problem, above 0");
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
  if (const YAML::Node restrict = node["restrict"]) {
    const YamlLocation at = where.child("restrict");
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
  read_strategy_settings(node, where, spec);
  return spec;
}

std::vector<std::pair<std::string, double>> restriction_names(const Params& params) {
  std::vector<std::pair<std::string, double>> names;
  for (const auto& [name, value] : params.items()) {
    if (value.is_number()) {
      names.emplace_back(name, value.get<double>());
    } else if (value.is_boolean()) {
      names.emplace_back(name, value.get<bool>() ? 1.0 : 0.0);
    } else if (value.is_array() && value.size() == 2 && value[0].is_number()) {
      const bool upper = !name.empty() && std::isupper(static_cast<unsigned char>(name[0]));
      names.emplace_back(name + (upper ? "_X" : "_x"), value[0].get<double>());
      names.emplace_back(name + (upper ? "_Y" : "_y"), value[1].get<double>());
    }
  }
  return names;
}

std::vector<Params> apply_restrictions(const std::vector<Params>& combinations,
                                       const SearchSpec& spec, const YAML::Node& restrict_node,
                                       const YamlLocation& restrict_at) {
  if (spec.restrict.empty() || combinations.empty()) return combinations;
  std::vector<std::string> known;
  for (const auto& [name, value] : restriction_names(combinations.front())) known.push_back(name);
  std::vector<Expression> expressions;
  for (std::size_t i = 0; i < spec.restrict.size(); ++i) {
    Expression expression = Expression::parse(spec.restrict[i]);
    for (const auto& name : expression.names())
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        const std::string guess = closest_name(name, known);
        restrict_at.index(i).fail(
            restrict_node[i], "unknown parameter '" + name + "'" +
                                  (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                                  "; the numeric params here are " + [&] {
                                    std::string all;
                                    for (const auto& k : known)
                                      all += (all.empty() ? "" : ", ") + k;
                                    return all.empty() ? std::string("none") : all;
                                  }());
      }
    if (!expression.queries().empty() || !expression.functions().empty())
      restrict_at.index(i).fail(restrict_node[i],
                                "a restriction reads params only: no queries or functions");
    expressions.push_back(std::move(expression));
  }
  std::vector<Params> kept;
  for (const Params& params : combinations) {
    const auto names = restriction_names(params);
    ExpressionScope scope;
    scope.name = [&names](const std::string& name) -> std::optional<double> {
      for (const auto& [n, v] : names)
        if (n == name) return v;
      return std::nullopt;
    };
    bool holds = true;
    for (std::size_t i = 0; i < expressions.size() && holds; ++i) {
      try {
        holds = evaluate(expressions[i], scope) != 0.0;
      } catch (const ExpressionError& error) {
        restrict_at.index(i).fail(restrict_node[i], std::string(error.what()));
      }
    }
    if (holds) kept.push_back(params);
  }
  if (kept.empty())
    restrict_at.fail(restrict_node, "the restrictions leave no variant of the " +
                                        std::to_string(combinations.size()) + " to search");
  return kept;
}

}  // namespace convlab
