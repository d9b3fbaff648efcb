// Search strategies (docs/search.md): deterministic, never repeating, within their budget; the
// search block's checks; a search in a real run that continues where it stopped; and strategies
// replayed against a measured grid (`convlab search`), the committed 384-variant grid among them,
// whose comparison docs/search.md quotes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "plan/search_replay.hpp"
#include "plan/search_strategy.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;
using testing::read_text;
using testing::run_shell;
using testing::write_text;

// A bowl over three axes of 8 values, its bottom at (5, 2, 6), with a band of variants that
// cannot run.
std::vector<ReplayVariant> bowl() {
  std::vector<ReplayVariant> variants;
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b)
      for (int c = 0; c < 8; ++c) {
        std::optional<double> objective =
            1.0 + (a - 5) * (a - 5) + 0.5 * (b - 2) * (b - 2) + 0.25 * (c - 6) * (c - 6);
        if (a == 7 && b > 4) objective.reset();
        variants.push_back({{{"A", a}, {"B", b}, {"C", c}}, objective});
      }
  return variants;
}

const SearchStrategy kAll[] = {SearchStrategy::grid, SearchStrategy::random,
                               SearchStrategy::annealing, SearchStrategy::genetic};

TEST(SearchStrategies, TheSameSeedGivesTheSameSequenceAndNoVariantTwice) {
  const auto variants = bowl();
  for (SearchStrategy strategy : kAll) {
    const auto first = replay_search(variants, strategy, SearchSpec{}, 7, 100);
    const auto again = replay_search(variants, strategy, SearchSpec{}, 7, 100);
    const auto other = replay_search(variants, strategy, SearchSpec{}, 8, 100);
    ASSERT_EQ(first.size(), 100u) << to_string(strategy);
    std::set<std::size_t> seen;
    bool differs = false;
    for (std::size_t i = 0; i < first.size(); ++i) {
      EXPECT_EQ(first[i].variant, again[i].variant) << to_string(strategy) << " step " << i;
      EXPECT_TRUE(seen.insert(first[i].variant).second) << to_string(strategy) << " repeats";
      differs |= first[i].variant != other[i].variant;
      if (i > 0) {
        EXPECT_LE(first[i].best_so_far, first[i - 1].best_so_far);
      }
    }
    EXPECT_EQ(differs, strategy != SearchStrategy::grid) << to_string(strategy);
  }
}

TEST(SearchStrategies, AWholeBudgetVisitsTheWholeSpaceAndFindsTheBest) {
  const auto variants = bowl();
  for (SearchStrategy strategy : kAll) {
    const auto steps = replay_search(variants, strategy, SearchSpec{}, 3, 10000);
    EXPECT_EQ(steps.size(), variants.size()) << to_string(strategy);
    EXPECT_EQ(steps.back().best_so_far, 1.0) << to_string(strategy);
    for (const auto& step : steps)
      if (!step.objective) {
        EXPECT_EQ(variants[step.variant].params["A"], 7);
      }
  }
}

TEST(SearchStrategies, GuidedStrategiesNeedFewerMeasurementsThanRandomOnASmoothSpace) {
  const auto variants = bowl();
  const auto median_to_5 = [&](SearchStrategy strategy) {
    std::vector<double> counts;
    for (std::uint64_t seed = 1; seed <= 21; ++seed) {
      const auto steps = replay_search(variants, strategy, SearchSpec{}, seed, variants.size());
      counts.push_back(double(evaluations_to_reach(steps, 1.0, 0.05).value_or(variants.size())));
    }
    std::sort(counts.begin(), counts.end());
    return counts[counts.size() / 2];
  };
  const double random = median_to_5(SearchStrategy::random);
  const double annealing = median_to_5(SearchStrategy::annealing);
  const double genetic = median_to_5(SearchStrategy::genetic);
  // The bowl's only variant within 5 % is its bottom: random needs about half the space.
  EXPECT_GT(random, 100);
  EXPECT_LT(annealing, random) << annealing << " vs " << random;
  EXPECT_LT(genetic, random) << genetic << " vs " << random;
}

TEST(SearchStrategies, ReachingATargetCountsMeasurements) {
  std::vector<SearchStep> steps{{0, 4.0, 4.0}, {1, std::nullopt, 4.0}, {2, 1.02, 1.02}};
  EXPECT_EQ(evaluations_to_reach(steps, 1.0, 0.05), 3u);
  EXPECT_EQ(evaluations_to_reach(steps, 1.0, 0.01), std::nullopt);
  EXPECT_EQ(evaluations_to_reach(steps, 3.9, 0.05), 1u);
}

// A CPU kernel whose time is a bowl over its params A and B (bottom at A=5, B=2), computed on
// a tiny image so that the bowl dominates.
const char* kBowlKernel = R"(#include <convlab/kernel.h>
#include <time.h>
CONVLAB_CONTRACT(1);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
CONVLAB_CPU_ENTRY(const convlab_problem* p) {
  const int r = p->ksize / 2;
  for (int y = 0; y < p->height; ++y)
    for (int x = 0; x < p->width; ++x)
      for (int c = 0; c < p->channels; ++c) {
        float sum = 0.f;
        for (int ky = 0; ky < p->ksize; ++ky)
          for (int kx = 0; kx < p->ksize; ++kx) {
            const int sy = convlab_border_index(y + ky - r, p->height, p->border);
            const int sx = convlab_border_index(x + kx - r, p->width, p->border);
            if (sy >= 0 && sx >= 0) sum += p->weights[ky * p->ksize + kx] * p->in[sy * p->in_pitch + sx * p->channels + c];
          }
        convlab_store(p->out, ((long long)y * p->width + x) * p->channels + c, p->output, sum);
      }
  const double units = 1 + (A - 5) * (A - 5) + (B - 2) * (B - 2);
  const double until = now() + units * 20e-6;
  while (now() < until) {}
  return 0;
}
)";

class SearchRuns : public testing::DirectoryTest {
 protected:
  testing::CommandResult convlab(const std::string& arguments) {
    return run_shell("CONVLAB_KERNEL_CACHE='" + (dir_ / "cache").string() +
                         "' timeout -k 5 300 \"$CONVLAB\" " + arguments,
                     dir_);
  }
  void write_config(const std::string& search, const std::string& name = "s") {
    write_text(dir_ / "bowl.c", kBowlKernel);
    write_text(dir_ / (name + ".yaml"),
               "name: " + name +
                   "\nimages: [{type: generated, sizes: [[8, 6]], channels: 1, seed: 1}]\n"
                   "kernels: [{type: gaussian, size: 3}]\n"
                   "implementations:\n"
                   "  bowl: {source: bowl.c, params: {A: [1, 2, 3, 4, 5, 6, 7, 8], B: [0, 1, 2, "
                   "3]}" +
                   search +
                   "}\n"
                   "measure: {warmup: 0, min_reps: 3, max_reps: 3, max_seconds: 0.01}\n");
  }
  std::vector<json> records(const std::string& name = "s") {
    return json::parse(read_text(dir_ / ("outputs/" + name + "/results.json")))["records"]
        .get<std::vector<json>>();
  }
};

TEST_F(SearchRuns, ASearchMeasuresItsBudgetAndContinuesWhereItStopped) {
  write_config(", search: {strategy: annealing, budget: 8, seed: 3, restrict: [\"A * B <= 20\"]}");
  const auto dry = convlab("run s.yaml --dry-run");
  ASSERT_EQ(dry.exit_code, 0) << dry.output;
  EXPECT_NE(dry.output.find("search bowl (annealing; 1 seed): 30 variants after restrictions (32 "
                            "in the grid), budget 8 per problem and search (26.7 % of the space)"),
            std::string::npos)
      << dry.output;
  const auto run = convlab("run s.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  auto first = records();
  ASSERT_EQ(first.size(), 8u);
  double best = INFINITY;
  std::set<std::string> variants;
  for (std::size_t i = 0; i < first.size(); ++i) {
    const json& search = first[i]["search"];
    EXPECT_EQ(search["strategy"], "annealing");
    EXPECT_EQ(search["seed"], 3);
    EXPECT_EQ(search["step"], int(i) + 1);
    best = std::min(best, first[i]["timing"]["stats"]["median"].get<double>());
    EXPECT_DOUBLE_EQ(search["best_so_far_ms"].get<double>(), best);
    EXPECT_LE(first[i]["params"]["A"].get<int>() * first[i]["params"]["B"].get<int>(), 20);
    EXPECT_TRUE(variants.insert(first[i]["params"].dump()).second);
  }
  // Run again with a larger budget: the first 8 steps are proposed again and found, 4 are new.
  write_config(", search: {strategy: annealing, budget: 12, seed: 3, restrict: [\"A * B <= 20\"]}");
  const auto more = convlab("run s.yaml");
  ASSERT_EQ(more.exit_code, 0) << more.output;
  EXPECT_NE(more.output.find("kept 8 · ran 4"), std::string::npos) << more.output;
  const auto second = records();
  ASSERT_EQ(second.size(), 12u);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(second[i]["params"], first[i]["params"]);
  // Every search variant is an ordinary record: show --best reports the search's best.
  const auto best_table = convlab("show outputs/s --best");
  EXPECT_EQ(best_table.exit_code, 0) << best_table.output;
  EXPECT_NE(best_table.output.find("bowl"), std::string::npos) << best_table.output;
}

TEST_F(SearchRuns, StrategiesReplayedOnAMeasuredGrid) {
  write_config("", "grid");
  const auto run = convlab("run grid.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(records("grid").size(), 32u);
  const auto replay = convlab("search outputs/grid --seeds 9 --trace trace.tsv");
  ASSERT_EQ(replay.exit_code, 0) << replay.output;
  for (const char* strategy :
       {"| grid | 1 |", "| random | 9 |", "| annealing | 9 |", "| genetic | 9 |"})
    EXPECT_NE(replay.output.find(strategy), std::string::npos) << replay.output;
  EXPECT_NE(replay.output.find("32 variants (0 failed or could not run)"), std::string::npos)
      << replay.output;
  const std::string trace = read_text(dir_ / "trace.tsv");
  EXPECT_EQ(std::count(trace.begin(), trace.end(), '\n'), 1 + 32 * (1 + 3 * 9));
  // The same replay twice gives the same table.
  EXPECT_EQ(convlab("search outputs/grid --seeds 9").output,
            convlab("search outputs/grid --seeds 9").output);
}

// A convergence figure of a search with two seeds: one line per seed, x the step, y the best so
// far, which never rises along a line.
TEST_F(SearchRuns, AConvergenceFigureHasALinePerSeedThatNeverRises) {
  write_config(", search: {strategy: random, budget: 6, seed: [1, 2]}");
  std::string config = read_text(dir_ / "s.yaml");
  config += "figures: [{name: conv, type: convergence}]\n";
  write_text(dir_ / "s.yaml", config);
  const auto run = convlab("run s.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(records().size(), 12u);
  const auto exported = convlab("export outputs/s --out ex");
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  std::istringstream data(read_text(dir_ / "ex/data/conv.tsv"));
  std::string line;
  ASSERT_TRUE(std::getline(data, line));
  std::vector<std::string> header;
  {
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, '\t');) header.push_back(cell);
  }
  const auto column = [&](const std::string& name) {
    const auto at = std::find(header.begin(), header.end(), name);
    return at == header.end() ? -1 : int(at - header.begin());
  };
  // One row per x (the step), one column per line (strategy and seed); a step a line lacks is
  // an empty cell.
  ASSERT_EQ(column("x"), 0) << line;
  const int first_line = column("x_label") + 1;
  ASSERT_EQ(header.size(), std::size_t(first_line) + 2) << line;
  std::map<std::string, std::vector<std::pair<double, double>>> lines;
  while (std::getline(data, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, '\t');) cells.push_back(cell);
    for (std::size_t c = first_line; c < cells.size(); ++c) {
      if (cells[c].empty() || cells[c] == "NaN" || cells[c] == "nan") continue;
      lines[header[c]].push_back({std::stod(cells[0]), std::stod(cells[c])});
    }
  }
  ASSERT_EQ(lines.size(), 2u) << read_text(dir_ / "ex/data/conv.tsv");
  for (auto& [name, points] : lines) {
    ASSERT_EQ(points.size(), 6u) << name;
    std::sort(points.begin(), points.end());
    for (std::size_t i = 0; i < points.size(); ++i) {
      EXPECT_EQ(points[i].first, double(i + 1)) << name;
      if (i > 0) {
        EXPECT_LE(points[i].second, points[i - 1].second) << name << " step " << i + 1;
      }
    }
  }
  EXPECT_NE(read_text(dir_ / "ex/plots/conv.gp").find("random seed 2"), std::string::npos);
}

// A search measured where the full grid was measured before: the notebook's page has the table
// that show --search prints, the found best against the grid's with the share measured.
TEST_F(SearchRuns, TheNotebookTablesWhatEachSearchFoundAgainstTheGrid) {
  write_config("");
  ASSERT_EQ(convlab("run s.yaml --quiet").exit_code, 0);
  write_config(", search: {strategy: random, budget: 6, seed: 1}");
  const auto run = convlab("run s.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto shown = convlab("show outputs/s --search");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_NE(shown.output.find("| random seed 1 | 6 |"), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find("18.8 % of 32"), std::string::npos) << shown.output;
  const auto notebook = convlab("notebook outputs/s --out nb --quiet");
  ASSERT_EQ(notebook.exit_code, 0) << notebook.output;
  const std::string page = read_text(dir_ / "nb/s.html");
  EXPECT_NE(page.find("What each search found, against the full grid where one ran here."),
            std::string::npos);
  EXPECT_NE(page.find("bowl, random seed 1 | "), std::string::npos);
  // Each row names the search's best variant.
  const std::regex best_variant("bowl, random seed 1 \\| [^<]* \\| best A=[1-8], B=[0-3]</th>");
  EXPECT_TRUE(std::regex_search(page, best_variant));
  EXPECT_NE(page.find("data-sort=\"18.75\">18.75</td>"), std::string::npos)
      << "the share of the grid, 6 of 32";
  EXPECT_NE(page.find("data-sort=\"32\">32</td>"), std::string::npos) << "the grid's variants";
  EXPECT_NE(page.find("data-sort=\"6\">6</td>"), std::string::npos) << "counts are whole numbers";
}

TEST_F(SearchRuns, BadSearchBlocksAreNamedByKey) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {", search: {strategy: anealing}", "unknown strategy 'anealing' (did you mean 'annealing'?)"},
      {", search: {budget: 4, max_seconds: 2}", "not both"},
      {", search: {budget: 0}", "budget is the variants measured per problem"},
      {", search: {restrict: [\"AA < 3\"]}",
       "implementations.bowl.search.restrict[0]: unknown parameter 'AA' (did you mean 'A'?)"},
      {", search: {restrict: [\"A > 100\"]}", "the restrictions leave no variant of the 32"},
      {", search: {restrict: [\"A = 1\"]}", "'=' compares as '=='"},
      {", search: {restrict: [\"median_ms[A=1] < 2\"]}", "reads params only"},
      {", search: {colour: red}", "colour"},
  };
  for (const auto& [block, expected] : cases) {
    write_config(block);
    const auto result = convlab("validate s.yaml");
    EXPECT_EQ(result.exit_code, 2) << block << "\n" << result.output;
    EXPECT_NE(result.output.find(expected), std::string::npos) << block << "\n" << result.output;
  }
  write_config(", search: {strategy: random, budget: 3}");
  std::string config = read_text(dir_ / "s.yaml");
  config.replace(config.find("max_seconds: 0.01}"), 18, "max_seconds: 0.01, interleave: true}");
  write_text(dir_ / "s.yaml", config);
  const auto interleaved = convlab("validate s.yaml");
  EXPECT_EQ(interleaved.exit_code, 2) << interleaved.output;
  EXPECT_NE(interleaved.output.find("use one or the other"), std::string::npos)
      << interleaved.output;
}

// The committed grid (outputs/search_grid, measured on the GPU machine) replayed over 20 seeds,
// as docs/search.md reports it.
class SearchReplayOfTheCommittedGrid : public testing::DirectoryTest {
 protected:
  static constexpr const char* kCommand = "search outputs/search_grid --seeds 20";

  testing::CommandResult replay(const std::string& extra = "") {
    return testing::run_convlab(std::string(kCommand) + extra, CONVLAB_SOURCE_TREE);
  }

  // The table's rows by strategy, each row's cells.
  static std::map<std::string, std::vector<std::string>> rows_of(const std::string& output) {
    std::map<std::string, std::vector<std::string>> rows;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("| ", 0) != 0 || line.rfind("| strategy", 0) == 0) continue;
      std::vector<std::string> cells;
      std::istringstream cell_text(line.substr(2));
      for (std::string cell; std::getline(cell_text, cell, '|');) {
        while (!cell.empty() && cell.back() == ' ') cell.pop_back();
        while (!cell.empty() && cell.front() == ' ') cell.erase(0, 1);
        cells.push_back(cell);
      }
      if (!cells.empty()) rows[cells.front()] = cells;
    }
    return rows;
  }

  // What follows the problem's heading: the grid's line and the table.
  static std::string after_heading(const std::string& output) {
    const auto heading = output.find("\n## ");
    if (heading == std::string::npos) return "";
    const auto body = output.find('\n', heading + 1);
    return trimmed(output.substr(body + 1));
  }

  static std::string trimmed(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    while (!text.empty() && (text.front() == '\n' || text.front() == ' ')) text.erase(0, 1);
    return text;
  }
};

TEST_F(SearchReplayOfTheCommittedGrid, GuidedStrategiesComeWithinFivePercentInAtMost15PercentOfIt) {
  const auto first = replay(" --trace '" + (dir_ / "trace.tsv").string() + "'");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  // Deterministic: the same seeds and the same recorded times give the same table.
  EXPECT_EQ(replay().output, first.output);
  EXPECT_NE(first.output.find("384 variants (1 failed or could not run), grid best 0.3593 ms"),
            std::string::npos)
      << first.output;
  const auto rows = rows_of(first.output);
  ASSERT_EQ(rows.size(), 4u) << first.output;
  for (const char* strategy : {"grid", "random", "annealing", "genetic"}) {
    ASSERT_TRUE(rows.count(strategy)) << strategy << "\n" << first.output;
    ASSERT_EQ(rows.at(strategy).size(), 6u) << strategy << "\n" << first.output;
  }
  EXPECT_EQ(rows.at("grid")[1], "1");
  for (const char* guided : {"annealing", "genetic"}) {
    const auto& row = rows.at(guided);
    EXPECT_EQ(row[1], "20") << guided;
    // Every seed gets within 5 % and 1 %, and the median needs at most 15 % of the space.
    EXPECT_NE(row[2].find("(20/20 seeds)"), std::string::npos) << guided << ": " << row[2];
    EXPECT_NE(row[4].find("(20/20 seeds)"), std::string::npos) << guided << ": " << row[4];
    const double median_to_5 = std::stod(row[2]);
    EXPECT_LE(median_to_5, 0.15 * 384) << guided;
    EXPECT_LE(std::stod(row[3]), 15.0) << guided << ": " << row[3];
  }
  // Every search runs the whole space: one trace line per step, seed and strategy.
  const std::string trace = read_text(dir_ / "trace.tsv");
  EXPECT_EQ(std::count(trace.begin(), trace.end(), '\n'), 1 + 384 * (1 + 3 * 20));
}

TEST_F(SearchReplayOfTheCommittedGrid, DocsSearchMdQuotesWhatTheReplayPrints) {
  const auto result = replay();
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string printed = after_heading(result.output);
  ASSERT_NE(printed.find("| annealing | 20 |"), std::string::npos) << result.output;

  const std::string page = read_text(CONVLAB_SOURCE_TREE "/docs/search.md");
  const std::string start = "<!-- convlab search outputs/search_grid --seeds 20:";
  const std::string end = "<!-- end of the replay -->";
  const auto from = page.find(start);
  ASSERT_NE(from, std::string::npos) << "docs/search.md has no block starting " << start;
  const auto body = page.find('\n', from) + 1;
  const auto to = page.find(end, body);
  ASSERT_NE(to, std::string::npos) << "docs/search.md's replay block has no " << end;
  EXPECT_EQ(trimmed(page.substr(body, to - body)), printed)
      << "docs/search.md's replay block is not what `convlab " << kCommand
      << "` prints; put this between its markers (and run scripts/search-convergence.sh):\n"
      << printed;

  // The device and the commit the page names are those of the file's run.
  const json results =
      json::parse(read_text(CONVLAB_SOURCE_TREE "/outputs/search_grid/results.json"));
  const std::string commit = results.at("run").at("git").at("commit").get<std::string>();
  const std::string run_id = results.at("run").at("id").get<std::string>();
  std::set<std::string> gpus;
  for (const auto& record : results.at("records"))
    if (record.value("implementation", "") == "tunable")
      gpus.insert(record.at("machine").at("gpu").get<std::string>());
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_NE(page.find("**" + *gpus.begin() + "**"), std::string::npos) << *gpus.begin();
  EXPECT_NE(page.find("commit **" + commit + "**"), std::string::npos) << commit;
  EXPECT_NE(page.find("`" + run_id + "`"), std::string::npos) << run_id;
}

}  // namespace
}  // namespace convlab
