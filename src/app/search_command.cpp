// `convlab search RESULTS`: search strategies replayed against a full grid measured before
// (plan/search_replay.hpp), to compare them over many seeds in seconds, without a GPU.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "app/commands.hpp"
#include "core/file_io.hpp"
#include "core/message_text.hpp"
#include "core/number_text.hpp"
#include "plan/search_replay.hpp"
#include "query/results_document.hpp"
#include "store/machine.hpp"
#include "store/results_file.hpp"

namespace convlab {
namespace {

struct SearchOptions {
  std::string path;
  std::string implementation;
  std::vector<SearchStrategy> strategies{SearchStrategy::grid, SearchStrategy::random,
                                         SearchStrategy::annealing, SearchStrategy::genetic};
  int seeds = 20;
  std::optional<std::size_t> budget;
  std::string trace;
};

void parse_strategies(const std::string& text, SearchOptions& options) {
  options.strategies.clear();
  std::stringstream list(text);
  for (std::string name; std::getline(list, name, ',');) {
    const auto strategy = parse_search_strategy(name);
    if (!strategy)
      throw ArgumentValueError("unknown strategy '" + name.substr(0, 64) +
                               "'; there are grid, random, annealing and genetic");
    options.strategies.push_back(*strategy);
  }
  if (options.strategies.empty()) throw ArgumentValueError("names no strategy");
}

CommandLine search_command_line(SearchOptions& options) {
  CommandLine line(
      "search",
      {{},
       R"(Replays search strategies against a full grid measured before: RESULTS (a results.json, or its
folder) holds every variant of NAME's params on each problem, e.g. configs/search_grid.yaml's
run. For every strategy and seed 1..N the strategy proposes variants, their recorded times
answer, and the table gives, per problem and strategy, the median over the seeds of the
measurements needed to come within 5 % and within 1 % of the grid's best, and that count as a
share of the space. The same seed and the same times give the same sequence as a real run.
)",
       "",
       "0 printed, 2 bad arguments or no grid in RESULTS."});
  const auto count = [](const std::string& text) { return parse_whole_number(text, 1, 1000000); };
  line.positional("RESULTS", options.path)
      .value("--implementation", "NAME",
             "the searched implementation (default: the one with most records)",
             options.implementation)
      .value("--strategy", "LIST",
             "comma-separated: grid, random, annealing, genetic (default: all)",
             [&](const std::string& text) { parse_strategies(text, options); })
      .value("--seeds", "N", "seeds 1 to N per strategy (default 20; grid needs one)",
             [&](const std::string& text) { options.seeds = static_cast<int>(count(text)); })
      .value("--budget", "N", "measurements per search (default: the whole space)",
             [&](const std::string& text) { options.budget = count(text); })
      .value("--trace", "FILE", "every step as TSV: problem, strategy, seed, step, best_so_far_ms",
             options.trace);
  return line;
}

// A problem's grid: every variant of the implementation, the latest record of each, in the order
// the run measured them (the config's order, which a real search's grid strategy follows and
// whose axis order gives annealing its neighbours).
struct Grid {
  std::string problem;
  std::vector<ReplayVariant> variants;
};

std::string implementation_with_most_records(const ResultsFile& results) {
  std::map<std::string, std::size_t> counts;
  for (const auto& record : results.records) ++counts[record.implementation];
  std::string best;
  for (const auto& [name, count] : counts)
    if (best.empty() || count > counts[best]) best = name;
  return best;
}

std::vector<Grid> grids_of(const ResultsFile& results, const std::string& implementation) {
  std::map<std::string, Grid> by_problem;
  std::map<std::string, std::map<std::string, std::size_t>> index;  // params text -> variant
  std::vector<std::string> order;
  for (const auto& record : results.records) {
    if (record.implementation != implementation || record.search) continue;
    const std::string problem = record.image.name + " | " + record.kernel.name + " | " +
                                record.border + " | " + record.output + " | " +
                                (record.machine ? machine_label(record, true) : std::string());
    if (!by_problem.count(problem)) {
      order.push_back(problem);
      by_problem[problem].problem = problem;
    }
    std::optional<double> objective;
    if (record.usable()) objective = record.median_ms();
    Grid& grid = by_problem[problem];
    const auto [at, added] = index[problem].emplace(record.params.dump(), grid.variants.size());
    if (added)
      grid.variants.push_back({record.params, objective});
    else
      grid.variants[at->second].objective = objective;  // a later run's record of the variant
  }
  std::vector<Grid> grids;
  for (const auto& problem : order) grids.push_back(std::move(by_problem[problem]));
  return grids;
}

std::string median_count(std::vector<std::optional<std::size_t>> counts, std::size_t space,
                         std::string* share) {
  std::vector<std::size_t> reached;
  for (const auto& c : counts)
    if (c) reached.push_back(*c);
  if (reached.size() * 2 <= counts.size()) {
    *share = "-";
    return "not reached (" + std::to_string(reached.size()) + " of " +
           std::to_string(counts.size()) + " seeds)";
  }
  // Seeds that never got there count as beyond every one that did.
  std::vector<double> all;
  for (const auto& c : counts) all.push_back(c ? double(*c) : INFINITY);
  std::sort(all.begin(), all.end());
  const double m =
      all.size() % 2 ? all[all.size() / 2] : (all[all.size() / 2 - 1] + all[all.size() / 2]) / 2;
  *share = format_fixed(100.0 * m / double(space), 1) + " %";
  // A count of measurements: 1, 12, or half-way between two counts (12.5), never 1.00.
  return format_fixed(m, std::floor(m) == m ? 0 : 1) + " (" + std::to_string(reached.size()) + "/" +
         std::to_string(counts.size()) + " seeds)";
}

void replay_grid(const Grid& grid, const SearchOptions& options, std::ostream& out,
                 std::ostream* trace) {
  const auto best = grid_best(grid.variants);
  std::size_t invalid = 0;
  for (const auto& v : grid.variants) invalid += !v.objective;
  out << "## " << grid.problem << "\n\n"
      << grid.variants.size() << " variants (" << invalid << " failed or could not run), "
      << "grid best " << (best ? format_number(*best, 4) + " ms" : "none") << "\n\n";
  if (!best) return;
  out << "| strategy | seeds | measurements to 5 % | share | measurements to 1 % | share |\n"
      << "|---|---|---|---|---|---|\n";
  const std::size_t budget = options.budget.value_or(grid.variants.size());
  for (SearchStrategy strategy : options.strategies) {
    const int seeds = strategy == SearchStrategy::grid ? 1 : options.seeds;
    std::vector<std::optional<std::size_t>> to5, to1;
    for (int seed = 1; seed <= seeds; ++seed) {
      const auto steps = replay_search(grid.variants, strategy, SearchSpec{},
                                       static_cast<std::uint64_t>(seed), budget);
      to5.push_back(evaluations_to_reach(steps, *best, 0.05));
      to1.push_back(evaluations_to_reach(steps, *best, 0.01));
      if (trace)
        for (std::size_t i = 0; i < steps.size(); ++i)
          *trace << grid.problem << "\t" << to_string(strategy) << "\t" << seed << "\t" << i + 1
                 << "\t"
                 << (std::isfinite(steps[i].best_so_far) ? format_exact(steps[i].best_so_far)
                                                         : std::string("NaN"))
                 << "\n";
    }
    std::string share5, share1;
    const std::string count5 = median_count(to5, grid.variants.size(), &share5);
    const std::string count1 = median_count(to1, grid.variants.size(), &share1);
    out << "| " << to_string(strategy) << " | " << seeds << " | " << count5 << " | " << share5
        << " | " << count1 << " | " << share1 << " |\n";
  }
  out << "\n";
}

}  // namespace

int search_command(const Arguments& args) {
  SearchOptions options;
  if (const auto status = search_command_line(options).parse(args)) return *status;
  const std::string file = results_file_of(options.path);
  const ResultsDocument document = results_document_of(file, read_results(file));
  const ResultsFile& results = document.file;
  const std::string implementation = options.implementation.empty()
                                         ? implementation_with_most_records(results)
                                         : options.implementation;
  const std::vector<Grid> grids = grids_of(results, implementation);
  if (grids.empty()) {
    std::cerr << "convlab search: " << shortened_path(file) << ": no record of '"
              << implementation.substr(0, 64) << "' outside a search to replay\n";
    return 2;
  }
  std::ostringstream trace;
  std::cout << "# Search strategies replayed on " << implementation << " (" << file << ")\n\n";
  for (const Grid& grid : grids)
    replay_grid(grid, options, std::cout, options.trace.empty() ? nullptr : &trace);
  if (!options.trace.empty())
    write_file(options.trace, "problem\tstrategy\tseed\tstep\tbest_so_far_ms\n" + trace.str(),
               WriteTarget::named);
  return 0;
}

}  // namespace convlab
