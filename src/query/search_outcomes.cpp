#include "query/search_outcomes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "store/machine.hpp"

namespace convlab {
namespace {

std::string problem_of(const Record& r) {
  return r.image.name + ", " + r.kernel.name + ", " + r.border + ", " + r.output;
}

void add_seconds(std::optional<double>& sum, const std::optional<double>& seconds) {
  if (seconds) sum = sum.value_or(0.0) + *seconds;
}

}  // namespace

std::vector<SearchOutcome> search_outcomes(const std::vector<Record>& records) {
  using Key =
      std::tuple<std::string, std::string, std::string>;  // implementation, problem, machine
  std::map<Key, std::pair<double, std::size_t>> grids;    // best, variants
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::uint64_t>,
           SearchOutcome>
      searches;
  std::vector<decltype(searches)::key_type> order;
  for (const Record& r : records) {
    const std::string machine = machine_key(r);
    if (!r.search) {
      auto& grid = grids[{r.implementation, problem_of(r), machine}];
      if (grid.second == 0) grid.first = INFINITY;
      ++grid.second;
      if (r.usable() && r.median_ms() < grid.first) grid.first = r.median_ms();
      continue;
    }
    const auto key = std::make_tuple(r.implementation, problem_of(r), machine, r.search->strategy,
                                     r.search->seed);
    auto [found, inserted] = searches.try_emplace(key);
    SearchOutcome& outcome = found->second;
    if (inserted) {
      order.push_back(key);
      outcome.implementation = r.implementation;
      outcome.problem = problem_of(r);
      outcome.machine = r.machine ? r.machine->label : "";
      outcome.strategy = r.search->strategy;
      outcome.seed = r.search->seed;
    }
    ++outcome.measured;
    add_seconds(outcome.compile_s, r.search->compile_s);
    add_seconds(outcome.measure_s, r.search->measure_s);
    if (r.search->elapsed_s)
      outcome.elapsed_s = std::max(outcome.elapsed_s.value_or(0.0), *r.search->elapsed_s);
    if (r.usable() && (!outcome.best_ms || r.median_ms() < *outcome.best_ms)) {
      outcome.best_ms = r.median_ms();
      outcome.best_params = r.params;
      outcome.best_step = r.search->step;
    }
  }
  std::vector<SearchOutcome> outcomes;
  for (const auto& key : order) {
    SearchOutcome outcome = searches[key];
    const auto grid = grids.find({std::get<0>(key), std::get<1>(key), std::get<2>(key)});
    if (grid != grids.end() && std::isfinite(grid->second.first)) {
      outcome.grid_best_ms = grid->second.first;
      outcome.grid_variants = grid->second.second;
    }
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

std::string params_words(const nlohmann::json& params) {
  std::string text;
  for (const auto& [name, value] : params.items()) {
    std::string shown = value.is_string() ? value.get<std::string>() : value.dump();
    // [32,8] as [32, 8]
    for (std::size_t at = shown.find(','); at != std::string::npos; at = shown.find(',', at + 2))
      if (!value.is_string()) shown.insert(at + 1, " ");
    text += (text.empty() ? "" : ", ") + name + "=" + shown;
  }
  return text;
}

}  // namespace convlab
