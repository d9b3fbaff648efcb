// What the terminal says, through the executable: a run ends with the fastest of each problem
// (every row with --table), a run that measured nothing prints no time line, validate and
// --dry-run count the points the results folder holds already, a list written without brackets
// gets the list to write, more threads than logical CPUs a warning; and `show --compare` with its
// marks for runs under different conditions.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kConfig = R"(name: quiet
images:
  - {type: generated, sizes: [12], channels: 1, seed: 3}
kernels:
  - {type: gaussian, size: 3}
  - {type: box, size: 5}
border: replicate
output: u8
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 2, max_reps: 3, max_seconds: 0.02}
)";
constexpr size_t kPoints = 2 * 3;
constexpr size_t kProblems = 2;

size_t count_of(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++count;
  return count;
}

class QuietTerminal : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "quiet.yaml", kConfig);
  }
  testing::CommandResult run(const std::string& arguments) const {
    return testing::run_convlab(arguments, dir_);
  }
};

TEST_F(QuietTerminal, ARunEndsWithTheFastestOfEachProblemAndTableWithEveryRow) {
  const auto ran = run("run quiet.yaml");
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  EXPECT_NE(ran.output.find("| kernel | fastest | median ms | runner-up (median ms) |"),
            std::string::npos)
      << ran.output;
  EXPECT_EQ(count_of(ran.output, "\n| gaussian3 |") + count_of(ran.output, "\n| box5 |"), kProblems)
      << ran.output;
  EXPECT_EQ(ran.output.find("| implementation | params |"), std::string::npos) << ran.output;
  EXPECT_NE(ran.output.find("kept 0 \u00b7 ran 6 \u00b7 skipped 0 \u00b7 failed 0"),
            std::string::npos)
      << ran.output;
  EXPECT_NE(ran.output.find("convlab: 6 points in "), std::string::npos) << ran.output;

  const auto table = run("run quiet.yaml --force --table");
  ASSERT_EQ(table.exit_code, 0) << table.output;
  EXPECT_NE(table.output.find("| implementation | params |"), std::string::npos);
  EXPECT_EQ(count_of(table.output, "\n| sequential |") + count_of(table.output, "\n| openmp |"),
            kPoints)
      << table.output;
  EXPECT_EQ(table.output.find("| fastest |"), std::string::npos) << table.output;
}

TEST_F(QuietTerminal, NothingToMeasureIsSaidByValidateAndDryRunAndTheRunPrintsNoTime) {
  const auto before = run("validate quiet.yaml");
  ASSERT_EQ(before.exit_code, 0) << before.output;
  EXPECT_EQ(before.output.find("new point"), std::string::npos) << before.output;
  ASSERT_EQ(run("run quiet.yaml --quiet --filter implementation=sequential").exit_code, 0);
  const auto part = run("validate quiet.yaml");
  EXPECT_NE(part.output.find("\n4 new points (2 measured)\nThe new points take roughly "),
            std::string::npos)
      << part.output;
  ASSERT_EQ(run("run quiet.yaml --quiet").exit_code, 0);

  const auto validated = run("validate quiet.yaml");
  ASSERT_EQ(validated.exit_code, 0) << validated.output;
  EXPECT_NE(validated.output.find("\n0 new points (6 measured)\n"), std::string::npos)
      << validated.output;
  EXPECT_EQ(validated.output.find("take roughly"), std::string::npos) << validated.output;
  const auto dry = run("run quiet.yaml --dry-run");
  ASSERT_EQ(dry.exit_code, 0) << dry.output;
  EXPECT_EQ(count_of(dry.output, " | measured |"), kPoints) << dry.output;
  EXPECT_NE(dry.output.find("\n0 new points (6 measured)\nNothing new to measure"),
            std::string::npos)
      << dry.output;
  // --force measures them all again: nothing counts as measured.
  const auto forced = run("run quiet.yaml --dry-run --force");
  EXPECT_EQ(forced.output.find("measured"), std::string::npos) << forced.output;

  const auto again = run("run quiet.yaml");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("kept 6 \u00b7 ran 0"), std::string::npos) << again.output;
  EXPECT_EQ(again.output.find(" points in "), std::string::npos) << again.output;
}

TEST_F(QuietTerminal, AListWithoutBracketsGetsTheListToWrite) {
  testing::write_text(dir_ / "plain.yaml",
                      std::string(kConfig).replace(std::string(kConfig).find("{threads: [1, 2]}"),
                                                   17, "\n    threads: 1,2"));
  const auto plain = run("validate plain.yaml");
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_NE(plain.output.find("plain.yaml:12:14: implementations.openmp.threads: '1,2' is one "
                              "value; to sweep several values write a list: threads: [1, 2]"),
            std::string::npos)
      << plain.output;
  testing::write_text(dir_ / "braces.yaml",
                      std::string(kConfig).replace(std::string(kConfig).find("[1, 2]"), 6, "1,2"));
  const auto braces = run("validate braces.yaml");
  EXPECT_EQ(braces.exit_code, 2);
  EXPECT_NE(braces.output.find("implementations.openmp.2: in braces a comma ends a value, so "
                               "{threads: 1,2} is threads 1 and keys without values; to sweep "
                               "several values write a list: threads: [1, 2]"),
            std::string::npos)
      << braces.output;
}

TEST_F(QuietTerminal, MoreThreadsThanLogicalCpusIsAWarningNotAnError) {
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  const std::string many = std::to_string(cpus + 1);
  testing::write_text(
      dir_ / "many.yaml",
      std::string(kConfig).replace(std::string(kConfig).find("[1, 2]"), 6, "[1, " + many + "]"));
  const auto validated = run("validate many.yaml");
  EXPECT_EQ(validated.exit_code, 0) << validated.output;
  EXPECT_NE(validated.output.find("convlab validate: warning: openmp asks for " + many +
                                  " threads, but this machine has "),
            std::string::npos)
      << validated.output;
  EXPECT_EQ(run("validate quiet.yaml").output.find("warning"), std::string::npos);
}

// Two runs: openmp with one thread, then the rest; their load averages then set as if the first
// ran under load.
class RunsUnderTwoConditions : public QuietTerminal {
 protected:
  void SetUp() override {
    QuietTerminal::SetUp();
    ASSERT_EQ(run("run quiet.yaml --quiet --filter params.threads=1").exit_code, 0);
    ASSERT_EQ(run("run quiet.yaml --quiet").exit_code, 0);
    const fs::path file = dir_ / "outputs/quiet/results.json";
    json results = json::parse(testing::read_text(file));
    ASSERT_EQ(results["runs"].size(), 2u);
    results["runs"][0]["conditions"]["load_average"] = {2.5, 2.0, 1.5};
    results["runs"][1]["conditions"]["load_average"] = {0.25, 0.2, 0.1};
    testing::write_text(file, results.dump(1));
    first_run_ = results["runs"][0]["id"].get<std::string>();
  }
  std::string first_run_;
};

TEST_F(RunsUnderTwoConditions, CompareMarksTheRatiosAndNamesTheRuns) {
  const auto shown = run("show outputs/quiet --compare params.threads");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_NE(shown.output.find("| kernel | implementation | params.threads | median ms | CV % | "
                              "ratio | difference | speedup | efficiency |"),
            std::string::npos)
      << shown.output;
  EXPECT_EQ(count_of(shown.output, "| reference |"), kProblems) << shown.output;
  EXPECT_EQ(count_of(shown.output, "x\u00a7 | "), kProblems) << shown.output;
  EXPECT_NE(shown.output.find("Runs under different conditions (load average at the start "
                              "differs by more than one core): " +
                              first_run_ + " (load 2.50, commit "),
            std::string::npos)
      << shown.output;
  // Every table that shows the points of both runs says so.
  for (const char* command :
       {"show outputs/quiet", "show outputs/quiet --best --by params.threads"}) {
    const auto other = run(command);
    ASSERT_EQ(other.exit_code, 0) << other.output;
    EXPECT_NE(other.output.find("\nRuns under different conditions (load average"),
              std::string::npos)
        << command << "\n"
        << other.output;
  }
  const auto csv = run("export outputs/quiet --format csv --compare params.threads");
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  EXPECT_NE(csv.output.find("convlab export: note: Runs under different conditions"),
            std::string::npos)
      << csv.output;
  EXPECT_EQ(count_of(csv.output, ",different\n"), kProblems) << csv.output;
  // One run alone mixes nothing.
  const auto one = run("show outputs/quiet --filter params.threads=2");
  EXPECT_EQ(one.output.find("Runs under different conditions"), std::string::npos) << one.output;
}

}  // namespace
}  // namespace convlab
