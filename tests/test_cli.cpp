// Command-line conventions, through the executable: --version, --filter mistakes, --quiet and
// --verbose, `convlab show`, and `convlab export --format`.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kSmallConfig = R"(name: small
images:
  - {type: generated, sizes: [12, [10, 6]], channels: 1, seed: 3}
kernels:
  - {type: gaussian, size: 3}
  - {type: box, size: 5}
border: replicate
output: [u8, f32]
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 2, max_reps: 3, max_seconds: 0.02}
figures:
  - {name: time, x: kernel.size, y: median_ms, series: [implementation, params.threads],
     panel: [output, image.name], log: y}
)";
constexpr size_t kSmallPoints = 2 * 2 * 2 * 3;

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        testing::fresh_directory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    testing::write_text(dir_ / "small.yaml", kSmallConfig);
  }
  void TearDown() override { fs::remove_all(dir_); }
  testing::CommandResult run(const std::string& arguments) const {
    return testing::run_convlab(arguments, dir_);
  }
  std::string results_text() const {
    return testing::read_text(dir_ / "outputs/small/results.json");
  }
  fs::path dir_;
};

size_t count_lines(const std::string& text, const std::string& containing) {
  std::istringstream lines(text);
  size_t count = 0;
  for (std::string line; std::getline(lines, line);)
    count += line.find(containing) != std::string::npos;
  return count;
}

TEST_F(Cli, VersionNamesCommitBuildCompilerAndOptionalParts) {
  const auto version = run("--version");
  ASSERT_EQ(version.exit_code, 0) << version.output;
  for (const char* expected : {"convlab 0.1.0\n", "commit:", "build type: Release\n",
                               "compiler:", "CUDA:", "NPP:", "build id:"})
    EXPECT_NE(version.output.find(expected), std::string::npos) << expected << version.output;
  EXPECT_TRUE(std::regex_search(version.output, std::regex("CUDA: +(built in|not built in)\n")));
  EXPECT_EQ(run("version").output, version.output);
  EXPECT_EQ(run("version extra").exit_code, 2);
}

TEST_F(Cli, MisspeltFilterFieldExitsTwoWithASuggestion) {
  const auto result = run("run small.yaml --filter 'kernel.sise<=5'");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("unknown field 'kernel.sise' (did you mean 'kernel.size'?)"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(dir_ / "outputs"));
  const auto param = run("run small.yaml --filter params.thread=2");
  EXPECT_EQ(param.exit_code, 2);
  EXPECT_NE(param.output.find("did you mean 'params.threads'?"), std::string::npos) << param.output;
}

TEST_F(Cli, FilterMatchingNothingExitsTwoAndLeavesResultsUntouched) {
  ASSERT_EQ(run("run small.yaml --quiet").exit_code, 0);
  const std::string before = results_text();
  const auto result = run("run small.yaml --force --filter 'kernel.size>=9'");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("no point of small.yaml matches --filter kernel.size>=9"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(results_text(), before);
  EXPECT_EQ(run("run small.yaml --dry-run --filter implementation=cuda_global").exit_code, 2);
}

TEST_F(Cli, QuietPrintsNothingOnSuccessAndVerbosePrintsEveryPoint) {
  const auto quiet = run("run small.yaml --quiet");
  ASSERT_EQ(quiet.exit_code, 0) << quiet.output;
  EXPECT_EQ(quiet.output, "");
  const auto verbose = run("run small.yaml --verbose --force");
  ASSERT_EQ(verbose.exit_code, 0) << verbose.output;
  EXPECT_EQ(count_lines(verbose.output, " repetitions, verified"), kSmallPoints) << verbose.output;
  // The points are in the lines above; the summary is the fastest of each problem.
  EXPECT_NE(verbose.output.find("| fastest | median ms |"), std::string::npos) << verbose.output;
  EXPECT_EQ(verbose.output.find("| implementation | params |"), std::string::npos);
}

TEST_F(Cli, ShowPrintsTheSummaryOfEarlierResultsWithoutRunning) {
  const auto ran = run("run small.yaml --filter implementation=openmp --table");
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  const std::string before = results_text();
  const auto show = run("show outputs/small");
  ASSERT_EQ(show.exit_code, 0) << show.output;
  EXPECT_EQ(count_lines(show.output, "| openmp |"), 16u) << show.output;
  EXPECT_NE(show.output.find("ok 16 \u00b7 skipped 0 \u00b7 failed 0"), std::string::npos)
      << show.output;
  // The table is the one the run printed with --table.
  const std::string table_start = "| implementation |";
  EXPECT_EQ(show.output.substr(show.output.find(table_start), 600),
            ran.output.substr(ran.output.find(table_start), 600));
  EXPECT_EQ(results_text(), before);
  const auto filtered = run("show outputs/small/results.json --filter params.threads=2");
  EXPECT_EQ(count_lines(filtered.output, "| openmp |"), 8u) << filtered.output;
  EXPECT_EQ(run("show outputs/none").exit_code, 2);
  EXPECT_EQ(run("show").exit_code, 2);
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, separator)) cells.push_back(cell);
  return cells;
}

TEST_F(Cli, ExportFormatsGiveOneFlatRowPerRecord) {
  ASSERT_EQ(run("run small.yaml --quiet").exit_code, 0);
  const json records = json::parse(results_text())["records"];

  const auto csv = run("export outputs/small --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  std::istringstream lines(csv.output);
  std::string header_line, first_line;
  std::getline(lines, header_line);
  std::getline(lines, first_line);
  EXPECT_EQ(count_lines(csv.output, ",ok,"), kSmallPoints);
  const auto header = split(header_line, ',');
  const auto first = split(first_line, ',');
  ASSERT_EQ(first.size(), header.size());
  auto column = [&](const std::string& name) {
    const auto at = std::find(header.begin(), header.end(), name);
    EXPECT_NE(at, header.end()) << name << " missing from " << header_line;
    return at == header.end() ? std::string() : first[at - header.begin()];
  };
  EXPECT_EQ(column("implementation"), records[0]["implementation"]);
  EXPECT_EQ(column("image.width"), std::to_string(records[0]["image"]["width"].get<int>()));
  EXPECT_EQ(std::stod(column("median_ms")), records[0]["timing"]["stats"]["median"].get<double>());
  EXPECT_EQ(std::stod(column("speedup")), records[0]["derived"]["speedup"].get<double>());
  EXPECT_EQ(column("verdict"), "ok");
  for (const char* name :
       {"params.threads", "kernel.opencv_default", "cv", "mpix_per_s", "max_abs_error"})
    column(name);

  const auto tsv = run("export outputs/small --format tsv --out points.tsv");
  ASSERT_EQ(tsv.exit_code, 0) << tsv.output;
  const std::string tsv_text = testing::read_text(dir_ / "points.tsv");
  EXPECT_EQ(count_lines(tsv_text, "\tok\t"), kSmallPoints);
  EXPECT_EQ(split(tsv_text.substr(0, tsv_text.find('\n')), '\t'), header);

  const auto md = run("export outputs/small --format md");
  ASSERT_EQ(md.exit_code, 0) << md.output;
  EXPECT_EQ(count_lines(md.output, "| ok |"), kSmallPoints) << md.output;
  EXPECT_NE(md.output.find("\n|---|---|"), std::string::npos);

  EXPECT_EQ(run("export outputs/small --format xml").exit_code, 2);
}

TEST_F(Cli, ResultsOfARunExportWithoutTheirConfig) {
  ASSERT_EQ(run("run small.yaml --quiet").exit_code, 0);
  fs::remove(dir_ / "small.yaml");  // export falls back to the config recorded in results.json
  const json resolved = json::parse(results_text())["run"]["config"]["resolved"];
  EXPECT_EQ(resolved["figures"][0]["log"], "y");
  const auto exported = run("export outputs/small");
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  EXPECT_NE(testing::read_text(dir_ / "outputs/small/export/plots/time.gp").find("logscale y"),
            std::string::npos);

  // Results written by earlier versions recorded `log: y` as true.
  json document = json::parse(results_text());
  document["run"]["config"]["resolved"]["figures"][0]["log"] = true;
  document["runs"].back()["config"]["resolved"]["figures"][0]["log"] = true;
  testing::write_text(dir_ / "outputs/small/results.json", document.dump());
  const auto earlier = run("export outputs/small");
  EXPECT_EQ(earlier.exit_code, 0) << earlier.output;
}

}  // namespace
}  // namespace convlab
