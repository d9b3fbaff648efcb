// `convlab search RESULTS`: search strategies replayed against a space measured whole
// (plan/search_replay.hpp) and scored as Willemsen et al. (2024) compare optimisation algorithms
// for auto-tuning (plan/search_scores.hpp), over many seeds, in seconds, without a GPU.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

#include "app/commands.hpp"
#include "core/file_io.hpp"
#include "core/message_text.hpp"
#include "core/number_text.hpp"
#include "plan/search_replay.hpp"
#include "plan/search_scores.hpp"
#include "query/results_document.hpp"
#include "store/machine.hpp"
#include "store/results_file.hpp"

namespace convlab {
namespace {

struct SearchOptions {
  std::string path;
  std::string implementation;
  std::vector<SearchStrategy> strategies = search_strategies();
  int seeds = 100;
  BudgetRange budgets;
  double cutoff = 0.95;
  std::string trace;
};

void parse_strategies(const std::string& text, SearchOptions& options) {
  options.strategies.clear();
  std::stringstream list(text);
  for (std::string name; std::getline(list, name, ',');) {
    const auto strategy = parse_search_strategy(name);
    if (!strategy)
      throw ArgumentValueError("unknown strategy '" + name.substr(0, 64) + "'; there are " +
                               search_strategy_words());
    options.strategies.push_back(*strategy);
  }
  if (options.strategies.empty()) throw ArgumentValueError("names no strategy");
}

void parse_budgets(const std::string& text, SearchOptions& options) {
  const auto dots = text.find("..");
  if (dots == std::string::npos)
    throw ArgumentValueError("'" + text.substr(0, 64) +
                             "' is not a range FIRST..LAST, e.g. 20..400");
  options.budgets.first =
      static_cast<std::size_t>(parse_whole_number(text.substr(0, dots), 1, 1000000));
  options.budgets.last =
      static_cast<std::size_t>(parse_whole_number(text.substr(dots + 2), 1, 1000000));
  if (options.budgets.last < options.budgets.first)
    throw ArgumentValueError("the range " + text.substr(0, 64) + " ends before it starts");
}

double parse_share(const std::string& text) {
  char* end = nullptr;
  const double share = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(share > 0.0 && share <= 1.0))
    throw ArgumentValueError("'" + text.substr(0, 64) +
                             "' is not a share above 0 and at most 1, e.g. 0.95");
  return share;
}

CommandLine search_command_line(SearchOptions& options) {
  CommandLine line(
      "search",
      {{},
       R"(Replays search strategies against a space measured whole: RESULTS (a results.json, or its
folder) holds every variant of NAME's params on each problem, e.g. configs/search_grid.yaml's or
configs/tuning_convolution.yaml's run. For every strategy and seed 1..N the strategy proposes
variants and their recorded times answer, as in a real run. Each strategy is scored as Willemsen
et al. (2024) compare optimisation algorithms for auto-tuning: at every budget of the range, its
mean best so far standardised between a random search (0, its expected best calculated from the
space) and the space's optimum (1), averaged over the range, which ends where the random search
has come most of the way to the optimum (--cutoff); with the score at the range's first, middle
and last budget and the median measurements to come within 1 % of the optimum.
docs/search.md explains the table.
)",
       "",
       "0 printed, 2 bad arguments or no measured space in RESULTS."});
  const auto count = [](const std::string& text) { return parse_whole_number(text, 1, 100000); };
  line.positional("RESULTS", options.path)
      .value("--implementation", "NAME",
             "the searched implementation (default: the one with most records)",
             options.implementation)
      .value("--strategy", "LIST", "comma-separated strategies (default: all)",
             [&](const std::string& text) { parse_strategies(text, options); })
      .value("--seeds", "N", "seeds 1 to N per strategy (default 100; grid needs one)",
             [&](const std::string& text) { options.seeds = static_cast<int>(count(text)); })
      .value("--budgets", "FIRST..LAST",
             "the budgets scored, in measurements (default 20..400); each search measures up to "
             "LAST",
             [&](const std::string& text) { parse_budgets(text, options); })
      .value("--cutoff", "P",
             "the range ends where a random search has come P of the way from the space's median "
             "to its optimum (default 0.95; 1 scores the whole range)",
             [&](const std::string& text) { options.cutoff = parse_share(text); })
      .value("--trace", "FILE", "every step as TSV: problem, strategy, seed, step, best_so_far_ms",
             options.trace);
  return line;
}

// A problem's space: every variant of the implementation, the latest record of each, in the
// order the run measured them (the config's order, which a real search's grid strategy follows).
struct MeasuredSpace {
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

// What a space is measured on: the GPU and its driver (or the CPU), not the host's name, so that
// parts of one space measured on machines of one kind, a call each, make one space.
std::string measured_on(const Record& record) {
  if (!record.machine) return "";
  const RecordMachine& machine = *record.machine;
  if (record.is_cuda() && machine.gpu && !machine.gpu->empty())
    return *machine.gpu + (machine.gpu_driver ? " driver " + *machine.gpu_driver : std::string());
  return machine.cpu_model;
}

std::vector<MeasuredSpace> spaces_of(const ResultsFile& results,
                                     const std::string& implementation) {
  std::map<std::string, MeasuredSpace> by_problem;
  std::map<std::string, std::map<std::string, std::size_t>> index;  // params text -> variant
  std::vector<std::string> order;
  for (const auto& record : results.records) {
    if (record.implementation != implementation || record.search) continue;
    const std::string problem = record.image.name + " | " + record.kernel.name + " | " +
                                record.border + " | " + record.output + " | " + measured_on(record);
    if (!by_problem.count(problem)) {
      order.push_back(problem);
      by_problem[problem].problem = problem;
    }
    std::optional<double> objective;
    if (record.usable()) objective = record.median_ms();
    MeasuredSpace& space = by_problem[problem];
    const auto [at, added] = index[problem].emplace(record.params.dump(), space.variants.size());
    if (added)
      space.variants.push_back({record.params, objective});
    else
      space.variants[at->second].objective = objective;  // a later run's record of the variant
  }
  std::vector<MeasuredSpace> spaces;
  for (const auto& problem : order) spaces.push_back(std::move(by_problem[problem]));
  return spaces;
}

std::string median_count(std::vector<std::optional<std::size_t>> counts) {
  std::vector<double> all;
  std::size_t reached = 0;
  for (const auto& c : counts) {
    all.push_back(c ? double(*c) : INFINITY);  // never reached: beyond every seed that did
    reached += c.has_value();
  }
  std::sort(all.begin(), all.end());
  const double m =
      all.size() % 2 ? all[all.size() / 2] : (all[all.size() / 2 - 1] + all[all.size() / 2]) / 2;
  const std::string seeds =
      " (" + std::to_string(reached) + "/" + std::to_string(counts.size()) + " seeds)";
  if (!std::isfinite(m)) return "not reached" + seeds;
  // A count of measurements: 1, 12, or half-way between two counts (12.5), never 1.00.
  return format_fixed(m, std::floor(m) == m ? 0 : 1) + seeds;
}

std::string score_text(double value) {
  return format_fixed(value, 2) == "-0.00" ? "0.00" : format_fixed(value, 2);
}

// The budgets P is shown at: the range's first, middle and last.
std::vector<std::size_t> shown_budgets(const BudgetRange& range) {
  std::vector<std::size_t> shown{range.first};
  for (std::size_t b : {(range.first + range.last) / 2, range.last})
    if (b != shown.back()) shown.push_back(b);
  return shown;
}

// One strategy's row, and its searches into `trace`.
std::string strategy_row(const Replay& replay, const MeasuredSpace& space, SearchStrategy strategy,
                         int seeds, std::size_t budget, const RandomBaseline& baseline,
                         const BudgetRange& range, std::ostream* trace) {
  std::vector<std::vector<SearchStep>> searches;
  std::vector<std::optional<std::size_t>> to_1;
  for (int seed = 1; seed <= seeds; ++seed) {
    searches.push_back(
        replay.search(strategy, SearchSpec{}, static_cast<std::uint64_t>(seed), budget));
    to_1.push_back(evaluations_to_reach(searches.back(), baseline.optimum(), 0.01));
    if (trace)
      for (std::size_t i = 0; i < searches.back().size(); ++i) {
        const double best = searches.back()[i].best_so_far;
        *trace << space.problem << "\t" << to_string(strategy) << "\t" << seed << "\t" << i + 1
               << "\t" << (std::isfinite(best) ? format_exact(best) : std::string("NaN")) << "\n";
      }
  }
  const StrategyScore score = score_strategy(searches, baseline, range, shown_budgets(range));
  std::string row = "| " + std::string(to_string(strategy)) + " | " + std::to_string(seeds) +
                    " | " + score_text(score.score) +
                    (seeds > 1 ? " ± " + format_fixed(score.margin, 2) : std::string());
  for (const auto& at : score.at) row += " | " + (at ? score_text(*at) : std::string("-"));
  return row + " | " + median_count(to_1) + " |\n";
}

void replay_space(const MeasuredSpace& space, const SearchOptions& options, std::ostream& out,
                  std::ostream* trace) {
  const auto best = space_best(space.variants);
  std::size_t failed = 0;
  std::vector<std::optional<double>> objectives;
  for (const auto& v : space.variants) {
    failed += !v.objective;
    objectives.push_back(v.objective);
  }
  out << "## " << space.problem << "\n\n"
      << space.variants.size() << " variants (" << failed << " failed or could not run), the best "
      << (best ? format_number(*best, 4) + " ms" : "none");
  if (!best) {
    out << "\n\n";
    return;
  }
  const RandomBaseline baseline(objectives);
  const BudgetRange range = scored_budgets(options.budgets, baseline, options.cutoff);
  const std::size_t budget = std::min(options.budgets.last, space.variants.size());
  if (range.last < range.first) {
    out << "; a random search comes " << format_exact(100 * options.cutoff)
        << " % of the way from the median to the optimum in " << range.last
        << " measurements, before the first budget scored (" << options.budgets.first
        << "): nothing to score\n\n";
    return;
  }
  out << ", the median " << format_number(baseline.median(), 4) << " ms; scored at budgets "
      << range.first << " to " << range.last;
  if (range.last < options.budgets.last)
    out << " (where a random search has come " << format_exact(100 * options.cutoff)
        << " % of the way from the median to the optimum)";
  out << ", each search measuring up to " << budget << "\n\n";
  const std::vector<std::size_t> shown = shown_budgets(range);
  out << "| strategy | seeds | score";
  for (std::size_t b : shown) out << " | at " << b;
  out << " | measurements to within 1 % |\n|---|---|---|";
  for (std::size_t b = 0; b <= shown.size(); ++b) out << "---|";
  out << "\n";
  const Replay replay(space.variants);
  for (SearchStrategy strategy : options.strategies)
    out << strategy_row(replay, space, strategy,
                        strategy == SearchStrategy::grid ? 1 : options.seeds, budget, baseline,
                        range, trace);
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
  const std::vector<MeasuredSpace> spaces = spaces_of(results, implementation);
  if (spaces.empty()) {
    std::cerr << "convlab search: " << shortened_path(file) << ": no record of '"
              << implementation.substr(0, 64) << "' outside a search to replay\n";
    return 2;
  }
  std::ostringstream trace;
  std::cout << "# Search strategies replayed on " << implementation << " (" << file << ")\n\n";
  for (const MeasuredSpace& space : spaces)
    replay_space(space, options, std::cout, options.trace.empty() ? nullptr : &trace);
  if (!options.trace.empty())
    write_file(options.trace, "problem\tstrategy\tseed\tstep\tbest_so_far_ms\n" + trace.str(),
               WriteTarget::named);
  return 0;
}

}  // namespace convlab
