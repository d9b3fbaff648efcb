// convlab history: the pieces (commit selection, CMake arguments, the index, change points) and
// the whole path on a throwaway git repository whose "convlab" is a small C program: each commit
// is checked out in a worktree, configured and built by CMake for its target convlab and run,
// and one commit makes the sequential rung twice as slow. History must find that step, at that
// commit, and no other, and `history check` must exit 1 naming the point, commit and ratio.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "history/build_recipe.hpp"
#include "history/change_points.hpp"
#include "history/commit_selection.hpp"
#include "history/history_index.hpp"
#include "history/history_series.hpp"
#include "store/results_file.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;

// ---- Change points

std::vector<double> noisy_levels(const std::vector<double>& levels, double sigma, unsigned seed) {
  std::mt19937 generator(seed);
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<double> values;
  for (double level : levels) values.push_back(level + noise(generator));
  return values;
}

double penalty_for(const std::vector<double>& values) {
  return change_penalty(std::max(neighbour_noise(values), 1e-3), values.size());
}

TEST(ChangePoints, FindsOneStepWhereTheLevelDoubles) {
  const std::vector<double> levels{0, 0, 0, 0, std::log(2.0), std::log(2.0), std::log(2.0)};
  int exactly = 0;
  for (unsigned seed = 1; seed <= 50; ++seed) {
    const auto values = noisy_levels(levels, 0.03, seed);
    const auto found = change_points(values, penalty_for(values));
    EXPECT_NE(std::find(found.begin(), found.end(), 4u), found.end()) << "seed " << seed;
    exactly += found == std::vector<std::size_t>{4};
  }
  // Now and then a noisy commit splits off as a piece of its own, a change far below any
  // threshold: 49 of these 50 series have the step alone.
  EXPECT_GE(exactly, 45);
}

TEST(ChangePoints, FindsTwoStepsAndNoneInAFlatSeries) {
  const std::vector<double> exact{1, 1, 1, 3, 3, 3, 1, 1};
  EXPECT_EQ(change_points(exact, 0.1), (std::vector<std::size_t>{3, 6}));
  EXPECT_TRUE(change_points({2, 2, 2, 2, 2}, 0.1).empty());
  EXPECT_TRUE(change_points({5}, 0.1).empty());
  EXPECT_TRUE(change_points({}, 0.1).empty());
  // A step at the last commit is found: the newest commit is the one CI asks about.
  EXPECT_EQ(change_points({1, 1, 1, 1, 2}, 0.1), std::vector<std::size_t>{4});
}

TEST(ChangePoints, NoiseAloneRarelyMakesAStep) {
  // Series of five commits with no step: how often does the penalty let noise through?
  int with_change = 0;
  const int series = 2000;
  for (int seed = 0; seed < series; ++seed) {
    const auto values = noisy_levels({0, 0, 0, 0, 0}, 0.05, 1000 + static_cast<unsigned>(seed));
    with_change += !change_points(values, penalty_for(values)).empty();
  }
  // About 3 % (docs/history.md); Mann-Whitney and the threshold stand behind it.
  std::cout << "noise alone: a change in " << with_change << " of " << series << " series\n";
  EXPECT_LT(with_change, series * 6 / 100) << with_change << " of " << series;
}

TEST(ChangePoints, NeighbourNoiseIgnoresOneStep) {
  const auto values = noisy_levels({0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, 0.02, 7);
  EXPECT_LT(neighbour_noise(values), 0.05);
  EXPECT_EQ(neighbour_noise({1.0}), 0.0);
}

// ---- COMMITS and CMake arguments

TEST(CommitSelection, RangesListsAndEveryNth) {
  const CommitSelection selection = parse_commit_selection({"HEAD~3..HEAD", "a1,b2", "v1.0"});
  ASSERT_EQ(selection.parts.size(), 4u);
  EXPECT_TRUE(selection.parts[0].range);
  EXPECT_EQ(selection.parts[0].from, "HEAD~3");
  EXPECT_EQ(selection.parts[0].to, "HEAD");
  EXPECT_EQ(selection.parts[2].to, "b2");
  EXPECT_EQ(part_ids_argv(selection.parts[0]),
            (std::vector<std::string>{"git", "rev-list", "--first-parent", "--reverse",
                                      "HEAD~3..HEAD", "--"}));
  EXPECT_EQ(every_nth({"1", "2", "3", "4", "5", "6", "7"}, 3),
            (std::vector<std::string>{"1", "4", "7"}));
  EXPECT_EQ(every_nth({"1", "2"}, 1), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(unique_in_order({"b", "a", "b"}), (std::vector<std::string>{"b", "a"}));
}

TEST(CommitSelection, RefusesWhatGitWouldReadAsAnOption) {
  for (const std::string bad : {"--output=x", "a...b", "", "a,,b", "a..", "x y", "a,"})
    EXPECT_THROW(parse_commit_selection({bad}), HistoryError) << bad;
}

TEST(BuildRecipe, TakesTheArgumentsThatShapeTheBuild) {
  const std::string cache =
      "# comment\n//help\nCMAKE_BUILD_TYPE:STRING=Release\n"
      "CMAKE_CXX_COMPILER:FILEPATH=/usr/bin/c++\nCMAKE_CXX_COMPILER_AR:FILEPATH=/usr/bin/ar\n"
      "CMAKE_CXX_COMPILER_LAUNCHER:UNINITIALIZED=ccache\nCONVLAB_WITH_CUDA:BOOL=ON\n"
      "CONVLAB_NPP_INCLUDE_DIR:PATH=CONVLAB_NPP_INCLUDE_DIR-NOTFOUND\n"
      "CONVLAB_HAS_MARCH_NATIVE:INTERNAL=1\nCONVLAB_STB_INCLUDE_DIR:PATH=\nOTHER:BOOL=ON\n";
  EXPECT_EQ(
      inherited_cmake_args(cache),
      (std::vector<std::string>{"-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_COMPILER=/usr/bin/c++",
                                "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCONVLAB_WITH_CUDA=ON"}));
  EXPECT_EQ(with_ccache({"-DX=1"}, true).size(), 4u);
  EXPECT_EQ(with_ccache({"-DCMAKE_CXX_COMPILER_LAUNCHER=sccache"}, true).size(), 1u);
  EXPECT_EQ(with_ccache({"-DX=1"}, false).size(), 1u);
  const BuildRecipe a{{"-DX=1"}, 2, "convlab"}, b{{"-DX=1"}, 8, "convlab"},
      c{{"-DX=2"}, 2, "convlab"};
  EXPECT_EQ(recipe_digest(a), recipe_digest(b));  // jobs do not change what is built
  EXPECT_NE(recipe_digest(a), recipe_digest(c));
  const auto stamp = build_stamp_from_text(build_stamp_text({"d", false, "broken", 3.5}));
  ASSERT_TRUE(stamp);
  EXPECT_FALSE(stamp->built);
  EXPECT_EQ(stamp->reason, "broken");
  EXPECT_FALSE(build_stamp_from_text("{not json"));
  EXPECT_EQ(log_tail("a\nb\nc\nd\n\n", 2), "c\nd");
}

// ---- The index

TEST(HistoryIndex, RoundTripsAndNamesTheKeyOfABadValue) {
  HistoryIndex index;
  index.experiment = "quick";
  index.config_path = "configs/quick.yaml";
  index.add_commits({{std::string(40, 'b'), "second", "2026-01-02", 20},
                     {std::string(40, 'a'), "first", "2026-01-01", 10}});
  EXPECT_EQ(index.commits.front().subject, "first");
  CommitRun run;
  run.commit = std::string(40, 'a');
  run.machine = {"host-12345678", "CPU (host)", "key"};
  run.outcome = CommitOutcome::build_failed;
  run.reason = "error: x";
  run.calibration = CpuCalibration{2, 1e10, 5e10, 1.0};
  index.record(run);
  run.reason = "error: y";
  index.record(run);  // the same commit and machine: replaced
  const HistoryIndex back = history_index_from_json(to_json(index), "h.json");
  ASSERT_EQ(back.runs.size(), 1u);
  EXPECT_EQ(back.runs[0].reason, "error: y");
  EXPECT_EQ(back.runs[0].outcome, CommitOutcome::build_failed);
  EXPECT_EQ(back.runs[0].calibration->fma_per_s, 5e10);
  EXPECT_EQ(back.runs[0].results(),
            "machines/host-12345678/" + std::string(40, 'a') + "/results.json");

  nlohmann::json bad = to_json(index);
  bad["runs"][0]["outcome"] = "great";
  try {
    history_index_from_json(bad, "h.json");
    FAIL() << "an unknown outcome was read";
  } catch (const HistoryError& error) {
    EXPECT_NE(std::string(error.what()).find("h.json: runs[0].outcome"), std::string::npos)
        << error.what();
  }
  bad = to_json(index);
  bad["runs"][0]["machine"]["folder"] = "../../etc";
  EXPECT_THROW(history_index_from_json(bad, "h.json"), HistoryError);
}

// ---- The whole path on a throwaway repository

// How many times `what` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The fake project's convlab: `convlab run CONFIG --out DIR` writes DIR/results.json with two
// points, sequential and openmp, twelve samples each around a level that moves a few percent
// from commit to commit (NOISE_SEED), the sequential one's times multiplied by SLOWDOWN. Where the
// current folder holds hang-<NOISE_SEED>, it writes started-<NOISE_SEED> and waits 20 s first.
std::string fake_convlab_source() {
  return R"(#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rung.h"

static unsigned long long state = NOISE_SEED;
static double noise(void) { /* uniform in [-0.5, 0.5) */
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(state >> 11) / 9007199254740992.0 - 0.5;
}
static int ascending(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}
static void point(FILE* out, const char* implementation, const char* params, double base,
                  const char* separator) {
  double samples[12], sorted[12];
  const double level = base * (1.0 + 0.06 * noise());
  for (int i = 0; i < 12; ++i) sorted[i] = samples[i] = level * (1.0 + 0.08 * noise());
  qsort(sorted, 12, sizeof sorted[0], ascending);
  fprintf(out, "%s{\"key\": \"%s\", \"run_id\": \"run-1\", \"implementation\": \"%s\", "
          "\"family\": \"cpu\", \"params\": %s, \"image\": {\"name\": \"noise\", \"width\": 64, "
          "\"height\": 64, \"channels\": 1}, \"kernel\": {\"name\": \"box3\", \"size\": 3}, "
          "\"border\": \"replicate\", \"output\": \"u8\", \"status\": \"ok\", \"timing\": "
          "{\"samples_ms\": [", separator, implementation, implementation, params);
  for (int i = 0; i < 12; ++i) fprintf(out, "%s%.9g", i ? ", " : "", samples[i]);
  fprintf(out, "], \"stats\": {\"median\": %.9g, \"q1\": %.9g, \"q3\": %.9g}}}",
          (sorted[5] + sorted[6]) / 2, sorted[3], sorted[8]);
}
int main(int argc, char** argv) {
  if (argc != 5 || strcmp(argv[1], "run") != 0 || strcmp(argv[3], "--out") != 0) return 2;
  char mark[64];
  snprintf(mark, sizeof mark, "hang-%llu", (unsigned long long)NOISE_SEED);
  if (access(mark, F_OK) == 0) {
    snprintf(mark, sizeof mark, "started-%llu", (unsigned long long)NOISE_SEED);
    FILE* started = fopen(mark, "w");
    if (started) fclose(started);
    sleep(20);
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/results.json", argv[4]);
  FILE* out = fopen(path, "w");
  if (!out) return 2;
  fprintf(out, "{\"schema_version\": SCHEMA, \"experiment\": {\"name\": \"fake\"}, \"runs\": "
          "[{\"id\": \"run-1\", \"host\": {\"cpu_model\": \"Fake CPU\", \"hostname\": "
          "\"fake\"}}], \"records\": [");
  point(out, "sequential", "{}", 2.0 * SLOWDOWN, "");
  point(out, "openmp", "{\"threads\": 2}", 1.0, ", ");
  fprintf(out, "]}\n");
  return fclose(out) == 0 ? 0 : 2;
}
)";
}

std::string with_schema(std::string source) {
  const std::string mark = "SCHEMA";
  source.replace(source.find(mark), mark.size(), std::to_string(kResultsSchemaVersion));
  return source;
}

class HistoryRun : public testing::DirectoryTest {
 protected:
  // Commits the fake project's state with a committer date of its own, returns its id.
  std::string commit(const std::string& subject, int slowdown, int seed, bool broken = false) {
    testing::write_text(repo() / "rung.h", "#define SLOWDOWN " + std::to_string(slowdown) +
                                               "\n#define NOISE_SEED " + std::to_string(seed) +
                                               "ULL\n" +
                                               (broken ? "this does not compile;\n" : ""));
    ++commits_;
    const std::string date = std::to_string(1700000000 + commits_ * 60) + " +0000";
    const CommandResult done = git("add -A && GIT_COMMITTER_DATE='" + date + "' GIT_AUTHOR_DATE='" +
                                   date + "' git -c user.name=t -c user.email=t@t commit -q -m '" +
                                   subject + "' && git rev-parse HEAD");
    EXPECT_EQ(done.exit_code, 0) << done.output;
    return done.output.substr(done.output.size() - 41, 40);
  }
  CommandResult git(const std::string& command) {
    return testing::run_shell("git " + command, repo());
  }
  fs::path repo() const { return dir_ / "repo"; }

  void SetUp() override {
    DirectoryTest::SetUp();
    fs::create_directories(repo());
    ASSERT_EQ(git("init -q").exit_code, 0);
    testing::write_text(repo() / "CMakeLists.txt",
                        "cmake_minimum_required(VERSION 3.16)\nproject(fake C)\n"
                        "add_executable(convlab convlab.c)\n");
    testing::write_text(repo() / "convlab.c", with_schema(fake_convlab_source()));
    testing::write_text(repo() / ".gitignore", "/build/\n");
    testing::write_text(dir_ / "fake.yaml",
                        "name: fake\nimages:\n  - {type: generated, sizes: [64], channels: 1}\n"
                        "kernels:\n  - {type: box, size: 3}\nimplementations:\n"
                        "  sequential: {}\n");
  }

  // Without a CPU calibration unless `calibration` seconds are asked for: the machine's load
  // moves it, and the steps of the fake project are the commits', not the machine's.
  CommandResult history(const std::string& arguments, const char* calibration = "0") {
    return testing::run_shell("CONVLAB_CPU_CALIBRATION_SECONDS=" + std::string(calibration) +
                                  " \"$CONVLAB\" history " + arguments,
                              dir_);
  }

  int commits_ = 0;
};

TEST_F(HistoryRun, FindsTheStepAtTheCommitThatSlowedTheRungAndNowhereElse) {
  const std::string first = commit("Fake rung", 1, 11);
  commit("Retune the noise", 1, 12);
  const std::string slowed = commit("Make the sequential rung do its work twice", 2, 13);
  const std::string broken = commit("Break the build", 2, 14, true);
  commit("Fix the build", 2, 15);
  const std::string last = commit("Tidy", 2, 16);

  const std::string places = " --repo repo --cache cache --out history --jobs 2";
  const CommandResult ran =
      history("run fake.yaml " + first + "~0.." + last + " " + first + places);
  // The range leaves out its first end (git's A..B); naming it as well brings it in.
  EXPECT_EQ(ran.exit_code, 1) << ran.output;  // one commit did not build
  EXPECT_NE(ran.output.find("6 commits of fake"), std::string::npos) << ran.output;
  EXPECT_NE(ran.output.find("build_failed"), std::string::npos) << ran.output;

  const HistoryIndex index = read_history_index((dir_ / "history").string());
  ASSERT_EQ(index.commits.size(), 6u);
  EXPECT_EQ(index.commits.front().id, first);  // ordered by commit date, whatever the order given
  ASSERT_EQ(index.runs.size(), 6u);
  for (const CommitRun& run : index.runs) {
    EXPECT_EQ(run.outcome, run.commit == broken ? CommitOutcome::build_failed : CommitOutcome::ok)
        << run.commit << ": " << run.reason;
    if (run.commit == broken) {
      EXPECT_NE(run.reason.find("this does not compile"), std::string::npos) << run.reason;
    }
  }
  // Each commit's results apart, each built in a worktree of its own.
  EXPECT_TRUE(fs::exists(dir_ / "history" / index.runs[0].results()));
  EXPECT_TRUE(fs::exists(dir_ / "cache" / slowed / "build" / "convlab"));

  const CommandResult check = history("check history");
  EXPECT_EQ(check.exit_code, 1) << check.output;
  EXPECT_EQ(occurrences(check.output, "regression: "), 1u) << check.output;
  EXPECT_NE(check.output.find("regression: Sequential | noise (64x64, 1 ch) | box3"),
            std::string::npos)
      << check.output;
  EXPECT_NE(check.output.find("slower at " + slowed.substr(0, 12) +
                              " (Make the sequential rung do its work twice)"),
            std::string::npos)
      << check.output;
  EXPECT_EQ(check.output.find("improvement:"), std::string::npos) << check.output;
  EXPECT_EQ(check.output.find("unconfirmed:"), std::string::npos) << check.output;
  EXPECT_NE(check.output.find("not measured in full: " + broken.substr(0, 12)), std::string::npos)
      << check.output;
  // The ratio, as the check prints it: about 2.
  const std::size_t factor = check.output.find("x slower");
  ASSERT_NE(factor, std::string::npos);
  const double ratio = std::stod(check.output.substr(check.output.rfind(": ", factor) + 2));
  EXPECT_NEAR(ratio, 2.0, 0.15) << check.output;

  // Since the commit after the step, there is nothing to report.
  const CommandResult since = history("check history --since " + broken.substr(0, 8));
  EXPECT_EQ(since.exit_code, 0) << since.output;

  // Run again: nothing is built or run again.
  const CommandResult again =
      history("run fake.yaml " + first + "~0.." + last + " " + first + places);
  EXPECT_EQ(again.exit_code, 1) << again.output;
  EXPECT_EQ(occurrences(again.output, "done before"), 6u) << again.output;

  // The history's page: the step and its commit in words; the figure's hover names the commit.
  const CommandResult page = testing::run_convlab("notebook history --out notebook --quiet", dir_);
  ASSERT_EQ(page.exit_code, 0) << page.output;
  const std::string html = testing::read_text(dir_ / "notebook" / "history_fake.html");
  EXPECT_NE(html.find("Regression"), std::string::npos);
  EXPECT_NE(html.find("Make the sequential rung do its work twice"), std::string::npos);
  // The table of points: the median in ms, the spread in per cent, the counts bare.
  const std::size_t table_at = html.find("id=\"table-history-points\"");
  ASSERT_NE(table_at, std::string::npos);
  const std::string table = html.substr(table_at, html.find("</table>", table_at) - table_at);
  const auto count = [&](const std::string& what) { return occurrences(table, what); };
  const std::size_t rows = count("<tr><th scope=\"row\"");
  EXPECT_GT(rows, 0u);
  EXPECT_EQ(count("&#160;ms</span>"), rows) << table;
  EXPECT_EQ(count("&#160;%</span>"), rows) << table;
  if (testing::run_shell("command -v gnuplot").exit_code == 0) {
    EXPECT_NE(html.find(slowed.substr(0, 12) + ": Make the sequential rung do its work twice"),
              std::string::npos)
        << "the hover names the commit and its subject";
  }
}

TEST_F(HistoryRun, KeepsMachinesApartAsPanelsAndFindsTheStepOnEach) {
  const std::string first = commit("Fake rung", 1, 11);
  commit("Retune the noise", 1, 12);
  const std::string slowed = commit("Make the sequential rung do its work twice", 2, 13);
  const std::string last = commit("Tidy", 2, 14);
  ASSERT_EQ(history("run fake.yaml " + first + "~0.." + last + " " + first +
                    " --repo repo --cache cache --out history --jobs 2")
                .exit_code,
            0);

  // The same commits as a machine three times slower measured them, in the same folder.
  HistoryIndex index = read_history_index((dir_ / "history").string());
  ASSERT_EQ(index.runs.size(), 4u);
  for (CommitRun run : std::vector<CommitRun>(index.runs)) {
    nlohmann::json results =
        nlohmann::json::parse(testing::read_text(dir_ / "history" / run.results()));
    results["runs"][0]["host"] = {{"cpu_model", "Other CPU"}, {"hostname", "other"}};
    for (auto& record : results["records"]) {
      for (auto& sample : record["timing"]["samples_ms"]) sample = sample.get<double>() * 3;
      for (auto& [name, value] : record["timing"]["stats"].items()) value = value.get<double>() * 3;
    }
    run.machine = {"other-0000abcd", "Other CPU", "Other CPU|other|"};
    fs::create_directories(dir_ / "history" / run.folder());
    testing::write_text(dir_ / "history" / run.results(), results.dump());
    index.record(run);
  }
  write_history_index((dir_ / "history").string(), index);

  const History loaded = load_history((dir_ / "history").string());
  ASSERT_EQ(loaded.panels.size(), 2u);
  EXPECT_NE(loaded.panels[0].label, loaded.panels[1].label);
  std::vector<std::size_t> points_per_panel(2, 0);
  for (const PointHistory& point : loaded.points) {
    ++points_per_panel.at(point.panel);
    EXPECT_EQ(point.commits.size(), 4u) << point.point;  // one value per commit: never mixed
  }
  EXPECT_EQ(points_per_panel, (std::vector<std::size_t>{2, 2}));

  // The step on each machine, at the commit that made it, about 2x: not 3x or 6x between the
  // machines, and nowhere else.
  const CommandResult check = history("check history");
  EXPECT_EQ(check.exit_code, 1) << check.output;
  std::size_t regressions = 0, at_slowed = 0;
  for (std::size_t at = check.output.find("regression: "); at != std::string::npos;
       at = check.output.find("regression: ", at + 1)) {
    ++regressions;
    const std::size_t end = check.output.find('\n', at);
    const std::string line = check.output.substr(at, end - at);
    if (line.find("slower at " + slowed.substr(0, 12)) != std::string::npos) ++at_slowed;
    const std::size_t factor = line.find("x slower");
    ASSERT_NE(factor, std::string::npos) << line;
    EXPECT_NEAR(std::stod(line.substr(line.rfind(": ", factor) + 2)), 2.0, 0.15) << line;
  }
  EXPECT_EQ(regressions, 2u) << check.output;
  EXPECT_EQ(at_slowed, 2u) << check.output;
  EXPECT_NE(check.output.find("Other CPU"), std::string::npos) << check.output;
  EXPECT_EQ(check.output.find("improvement:"), std::string::npos) << check.output;

  // The page draws the machines as panels of one figure, each named.
  const CommandResult page = testing::run_convlab("notebook history --out notebook --quiet", dir_);
  ASSERT_EQ(page.exit_code, 0) << page.output;
  const std::string html = testing::read_text(dir_ / "notebook" / "history_fake.html");
  EXPECT_NE(html.find("2 machines"), std::string::npos);
  // The index names the history's machines and commits and counts every commit's points.
  const std::string index_html = testing::read_text(dir_ / "notebook" / "index.html");
  EXPECT_NE(index_html.find("Other CPU"), std::string::npos) << index_html;
  EXPECT_NE(index_html.find("4 commits: " + first.substr(0, 7) + ".." + last.substr(0, 7)),
            std::string::npos)
      << index_html;
  EXPECT_NE(index_html.find("data-sort=\"16\">16</td>"), std::string::npos)
      << "2 points by 4 commits by 2 machines ok: " << index_html;
  if (testing::run_shell("command -v gnuplot").exit_code == 0) {
    EXPECT_NE(html.find("\"panel\":\"Other CPU\""), std::string::npos);
  }
}

TEST_F(HistoryRun, AnInterruptedHistoryResumesWhereItStopped) {
  const std::string first = commit("Fake rung", 1, 11);
  commit("Retune the noise", 1, 12);
  const std::string last = commit("Retune it again", 1, 13);
  const std::string arguments = "run fake.yaml " + first + "~0.." + last + " " + first +
                                " --repo repo --cache cache --out history --jobs 2";
  // As a terminal's Ctrl-C does: the signal to the whole process group, while the third
  // commit's convlab runs.
  testing::write_text(dir_ / "hang-13", "");
  const CommandResult stopped =
      testing::run_shell("setsid \"$CONVLAB\" history " + arguments +
                             " > stopped.log 2>&1 & pid=$!\n"
                             "for i in $(seq 300); do [ -e started-13 ] && break; sleep 0.1; done\n"
                             "kill -INT -$pid; wait $pid; echo \"status $?\"; cat stopped.log",
                         dir_);
  EXPECT_NE(stopped.output.find("status 130"), std::string::npos) << stopped.output;
  EXPECT_NE(stopped.output.find("interrupted; run the same command again to resume"),
            std::string::npos)
      << stopped.output;
  const HistoryIndex index = read_history_index((dir_ / "history").string());
  EXPECT_EQ(index.commits.size(), 3u);
  EXPECT_EQ(index.runs.size(), 2u) << "nothing is recorded about the commit it stopped";
  for (const CommitRun& run : index.runs) EXPECT_EQ(run.outcome, CommitOutcome::ok);

  fs::remove(dir_ / "hang-13");
  const CommandResult resumed = history(arguments);
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(occurrences(resumed.output, "done before"), 2u) << resumed.output;
  const HistoryIndex after = read_history_index((dir_ / "history").string());
  ASSERT_EQ(after.runs.size(), 3u);
  for (const CommitRun& run : after.runs) EXPECT_EQ(run.outcome, CommitOutcome::ok) << run.commit;

  // SIGTERM to history run alone (kill PID): it sends it on to the convlab it waits for, which
  // would otherwise run on for its 20 s.
  const std::string newest = commit("Retune it once more", 1, 14);
  testing::write_text(dir_ / "hang-14", "");
  const CommandResult killed = testing::run_shell(
      "\"$CONVLAB\" history run fake.yaml " + newest +
          " --repo repo --cache cache --out history > killed.log 2>&1 & pid=$!\n"
          "for i in $(seq 300); do [ -e started-14 ] && break; sleep 0.1; done\n"
          "start=$(date +%s); kill -TERM $pid; wait $pid; status=$?\n"
          "echo \"status $status after $(( $(date +%s) - start )) s\"; cat killed.log",
      dir_);
  EXPECT_NE(killed.output.find("status 130 after "), std::string::npos) << killed.output;
  const std::size_t after_at = killed.output.find(" after ");
  ASSERT_NE(after_at, std::string::npos) << killed.output;
  EXPECT_LT(std::stoi(killed.output.substr(after_at + 7)), 15) << killed.output;
  EXPECT_EQ(
      read_history_index((dir_ / "history").string()).run_of(newest, after.runs[0].machine.folder),
      nullptr);
}

TEST_F(HistoryRun, CalibratesTheCpuBeforeEachCommitsConvlab) {
  const std::string first = commit("Fake rung", 1, 11);
  const std::string second = commit("Retune the noise", 1, 12);
  const CommandResult ran = history(
      "run fake.yaml " + first + "," + second + " --repo repo --cache cache --out history", "0.2");
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  EXPECT_NE(ran.output.find("GFMA/s on"), std::string::npos) << ran.output;
  const HistoryIndex index = read_history_index((dir_ / "history").string());
  ASSERT_EQ(index.runs.size(), 2u);
  for (const CommitRun& run : index.runs) {
    ASSERT_TRUE(run.calibration) << "the fake convlab records none; history run measured it";
    EXPECT_GT(run.calibration->fma_per_s, 0.0);
    EXPECT_GT(run.calibration->copy_bytes_per_s, 0.0);
  }
}

TEST(CalibrationPanels, AMachineThatChangedForGoodStartsAPanelALoneOutlierDoesNot) {
  const auto at = [](double fma) {
    return std::optional<CpuCalibration>(CpuCalibration{2, 40e9, fma, 1.0});
  };
  const std::optional<CpuCalibration> none;
  EXPECT_EQ(calibration_panels({at(100e9), at(101e9), at(60e9), at(100e9), at(99e9)}),
            (std::vector<std::size_t>{0, 0, 0, 0, 0}));
  EXPECT_EQ(calibration_panels({at(100e9), at(101e9), none, at(70e9), at(71e9), at(70e9)}),
            (std::vector<std::size_t>{0, 0, 0, 1, 1, 1}));
  // The last run alone cannot show the machine changed for good.
  EXPECT_EQ(calibration_panels({at(100e9), at(100e9), at(50e9)}),
            (std::vector<std::size_t>{0, 0, 0}));
  // Two runs apart from the panel but also from each other: noise, not another machine.
  EXPECT_EQ(calibration_panels({at(100e9), at(60e9), at(140e9), at(100e9)}),
            (std::vector<std::size_t>{0, 0, 0, 0}));
  EXPECT_EQ(calibration_panels({none, none}), (std::vector<std::size_t>{0, 0}));
  EXPECT_TRUE(calibration_panels({}).empty());
}

TEST_F(HistoryRun, RefusesBadCommitsAndAFolderOfAnotherExperiment) {
  commit("Fake rung", 1, 11);
  CommandResult bad = history("run fake.yaml --oops --repo repo --cache cache --out history");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  bad = history("run fake.yaml nosuchref --repo repo --cache cache --out history");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("git cannot read nosuchref"), std::string::npos) << bad.output;
  fs::create_directories(dir_ / "other");
  testing::write_text(dir_ / "other" / "history.json",
                      "{\"convlab_history\": 1, \"experiment\": \"other\", \"config\": \"x\"}");
  bad = history("run fake.yaml HEAD --repo repo --cache cache --out other");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("a history of 'other'"), std::string::npos) << bad.output;
  bad = history("check nothing-here");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("nothing-here/history.json: no such file"), std::string::npos)
      << bad.output;
  bad = history("frobnicate");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
}

// ---- Calibrations in compare and show

class Calibrations : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "tiny.yaml",
                        "name: tiny\nimages:\n  - {type: generated, sizes: [64], channels: 1}\n"
                        "kernels:\n  - {type: box, size: 3}\nimplementations:\n"
                        "  sequential: {}\n  openmp: {threads: 1}\n"
                        "measure: {warmup: 0, min_reps: 5, max_reps: 5}\n");
  }
  CommandResult convlab(const std::string& arguments) {
    return testing::run_shell("CONVLAB_CPU_CALIBRATION_SECONDS=0.05 \"$CONVLAB\" " + arguments,
                              dir_);
  }
  // Sets the CPU calibration of run block `run` of a results file, as another machine's would be.
  void scale_calibration(const fs::path& results, std::size_t run, double factor) {
    nlohmann::json j = nlohmann::json::parse(testing::read_text(results));
    ASSERT_TRUE(j["runs"][run].contains("cpu_calibration")) << j["runs"][run].dump();
    j["runs"][run]["cpu_calibration"]["fma_per_s"] =
        j["runs"][run]["cpu_calibration"]["fma_per_s"].get<double>() * factor;
    testing::write_text(results, j.dump());
  }
};

TEST_F(Calibrations, CompareSaysAnotherMachineApartFromAnotherBuild) {
  ASSERT_EQ(convlab("run tiny.yaml --out a --quiet").exit_code, 0);
  fs::create_directories(dir_ / "b");
  fs::copy_file(dir_ / "a" / "results.json", dir_ / "b" / "results.json");
  const CommandResult same = convlab("compare a b");
  EXPECT_NE(same.output.find("the same machine (calibration 0 % apart: "), std::string::npos)
      << same.output;
  EXPECT_EQ(same.output.find("another machine"), std::string::npos) << same.output;

  scale_calibration(dir_ / "b" / "results.json", 0, 1.28);
  const CommandResult other = convlab("compare a b --json verdicts.json");
  EXPECT_NE(other.output.find("A against B:\n  another machine (calibration 28 % apart: FMA rate "
                              "28 %, copy bandwidth 0 %): A copy "),
            std::string::npos)
      << other.output;
  EXPECT_EQ(other.output.find("another build"), std::string::npos) << other.output;
  const nlohmann::json verdicts = nlohmann::json::parse(testing::read_text(dir_ / "verdicts.json"));
  EXPECT_EQ(verdicts["conditions"][0].get<std::string>().rfind("another machine", 0), 0u)
      << verdicts["conditions"].dump();

  // A file from a convlab that did not calibrate: said so, not taken for the same machine.
  nlohmann::json j = nlohmann::json::parse(testing::read_text(dir_ / "b" / "results.json"));
  j["runs"][0].erase("cpu_calibration");
  testing::write_text(dir_ / "b" / "results.json", j.dump());
  const CommandResult unknown = convlab("compare a b");
  EXPECT_NE(unknown.output.find("the CPU calibration is not recorded by B's runs"),
            std::string::npos)
      << unknown.output;
}

TEST_F(Calibrations, ATableOfRunsOfDifferentCalibrationsIsFlagged) {
  ASSERT_EQ(convlab("run tiny.yaml --out r --quiet --filter implementation=sequential").exit_code,
            0);
  ASSERT_EQ(convlab("run tiny.yaml --out r --quiet").exit_code, 0);
  const fs::path results = dir_ / "r" / "results.json";
  nlohmann::json j = nlohmann::json::parse(testing::read_text(results));
  ASSERT_EQ(j["runs"].size(), 2u);
  // The second run measured as the first did: within the limit nothing is said.
  j["runs"][1]["cpu_calibration"] = j["runs"][0]["cpu_calibration"];
  testing::write_text(results, j.dump());
  EXPECT_EQ(convlab("show r").output.find("calibration"), std::string::npos);
  scale_calibration(results, 1, 1.0 / 1.28);
  const CommandResult shown = convlab("show r");
  EXPECT_NE(shown.output.find("Runs under different conditions ("), std::string::npos)
      << shown.output;
  EXPECT_NE(shown.output.find("another machine (calibration 28 % apart: FMA rate 28 %"),
            std::string::npos)
      << shown.output;
}

}  // namespace
}  // namespace convlab
