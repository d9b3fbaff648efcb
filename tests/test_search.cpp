// Search strategies (docs/search.md): deterministic, never repeating, within their budget; spaces
// walked, not listed (counted exactly or estimated, restrictions checked per variant, memory that
// does not grow with the space); the methodology's scores (random search 0, the optimum 1); the
// search block's checks; searches in real runs that compile no more than they measure, continue
// where they stopped and stop at max_seconds; what show, the notebook and figures make of them;
// and strategies replayed against the committed 384-variant grid, whose table docs/search.md
// quotes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "config/config.hpp"
#include "config/config_error.hpp"
#include "plan/search_replay.hpp"
#include "plan/search_scores.hpp"
#include "plan/search_strategy.hpp"
#include "store/results_file.hpp"
#include "test_support.hpp"
#include "user_kernels/kernel_compiler.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;
using testing::read_text;
using testing::run_shell;
using testing::write_text;

// ---- spaces to search ----

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

// A space shaped like Kernel Tuner's convolution space (its params, values and restrictions), with
// times from a made-up model of a tiled kernel: threads per block, coalescing, outputs per thread,
// the halo staged, padding and the read-only path, times a fixed pseudo-random factor of +-4 %.
std::vector<ReplayVariant> synthetic_convolution() {
  const std::vector<int> bxs{1, 2, 4, 8, 16, 32, 48, 64, 96, 112, 128};
  const std::vector<int> bys{1, 2, 4, 8, 16, 32};
  std::vector<ReplayVariant> variants;
  SearchRandom noise(17);
  for (int bx : bxs)
    for (int by : bys)
      for (int tx = 1; tx <= 8; ++tx)
        for (int ty = 1; ty <= 8; ++ty)
          for (int pad = 0; pad <= 1; ++pad)
            for (int ro = 0; ro <= 1; ++ro) {
              const int threads = bx * by;
              if (threads < 64 || threads > 1024 || tx * ty >= 30) continue;
              const double occupancy = 1 + 0.3 * std::fabs(std::log2(threads / 256.0));
              const double coalescing = 1 + 0.15 * std::max(0.0, std::log2(32.0 / bx));
              const int outputs = tx * ty;
              const double reuse = 1 / (0.55 + 0.45 * std::min(outputs, 12) / 12.0) +
                                   0.04 * std::max(0, outputs - 16);
              const double w = bx * tx, h = by * ty;
              const double halo = (w + 14) * (h + 14) / (w * h);
              const double staging = 0.8 + 0.05 * halo;
              const double padding = pad && bx < 32 ? 0.93 : 1.0;
              const double read_only = ro ? 0.97 : 1.0;
              const double jitter = 0.96 + 0.08 * noise.unit();
              variants.push_back(
                  {{{"block_size_x", bx},
                    {"block_size_y", by},
                    {"tile_size_x", tx},
                    {"tile_size_y", ty},
                    {"use_padding", pad},
                    {"read_only", ro}},
                   0.4 * occupancy * coalescing * reuse * staging * padding * read_only * jitter});
            }
  return variants;
}

// ---- strategies ----

TEST(SearchStrategies, TheSameSeedGivesTheSameSequenceAndNoVariantTwice) {
  const Replay replay(bowl());
  for (SearchStrategy strategy : search_strategies()) {
    const auto first = replay.search(strategy, SearchSpec{}, 7, 100);
    const auto again = replay.search(strategy, SearchSpec{}, 7, 100);
    const auto other = replay.search(strategy, SearchSpec{}, 8, 100);
    ASSERT_EQ(first.size(), 100u) << to_string(strategy);
    std::set<Coordinate> seen;
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
  const Replay replay(bowl());
  for (SearchStrategy strategy : search_strategies()) {
    const auto steps = replay.search(strategy, SearchSpec{}, 3, 10000);
    EXPECT_EQ(steps.size(), replay.variants().size()) << to_string(strategy);
    EXPECT_EQ(steps.back().best_so_far, 1.0) << to_string(strategy);
    for (const auto& step : steps)
      if (!step.objective) {
        EXPECT_EQ(replay.variant_of(step).params["A"], 7);
      }
  }
}

// A larger budget proposes the same first variants: proposals ahead of the measurements never
// depend on the budget, only on what was measured before them.
TEST(SearchStrategies, ALargerBudgetBeginsWithTheSmallerOnesSteps) {
  const Replay replay(synthetic_convolution());
  for (SearchStrategy strategy : search_strategies())
    for (int ahead : {1, 4}) {
      SearchSpec spec;
      spec.ahead = ahead;
      const auto eight = replay.search(strategy, spec, 3, 8);
      const auto twelve = replay.search(strategy, spec, 3, 12);
      ASSERT_EQ(eight.size(), 8u);
      ASSERT_EQ(twelve.size(), 12u);
      for (std::size_t i = 0; i < 8; ++i)
        EXPECT_EQ(eight[i].variant, twelve[i].variant)
            << to_string(strategy) << " ahead " << ahead << " step " << i;
    }
}

TEST(SearchStrategies, GuidedStrategiesNeedFewerMeasurementsThanRandomOnASmoothSpace) {
  const Replay replay(bowl());
  const auto median_to_5 = [&](SearchStrategy strategy) {
    std::vector<double> counts;
    for (std::uint64_t seed = 1; seed <= 21; ++seed) {
      const auto steps = replay.search(strategy, SearchSpec{}, seed, replay.variants().size());
      counts.push_back(
          double(evaluations_to_reach(steps, 1.0, 0.05).value_or(replay.variants().size())));
    }
    std::sort(counts.begin(), counts.end());
    return counts[counts.size() / 2];
  };
  const double random = median_to_5(SearchStrategy::random);
  // The bowl's only variant within 5 % is its bottom: random needs about half the space.
  EXPECT_GT(random, 100);
  for (SearchStrategy guided : search_strategies())
    if (guided != SearchStrategy::grid && guided != SearchStrategy::random) {
      EXPECT_LT(median_to_5(guided), random) << to_string(guided);
    }
}

TEST(SearchStrategies, ReachingATargetCountsMeasurements) {
  std::vector<SearchStep> steps{{{0}, 4.0, 4.0}, {{1}, std::nullopt, 4.0}, {{2}, 1.02, 1.02}};
  EXPECT_EQ(evaluations_to_reach(steps, 1.0, 0.05), 3u);
  EXPECT_EQ(evaluations_to_reach(steps, 1.0, 0.01), std::nullopt);
  EXPECT_EQ(evaluations_to_reach(steps, 3.9, 0.05), 1u);
}

// ---- spaces walked, not listed ----

SearchDomain domain_of(std::vector<SearchAxis> axes, std::vector<std::string> restrictions) {
  SearchSpec spec;
  YAML::Node node(YAML::NodeType::Sequence);
  for (const auto& text : restrictions) node.push_back(text);
  spec.restrict = std::move(restrictions);
  return make_search_domain(std::move(axes), spec, node, YamlLocation{"test.yaml", "restrict"});
}

std::vector<SearchAxis> decimal_axes(int count) {
  std::vector<SearchAxis> axes;
  for (int a = 0; a < count; ++a) {
    SearchAxis axis{"P" + std::to_string(a), {}};
    for (int v = 0; v < 10; ++v) axis.values.push_back(v);
    axes.push_back(axis);
  }
  return axes;
}

TEST(SearchSpaces, RestrictionsAreCountedExactlyWhereTheirGroupsAreSmall) {
  // Every combination of four params, counted by brute force against the domain's count.
  const std::vector<std::string> restrictions{"P0 * P1 <= 20", "P2 + P3 < 9 || P2 == 9",
                                              "P1 % 3 != 1"};
  const SearchDomain domain = domain_of(decimal_axes(4), restrictions);
  std::size_t allowed = 0;
  Coordinate at(4, 0);
  for (at[0] = 0; at[0] < 10; ++at[0])
    for (at[1] = 0; at[1] < 10; ++at[1])
      for (at[2] = 0; at[2] < 10; ++at[2])
        for (at[3] = 0; at[3] < 10; ++at[3]) {
          const int p0 = at[0], p1 = at[1], p2 = at[2], p3 = at[3];
          const bool holds = p0 * p1 <= 20 && (p2 + p3 < 9 || p2 == 9) && p1 % 3 != 1;
          EXPECT_EQ(domain.restrictions.hold(at), holds);
          allowed += holds;
        }
  EXPECT_TRUE(domain.size.exact);
  EXPECT_EQ(domain.size.variants, double(allowed));
  EXPECT_EQ(domain.size.combinations, 1e4);
  EXPECT_EQ(domain.size.method, "counted exactly");
  // The first variant the grid allows: P1 = 0 holds P1 % 3 != 1, P0 * P1 <= 20, P2 + P3 < 9.
  EXPECT_EQ(domain.first, (Coordinate{0, 0, 0, 0}));
}

TEST(SearchSpaces, ALargeGroupIsEstimatedWithItsMethodAndInterval) {
  // Seven params in one restriction: 10^7 combinations, more than are counted one by one.
  const SearchDomain domain =
      domain_of(decimal_axes(15), {"P0 + P1 + P2 + P3 + P4 + P5 + P6 < 30", "P7 * P8 < 40"});
  EXPECT_FALSE(domain.size.exact);
  EXPECT_EQ(domain.size.combinations, 1e15);
  // The share of seven digits summing below 30 is 0.398332 (counted once, outside the test); the
  // pairs whose product is below 40, 81 of 100 (counted exactly here).
  const double expected = 0.398332 * 0.81 * 1e15;
  EXPECT_NEAR(domain.size.variants, expected, 2 * domain.size.margin) << domain.size.method;
  EXPECT_GT(domain.size.margin, 0.0);
  EXPECT_LT(domain.size.margin, 0.02 * expected);
  EXPECT_NE(domain.size.method.find("estimated: the restrictions hold for"), std::string::npos)
      << domain.size.method;
  EXPECT_NE(domain.size.method.find("of 100000 random combinations of P0, P1, P2, P3, P4, P5, P6"),
            std::string::npos)
      << domain.size.method;
}

TEST(SearchSpaces, RestrictionsThatLeaveNothingAreRefused) {
  EXPECT_THROW(domain_of(decimal_axes(3), {"P0 > 20"}), ConfigError);
  EXPECT_THROW(domain_of(decimal_axes(12), {"P0 + P1 + P2 + P3 + P4 + P5 + P6 + P7 > 80"}),
               ConfigError);
  try {
    domain_of(decimal_axes(3), {"P9 < 2"});
    FAIL() << "an unknown param was taken";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("unknown parameter 'P9' (did you mean 'P0'?)"),
              std::string::npos)
        << error.what();
  }
}

// A random order without repeats of a restricted space: every allowed variant once, no other.
TEST(SearchSpaces, TheRandomOrderGivesEveryAllowedVariantOnce) {
  auto domain = std::make_shared<SearchDomain>(domain_of(decimal_axes(3), {"P0 + P1 != 7"}));
  const SearchSpace space(domain);
  for (std::uint64_t seed : {1u, 2u, 99u}) {
    SpaceShuffle shuffle(space, seed);
    std::set<Coordinate> seen;
    std::vector<Coordinate> order;
    while (auto next = shuffle.next(kSearchChecks)) {
      EXPECT_TRUE(domain->restrictions.hold(*next));
      EXPECT_TRUE(seen.insert(*next).second);
      order.push_back(*next);
    }
    EXPECT_EQ(double(seen.size()), domain->size.variants) << seed;
    // Not the grid's order.
    EXPECT_FALSE(std::is_sorted(order.begin(), order.end())) << seed;
  }
}

// 10^15 combinations: every strategy proposes its budget without listing them, each variant one
// the restrictions allow. The memory this takes, apart from the space's size, is measured by
// scripts/bench/search-space-scale.sh.
TEST(SearchSpaces, EveryStrategyWalksASpaceOfTenToTheFifteen) {
  auto domain = std::make_shared<SearchDomain>(
      domain_of(decimal_axes(15), {"P0 * P1 <= 30", "P2 + P3 + P4 < 12", "P14 % 2 == 0"}));
  const SearchSpace space(domain);
  for (SearchStrategy strategy : search_strategies()) {
    auto run = make_strategy(strategy, space, SearchSpec{}, 5);
    SearchHooks hooks;
    std::set<Coordinate> seen;
    hooks.evaluate = [&](const Coordinate& variant) -> std::optional<double> {
      EXPECT_TRUE(space.allows(variant)) << to_string(strategy);
      EXPECT_TRUE(seen.insert(variant).second) << to_string(strategy);
      double sum = 1.0;
      for (std::size_t a = 0; a < variant.size(); ++a)
        sum += (variant[a] - 3.0) * (variant[a] - 3.0);
      return sum;
    };
    const auto steps = run_search(*run, 50, 4, hooks);
    EXPECT_EQ(steps.size(), 50u) << to_string(strategy);
  }
}

// ---- the methodology's scores ----

TEST(SearchScores, TheRandomBaselineIsTheExpectedBestOfDrawsWithoutRepeats) {
  // Four variants 1, 2, 3 and a failed one (counted as 3): the best of two draws is 1 with
  // probability 1/2, 2 with 1/3, 3 with 1/6.
  const RandomBaseline baseline({3.0, std::nullopt, 1.0, 2.0});
  EXPECT_DOUBLE_EQ(baseline.expected_best(1), (1.0 + 2.0 + 3.0 + 3.0) / 4);
  EXPECT_DOUBLE_EQ(baseline.expected_best(2), 1.0 / 2 + 2.0 / 3 + 3.0 / 6);
  EXPECT_DOUBLE_EQ(baseline.expected_best(4), 1.0);
  // Against a simulation on the synthetic space.
  std::vector<std::optional<double>> objectives;
  for (const auto& v : synthetic_convolution()) objectives.push_back(v.objective);
  const RandomBaseline big(objectives);
  SearchRandom random(3);
  for (std::size_t budget : {20u, 100u}) {
    double sum = 0.0, squares = 0.0;
    const int trials = 20000;
    for (int t = 0; t < trials; ++t) {
      std::vector<std::size_t> picked;
      double best = INFINITY;
      while (picked.size() < budget) {
        const std::size_t i = random.below(objectives.size());
        if (std::find(picked.begin(), picked.end(), i) != picked.end()) continue;
        picked.push_back(i);
        best = std::min(best, *objectives[i]);
      }
      sum += best;
      squares += best * best;
    }
    const double mean = sum / trials;
    const double error = std::sqrt((squares / trials - mean * mean) / trials);
    EXPECT_NEAR(mean, big.expected_best(budget), 4 * error) << budget;
  }
}

std::vector<std::vector<SearchStep>> searches_of(const Replay& replay, SearchStrategy strategy,
                                                 int seeds, std::size_t budget) {
  std::vector<std::vector<SearchStep>> searches;
  for (int seed = 1; seed <= seeds; ++seed)
    searches.push_back(replay.search(strategy, SearchSpec{}, std::uint64_t(seed), budget));
  return searches;
}

// Random search scores 0 within its interval, a search that measures the optimum first scores 1,
// on the synthetic convolution space; the guided strategies are told apart from random.
TEST(SearchScores, RandomSearchScoresZeroAndTheOptimumOne) {
  const Replay replay(synthetic_convolution());
  std::vector<std::optional<double>> objectives;
  for (const auto& v : replay.variants()) objectives.push_back(v.objective);
  const RandomBaseline baseline(objectives);
  const BudgetRange range = scored_budgets({20, 400}, baseline, 0.95);
  ASSERT_GE(range.last, range.first);
  const auto random = score_strategy(searches_of(replay, SearchStrategy::random, 100, range.last),
                                     baseline, range, {range.first});
  EXPECT_LT(std::fabs(random.score), std::max(2 * random.margin, 0.05))
      << random.score << " ± " << random.margin;
  std::vector<SearchStep> oracle{{{}, baseline.optimum(), baseline.optimum()}};
  EXPECT_DOUBLE_EQ(score_strategy({oracle}, baseline, range, {}).score, 1.0);
  double best_guided = -INFINITY;
  for (SearchStrategy strategy : {SearchStrategy::annealing, SearchStrategy::genetic,
                                  SearchStrategy::dual_annealing, SearchStrategy::tpe})
    best_guided = std::max(
        best_guided,
        score_strategy(searches_of(replay, strategy, 30, range.last), baseline, range, {}).score);
  EXPECT_GT(best_guided, random.score + 2 * random.margin + 0.1);
}

TEST(SearchScores, TheRangeEndsWhereRandomSearchHasComeMostOfTheWay) {
  const RandomBaseline baseline({1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0});
  // Median 5.5; 95 % of the way to 1 is 1.225: the expected best of 10 draws is 1, of 9 is 1.1,
  // of 8 is 1.2222 and of 7 is 1.375.
  EXPECT_EQ(scored_budgets({1, 400}, baseline, 0.95).last, 8u);
  EXPECT_EQ(scored_budgets({1, 5}, baseline, 0.95).last, 5u);
  const BudgetRange none = scored_budgets({9, 400}, baseline, 0.95);
  EXPECT_LT(none.last, none.first);
}

// ---- searches in real runs ----

// A CPU kernel whose time is a bowl over its params A and B (bottom at A=5, B=2), computed on
// a tiny image so that the bowl dominates; DELAY adds that many milliseconds to every call.
const char* kBowlKernel = R"(#include <convlab/kernel.h>
#include <time.h>
#ifndef DELAY
#define DELAY 0
#endif
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
  const double until = now() + units * 20e-6 + DELAY * 1e-3;
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
  void write_config(const std::string& search, const std::string& name = "s",
                    const std::string& images = "[[8, 6]]",
                    const std::string& params = "A: [1, 2, 3, 4, 5, 6, 7, 8], B: [0, 1, 2, 3]") {
    write_text(dir_ / "bowl.c", kBowlKernel);
    write_text(dir_ / (name + ".yaml"),
               "name: " + name + "\nimages: [{type: generated, sizes: " + images +
                   ", channels: 1, seed: 1}]\n"
                   "kernels: [{type: gaussian, size: 3}]\n"
                   "implementations:\n"
                   "  bowl: {source: bowl.c, params: {" +
                   params + "}" + search +
                   "}\n"
                   "measure: {warmup: 0, min_reps: 3, max_reps: 3, max_seconds: 0.01}\n");
  }
  std::vector<json> records(const std::string& name = "s") {
    return json::parse(read_text(dir_ / ("outputs/" + name + "/results.json")))["records"]
        .get<std::vector<json>>();
  }
  std::size_t compiled_variants() {
    std::size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir_ / "cache"))
      count += entry.is_directory() && entry.path().filename().string().rfind("bowl-", 0) == 0;
    return count;
  }
};

TEST_F(SearchRuns, ASearchMeasuresItsBudgetAndContinuesWhereItStopped) {
  write_config(", search: {strategy: annealing, budget: 8, seed: 3, restrict: [\"A * B <= 20\"]}");
  const auto dry = convlab("run s.yaml --dry-run");
  ASSERT_EQ(dry.exit_code, 0) << dry.output;
  EXPECT_NE(dry.output.find("search bowl (annealing; 1 seed): 30 variants after restrictions "
                            "(counted exactly, of 32 in the grid), budget 8 per problem and search "
                            "(26.7 % of the space), 8 variants to measure at most in 1 problem"),
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

// Five params of ten values: 10^5 variants. validate compiles one (the first the grid allows, to
// find a source that does not compile); a search of budget 3 compiles what it proposes, at most
// its budget, never the space.
TEST_F(SearchRuns, TheBudgetBoundsTheCompiles) {
  const std::string ten = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
  write_config(", search: {strategy: random, budget: 3, seed: 2}", "s", "[[8, 6]]",
               "A: " + ten + ", B: " + ten + ", C: " + ten + ", D: " + ten + ", E: " + ten);
  const auto validate = convlab("validate s.yaml");
  ASSERT_EQ(validate.exit_code, 0) << validate.output;
  EXPECT_NE(validate.output.find("your kernels: 1 variant compiled"), std::string::npos)
      << validate.output;
  EXPECT_NE(validate.output.find("100000 variants, budget 3 per problem and search"),
            std::string::npos)
      << validate.output;
  EXPECT_EQ(compiled_variants(), 1u);
  const auto run = convlab("run s.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(records().size(), 3u);
  // The variant validate compiled, and the three the search proposed (one of them may be it).
  EXPECT_GE(compiled_variants(), 3u);
  EXPECT_LE(compiled_variants(), 1u + 3u);
  EXPECT_LE(compiled_variants(), 3u + std::size_t(kDefaultSearchAhead));
}

// max_seconds bounds the search's time, its compiles waited for and its measurements: it stops at
// the first step that ends beyond it, every earlier step ended before it, and each record has its
// compile, measuring and elapsed seconds.
TEST_F(SearchRuns, MaxSecondsStopsASearchAndItsTimesAreRecorded) {
  write_config(", search: {strategy: random, max_seconds: 2, seed: 4}");
  std::string source = read_text(dir_ / "bowl.c");
  source.replace(source.find("#define DELAY 0"), 15, "#define DELAY 40");
  write_text(dir_ / "bowl.c", source);
  const auto run = convlab("run s.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto all = records();
  ASSERT_GE(all.size(), 1u);
  EXPECT_LT(all.size(), 16u) << "3 calls of 40 ms and more each: 2 s end the search first";
  double elapsed = 0.0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const json& search = all[i]["search"];
    for (const char* key : {"compile_s", "measure_s", "elapsed_s"})
      ASSERT_TRUE(search.contains(key) && search[key].is_number()) << search.dump();
    EXPECT_GT(search["measure_s"].get<double>(), 0.1) << "3 calls of 40 ms";
    EXPECT_GE(search["elapsed_s"].get<double>(),
              elapsed + search["measure_s"].get<double>() - 1e-9);
    elapsed = search["elapsed_s"].get<double>();
    if (i + 1 < all.size()) {
      EXPECT_LT(elapsed, 2.0) << "step " << i + 1;
    }
  }
  EXPECT_GE(elapsed, 2.0);
  const auto shown = convlab("show outputs/s --search");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_NE(shown.output.find("| compiling s | measuring s | search s |"), std::string::npos)
      << shown.output;
}

// show --search: a Markdown table whose every row has as many cells as its header, the best
// variant's params in words.
TEST_F(SearchRuns, ShowSearchHasTheHeadersCellsInEveryRow) {
  write_config(", search: {strategy: [random, genetic], budget: 5, seed: [1, 2]}");
  ASSERT_EQ(convlab("run s.yaml --quiet").exit_code, 0);
  const auto shown = convlab("show outputs/s --search");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  std::istringstream lines(shown.output);
  std::vector<std::size_t> cells;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("|", 0) != 0) continue;
    std::size_t count = 0;
    for (std::size_t i = 0; i < line.size(); ++i)
      count += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    cells.push_back(count);
  }
  ASSERT_EQ(cells.size(), 2u + 4u) << shown.output;
  for (std::size_t c : cells) EXPECT_EQ(c, cells.front()) << shown.output;
  EXPECT_TRUE(std::regex_search(shown.output, std::regex(R"(\| A=[1-8], B=[0-3] \|)")))
      << shown.output;
  EXPECT_EQ(shown.output.find("{\""), std::string::npos) << "params as raw JSON\n" << shown.output;
}

TEST_F(SearchRuns, StrategiesReplayedOnAMeasuredGrid) {
  write_config("", "grid");
  const auto run = convlab("run grid.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(records("grid").size(), 32u);
  const auto replay = convlab("search outputs/grid --seeds 9 --budgets 2..20 --trace trace.tsv");
  ASSERT_EQ(replay.exit_code, 0) << replay.output;
  for (SearchStrategy strategy : search_strategies()) {
    const std::string row = "| " + std::string(to_string(strategy)) + " | " +
                            (strategy == SearchStrategy::grid ? "1" : "9") + " |";
    EXPECT_NE(replay.output.find(row), std::string::npos) << row << "\n" << replay.output;
  }
  EXPECT_NE(replay.output.find("32 variants (0 failed or could not run)"), std::string::npos)
      << replay.output;
  // Each search measures up to 20; the trace has a line per step.
  const std::string trace = read_text(dir_ / "trace.tsv");
  const std::size_t strategies = search_strategies().size();
  EXPECT_EQ(std::count(trace.begin(), trace.end(), '\n'), 1 + 20 * (1 + 9 * (strategies - 1)));
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

// Searches of two problems: the convergence figure draws a panel per problem (validate and the
// notebook alike); a figure whose lines would merge the searches is refused by validate.
TEST_F(SearchRuns, AConvergenceFigureOfSeveralProblemsHasAPanelEach) {
  write_config(", search: {strategy: random, budget: 4, seed: [1, 2]}", "s", "[[8, 6], [10, 6]]");
  std::string config = read_text(dir_ / "s.yaml");
  write_text(dir_ / "s.yaml", config + "figures: [{name: conv, type: convergence}]\n");
  const auto validate = convlab("validate s.yaml");
  ASSERT_EQ(validate.exit_code, 0) << validate.output;
  ASSERT_EQ(convlab("run s.yaml --quiet").exit_code, 0);
  const auto notebook = convlab("notebook outputs/s --out nb --quiet");
  ASSERT_EQ(notebook.exit_code, 0) << notebook.output;
  const auto exported = convlab("export outputs/s --out ex");
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  const std::string plot = read_text(dir_ / "ex/plots/conv.gp");
  EXPECT_NE(plot.find("set title \"noise-8"), std::string::npos) << plot;
  EXPECT_NE(plot.find("set title \"noise-10"), std::string::npos) << plot;
  // One line for both seeds: two points at every step of every problem.
  write_text(dir_ / "s.yaml",
             config + "figures: [{name: conv, type: convergence, series: implementation}]\n");
  const auto merged = convlab("validate s.yaml");
  EXPECT_EQ(merged.exit_code, 2) << merged.output;
  EXPECT_NE(merged.output.find("figures[0]"), std::string::npos) << merged.output;
}

// A search experiment's page counts the variants its searches measure, not the grid they choose
// among: none is missing once the budget is measured; a larger budget misses the difference.
TEST_F(SearchRuns, APagesFreshnessCountsTheBudgetNotTheGrid) {
  write_config(", search: {strategy: random, budget: 6, seed: 1}");
  ASSERT_EQ(convlab("run s.yaml --quiet").exit_code, 0);
  ASSERT_EQ(convlab("notebook outputs/s --out nb --quiet").exit_code, 0);
  EXPECT_EQ(read_text(dir_ / "nb/index.html").find("points not measured"), std::string::npos)
      << read_text(dir_ / "nb/index.html");
  EXPECT_NE(read_text(dir_ / "nb/s.html")
                .find("the config on disk makes 6 points; every one of "
                      "them has a record"),
            std::string::npos);
  write_config(", search: {strategy: random, budget: 10, seed: 1}");
  ASSERT_EQ(convlab("notebook outputs/s --out nb --quiet").exit_code, 0);
  EXPECT_NE(read_text(dir_ / "nb/index.html").find("4 of 10 points not measured"),
            std::string::npos)
      << read_text(dir_ / "nb/index.html");
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
      {", search: {strategy: bayes}",
       "there are grid, random, annealing, genetic, "
       "dual_annealing, greedy_ils and tpe"},
      {", search: {budget: 0}", "budget is the variants measured per problem"},
      {", search: {max_seconds: 0}", "max_seconds is the time per problem and search"},
      {", search: {ahead: 0}", "ahead is the variants proposed ahead of the measurements"},
      {", search: {gamma: 0.9}", "gamma is above 0 to 0.5"},
      {", search: {population: 1.5}", "expected an integer"},
      {", search: {restrict: [\"AA < 3\"]}",
       "implementations.bowl.search.restrict[0]: unknown parameter 'AA' (did you mean 'A'?)"},
      {", search: {restrict: [\"A > 100\"]}", "the restrictions leave no variant of the 32"},
      {", search: {budget: 3, restrict: [\"A > 100\"]}", "the restrictions leave no variant"},
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
  // A budget and max_seconds together: whichever comes first ends the search.
  write_config(", search: {strategy: random, budget: 3, max_seconds: 60}");
  const auto both = convlab("validate s.yaml");
  EXPECT_EQ(both.exit_code, 0) << both.output;
  EXPECT_NE(both.output.find("budget 3 per problem and search (9.4 % of the space), 3 variants "
                             "to measure at most and at most 1m00s per problem and search"),
            std::string::npos)
      << both.output;
}

// --filter picks searches by their problem, implementation, strategy and seed; a clause on a
// param the search chooses is refused, naming what to do instead.
TEST_F(SearchRuns, AFilterOnASearchedParamIsRefused) {
  write_config(", search: {strategy: [random, annealing], budget: 3, seed: 1}");
  const auto refused = convlab("run s.yaml --filter params.A=3");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("--filter: params.A would pick among the variants of bowl's "
                                "search, which it chooses as it runs"),
            std::string::npos)
      << refused.output;
  const auto picked = convlab("run s.yaml --quiet --filter search.strategy=annealing");
  ASSERT_EQ(picked.exit_code, 0) << picked.output;
  const auto all = records();
  ASSERT_EQ(all.size(), 3u);
  for (const auto& record : all) EXPECT_EQ(record["search"]["strategy"], "annealing");
}

// ---- the convolution space of the literature ----

// configs/tuning_convolution.yaml is Kernel Tuner's convolution space: its params, their values
// and its restrictions, 6768 variants of 16896 combinations.
TEST(TuningConvolution, TheConfigIsTheLiteraturesSpace) {
  const Config config = load_config(CONVLAB_SOURCE_TREE "/configs/tuning_convolution.yaml");
  ASSERT_EQ(config.implementations.size(), 1u);
  const ImplementationSweep& sweep = config.implementations.front();
  const std::map<std::string, json> values{
      {"block_size_x", {1, 2, 4, 8, 16, 32, 48, 64, 96, 112, 128}},
      {"block_size_y", {1, 2, 4, 8, 16, 32}},
      {"tile_size_x", {1, 2, 3, 4, 5, 6, 7, 8}},
      {"tile_size_y", {1, 2, 3, 4, 5, 6, 7, 8}},
      {"use_padding", {0, 1}},
      {"read_only", {0, 1}}};
  ASSERT_EQ(sweep.axis_list.size(), values.size());
  for (const auto& axis : sweep.axis_list) EXPECT_EQ(json(axis.values), values.at(axis.name));
  EXPECT_EQ(sweep.combinations.size(), 6768u);
  for (const Params& p : sweep.combinations) {
    const int threads = p["block_size_x"].get<int>() * p["block_size_y"].get<int>();
    EXPECT_TRUE(threads >= 64 && threads <= 1024) << p.dump();
    EXPECT_LT(p["tile_size_x"].get<int>() * p["tile_size_y"].get<int>(), 30) << p.dump();
  }
  ASSERT_EQ(config.images.size(), 1u);
  EXPECT_EQ(config.images.front().width, 4096);
  EXPECT_EQ(config.images.front().channels, 1);
  EXPECT_EQ(config.filters.front().size, 15);
  EXPECT_EQ(config.outputs, std::vector<OutputType>{OutputType::f32});
}

// The kernel's variants at the corners of the space compile with NVRTC (no GPU needed), the one
// that asks for most shared memory (167 KB) among them; validate compiles them all.
TEST_F(SearchRuns, TheCornersOfTheConvolutionSpaceCompile) {
  if (auto missing = compiler_unavailable(KernelLanguage::cuda))
    GTEST_SKIP() << "skipped: " << *missing;
  write_text(dir_ / "corners.yaml",
             "name: corners\n"
             "images: [{type: generated, sizes: [4096], channels: 1, seed: 42}]\n"
             "kernels: [{type: gaussian, size: 15}]\n"
             "border: zero\noutput: f32\n"
             "implementations:\n"
             "  convolution:\n"
             "    source: " CONVLAB_SOURCE_TREE
             "/examples/kernels/tuning_convolution.cu\n"
             "    params: {block_size_x: [2, 128], block_size_y: [1, 8, 32], tile_size_x: [1, 8],\n"
             "             tile_size_y: [1, 3], use_padding: [0, 1], read_only: [0, 1]}\n"
             "    search:\n"
             "      restrict: [\"block_size_x * block_size_y >= 64\",\n"
             "                 \"block_size_x * block_size_y <= 1024\",\n"
             "                 \"tile_size_x * tile_size_y < 30\"]\n");
  const auto validate = convlab("validate corners.yaml");
  ASSERT_EQ(validate.exit_code, 0) << validate.output;
  EXPECT_NE(validate.output.find("your kernels: 48 variants compiled"), std::string::npos)
      << validate.output;
}

// ---- the committed grid, replayed ----

// The committed grid (outputs/search_grid, measured on the GPU machine) replayed over 100 seeds,
// as docs/search.md reports it.
class SearchReplayOfTheCommittedGrid : public testing::DirectoryTest {
 protected:
  static constexpr const char* kCommand = "search outputs/search_grid";

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

  // What follows the problem's heading: the space's line and the table.
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

// Deterministic, every strategy scored, random search at 0 within its interval, and the trace a
// line per step of every search.
TEST_F(SearchReplayOfTheCommittedGrid, ScoresEveryStrategyAndRandomSearchAtZero) {
  const auto first = replay(" --trace '" + (dir_ / "trace.tsv").string() + "'");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(replay().output, first.output);
  EXPECT_NE(first.output.find("384 variants (1 failed or could not run), the best 0.3593 ms"),
            std::string::npos)
      << first.output;
  const auto rows = rows_of(first.output);
  ASSERT_EQ(rows.size(), search_strategies().size()) << first.output;
  for (SearchStrategy strategy : search_strategies()) {
    const std::string name(to_string(strategy));
    ASSERT_TRUE(rows.count(name)) << name << "\n" << first.output;
    EXPECT_EQ(rows.at(name)[1], strategy == SearchStrategy::grid ? "1" : "100") << name;
  }
  // "0.07 ± 0.17": the score and its interval.
  const std::string random = rows.at("random")[2];
  const auto plus_minus = random.find(" ± ");
  ASSERT_NE(plus_minus, std::string::npos) << random;
  EXPECT_LE(std::fabs(std::stod(random)), std::stod(random.substr(plus_minus + 4)) + 0.01)
      << random;
  // Some guided strategy scores above random search beyond both intervals.
  bool beyond = false;
  for (const auto& [name, cells] : rows) {
    const auto at = cells[2].find(" ± ");
    if (name == "random" || at == std::string::npos) continue;
    beyond |= std::stod(cells[2]) - std::stod(cells[2].substr(at + 4)) >
              std::stod(random) + std::stod(random.substr(plus_minus + 4));
  }
  EXPECT_TRUE(beyond) << first.output;
  const std::string trace = read_text(dir_ / "trace.tsv");
  EXPECT_EQ(std::count(trace.begin(), trace.end(), '\n'),
            1 + 384 * (1 + 100 * (search_strategies().size() - 1)));
}

// Every block of docs/search.md that names a replay ("<!-- convlab search outputs/NAME ...:") is
// what that command prints: the committed grid's, and each space committed after it.
TEST_F(SearchReplayOfTheCommittedGrid, DocsSearchMdQuotesWhatTheReplayPrints) {
  const std::string page = read_text(CONVLAB_SOURCE_TREE "/docs/search.md");
  const std::string start = "<!-- convlab ";
  const std::string end = "<!-- end of the replay -->";
  std::vector<std::string> commands;
  for (auto from = page.find(start); from != std::string::npos; from = page.find(start, from + 1)) {
    const auto colon = page.find(':', from);
    ASSERT_NE(colon, std::string::npos);
    const std::string command = page.substr(from + start.size(), colon - from - start.size());
    commands.push_back(command);
    const auto body = page.find('\n', from) + 1;
    const auto to = page.find(end, body);
    ASSERT_NE(to, std::string::npos)
        << "docs/search.md's block of `" << command << "` has no " << end;
    const auto result = testing::run_convlab(command, CONVLAB_SOURCE_TREE);
    ASSERT_EQ(result.exit_code, 0) << command << "\n" << result.output;
    const std::string printed = after_heading(result.output);
    EXPECT_EQ(trimmed(page.substr(body, to - body)), printed)
        << "docs/search.md's block is not what `convlab " << command
        << "` prints; put this between its markers (and run scripts/search-convergence.sh):\n"
        << printed;
  }
  ASSERT_FALSE(commands.empty());
  EXPECT_EQ(commands.front(), kCommand);

  // The device, the commit and the run each replayed file comes from are named on the page.
  for (const std::string& command : commands) {
    std::istringstream words(command);
    std::string verb, folder;
    words >> verb >> folder;
    // results.json, or results.json.gz for a space too large to keep plain.
    const ResultsFile results = read_results(CONVLAB_SOURCE_TREE "/" + folder + "/results.json");
    ASSERT_FALSE(results.runs.empty()) << folder;
    const RunBlock& run = results.runs.back();
    ASSERT_TRUE(run.git && run.git->commit) << folder;
    const std::string commit = *run.git->commit;
    const std::string run_id = run.id;
    std::set<std::string> gpus;
    for (const Record& record : results.records)
      if (record.status == Status::ok && record.source && record.machine && record.machine->gpu)
        gpus.insert(*record.machine->gpu);
    ASSERT_EQ(gpus.size(), 1u) << folder;
    EXPECT_NE(page.find("**" + *gpus.begin() + "**"), std::string::npos) << *gpus.begin();
    EXPECT_NE(page.find("commit **" + commit + "**"), std::string::npos) << folder << " " << commit;
    EXPECT_NE(page.find("`" + run_id + "`"), std::string::npos) << folder << " " << run_id;
  }
}

}  // namespace
}  // namespace convlab
