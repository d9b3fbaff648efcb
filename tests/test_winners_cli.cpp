// The winners view through the executable (`convlab show --best`, `convlab export --best`), and
// one --filter with one set of messages in run, show, export and compare.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kConfig = R"(name: small
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
)";
constexpr size_t kProblems = 2 * 2 * 2;

// The results of the small config, run once for every test of the suite.
class WinnersCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = testing::fresh_directory("winners-cli");
    testing::write_text(dir_ / "small.yaml", kConfig);
    const auto ran = testing::run_convlab("run small.yaml --quiet", dir_);
    ASSERT_EQ(ran.exit_code, 0) << ran.output;
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static testing::CommandResult run(const std::string& arguments) {
    return testing::run_convlab(arguments, dir_);
  }
  static fs::path dir_;
};
fs::path WinnersCli::dir_;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> cells_of(const std::string& line, char separator) {
  std::vector<std::string> cells;
  std::istringstream in(line);
  for (std::string cell; std::getline(in, cell, separator);) cells.push_back(cell);
  if (!line.empty() && line.back() == separator) cells.emplace_back();  // a last empty cell
  return cells;
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++count;
  return count;
}

TEST_F(WinnersCli, ShowBestPrintsOneRowPerProblemWithRatiosAndVerdicts) {
  const auto shown = run("show outputs/small --best");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_NE(shown.output.find("Every problem: border replicate.\n"), std::string::npos)
      << shown.output;
  EXPECT_NE(shown.output.find("| image | kernel | output | fastest | median ms | runner-up "
                              "(median ms) | ratio | difference | vs sequential |"),
            std::string::npos)
      << shown.output;
  size_t rows = 0;
  for (const auto& line : lines_of(shown.output)) {
    if (line.rfind("| noise-", 0) != 0) continue;
    ++rows;
    // Three samples each cannot reach p < 0.05: no verdict is claimed.
    EXPECT_NE(line.find("too few samples (p = "), std::string::npos) << line;
  }
  EXPECT_EQ(rows, kProblems) << shown.output;
  EXPECT_NE(shown.output.find("significant when p < 0.05"), std::string::npos);
}

TEST_F(WinnersCli, ExportBestNamesTheFastestPointOfEveryProblem) {
  const auto exported = run("export outputs/small --format csv --best");
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  const auto lines = lines_of(exported.output);
  ASSERT_EQ(lines.size(), kProblems + 1) << exported.output;
  const auto header = cells_of(lines[0], ',');
  const auto column = [&](const std::string& name) {
    return size_t(std::find(header.begin(), header.end(), name) - header.begin());
  };
  ASSERT_LT(column("median_ms"), header.size()) << lines[0];
  // The fastest median of each problem, from results.json itself.
  std::map<std::string, double> fastest;
  const json records =
      json::parse(testing::read_text(dir_ / "outputs/small/results.json"))["records"];
  for (const auto& r : records) {
    const std::string problem = r["image"]["name"].get<std::string>() + "|" +
                                r["kernel"]["name"].get<std::string>() + "|" +
                                r["output"].get<std::string>();
    const double median = r["timing"]["stats"]["median"];
    if (!fastest.count(problem) || median < fastest[problem]) fastest[problem] = median;
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    const auto cells = cells_of(lines[i], ',');
    ASSERT_EQ(cells.size(), header.size()) << lines[i];
    const std::string problem =
        cells[column("image")] + "|" + cells[column("kernel")] + "|" + cells[column("output")];
    EXPECT_EQ(std::stod(cells[column("median_ms")]), fastest.at(problem)) << lines[i];
    EXPECT_GE(std::stod(cells[column("runner_up_ratio")]), 1.0) << lines[i];
    EXPECT_EQ(cells[column("baseline")], "sequential");
  }
}

TEST_F(WinnersCli, ByPivotsToOneColumnPerImplementation) {
  const auto shown = run("show outputs/small --best --by params.threads");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  // A heading per problem, and one for the comparison of openmp's thread counts that follows.
  EXPECT_EQ(count_of(shown.output, "\n## "), kProblems + 1) << shown.output;
  EXPECT_NE(shown.output.find("\n## The values of params.threads of each implementation against "
                              "each other (as --compare params.threads)\n"),
            std::string::npos)
      << shown.output;
  EXPECT_EQ(count_of(shown.output, "| params.threads | sequential ms | openmp ms | fastest |"),
            kProblems)
      << shown.output;
  const auto tsv = run("export outputs/small --format tsv --best --by kernel.size --out by.tsv");
  ASSERT_EQ(tsv.exit_code, 0) << tsv.output;
  const auto lines = lines_of(testing::read_text(dir_ / "by.tsv"));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0],
            "image.name\tkernel.type\tborder\toutput\tmachine\tkernel.size\tsequential.median_ms\t"
            "sequential.configuration\topenmp.median_ms\topenmp.configuration\tfastest\t"
            "fastest_configuration\trunner_up\trunner_up_ratio\tp_value\tdifference");
  EXPECT_EQ(lines.size(), kProblems + 1);

  const auto no_best = run("show outputs/small --by kernel.size");
  EXPECT_EQ(no_best.exit_code, 2);
  EXPECT_NE(no_best.output.find("give --best with it"), std::string::npos) << no_best.output;
  EXPECT_EQ(run("export outputs/small --format csv --by kernel.size").exit_code, 2);
  const auto unknown = run("show outputs/small --best --by kernel.sise");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("did you mean 'kernel.size'?"), std::string::npos)
      << unknown.output;
  const auto report = run("export outputs/small --best");
  EXPECT_EQ(report.exit_code, 2);
  EXPECT_NE(report.output.find("choose the rows of --format"), std::string::npos) << report.output;
}

TEST_F(WinnersCli, CompareGivesEachValueOfAParamAgainstTheFirstWithItsVerdict) {
  const auto shown = run("show outputs/small --compare params.threads");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_NE(shown.output.find("| image | kernel | output | implementation | params.threads | "
                              "median ms | CV % | ratio | difference | speedup | efficiency |"),
            std::string::npos)
      << shown.output;
  // openmp's two thread counts on every problem; sequential has no threads.
  EXPECT_EQ(count_of(shown.output, "| openmp | 1 | "), kProblems) << shown.output;
  EXPECT_EQ(count_of(shown.output, "| openmp | 2 | "), kProblems) << shown.output;
  EXPECT_EQ(count_of(shown.output, "| reference |"), kProblems) << shown.output;
  EXPECT_EQ(count_of(shown.output, "| sequential |"), 0u) << shown.output;
  EXPECT_NE(shown.output.find("speedup T(1) / T(P) and efficiency T(1) / (P T(P))"),
            std::string::npos);
  const auto against = run("show outputs/small --compare params.threads --against 2");
  ASSERT_EQ(against.exit_code, 0) << against.output;
  EXPECT_EQ(count_of(against.output, "| openmp | 2 | "), kProblems);
  EXPECT_NE(against.output.find("ratio: median / the median at params.threads = 2"),
            std::string::npos)
      << against.output;

  const auto csv = run("export outputs/small --format csv --compare params.threads");
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  const auto lines = lines_of(csv.output);
  ASSERT_EQ(lines.size(), 2 * kProblems + 1) << csv.output;
  EXPECT_EQ(lines[0],
            "image,kernel,border,output,machine,implementation,configuration,params.threads,"
            "median_ms,cv,reference,ratio,p_value,verdict,speedup,efficiency,flags,conditions");

  const std::vector<std::pair<std::string, std::string>> mistakes = {
      {"show outputs/small --compare kernel.size", "'kernel.size' is not a params field"},
      {"show outputs/small --compare params.threads --against 3",
       "--against 3: no point has params.threads = 3 (its values: 1, 2)"},
      {"show outputs/small --against 1", "--against names the reference value of --compare"},
      {"show outputs/small --best --compare params.threads", "give it without --best"},
      {"export outputs/small --format csv --against 1", "--against names the reference value"},
      {"export outputs/small --compare params.threads", "choose the rows of --format"}};
  for (const auto& [command, message] : mistakes) {
    const auto refused = run(command);
    EXPECT_EQ(refused.exit_code, 2) << command;
    EXPECT_NE(refused.output.find(message), std::string::npos) << command << refused.output;
  }
}

TEST_F(WinnersCli, FilterMatchingNothingIsRefusedWithRunsMessageEverywhere) {
  const std::string expression = "'kernel.size>=9'";
  const auto ran = run("run small.yaml --dry-run --filter " + expression);
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_NE(ran.output.find("convlab run: no point of small.yaml matches --filter kernel.size>=9"),
            std::string::npos)
      << ran.output;
  const std::string file = "outputs/small/results.json";
  const std::pair<std::string, std::string> commands[] = {
      {"show", "show outputs/small"},
      {"show", "show outputs/small --best"},
      {"export", "export outputs/small --format csv"},
      {"export", "export outputs/small --format md --best --by kernel.size"},
      {"compare", "compare outputs/small outputs/small"}};
  for (const auto& [name, command] : commands) {
    const auto result = run(command + " --filter " + expression);
    EXPECT_EQ(result.exit_code, 2) << command << ": " << result.output;
    EXPECT_EQ(result.output,
              "convlab " + name + ": no point of " + file + " matches --filter kernel.size>=9\n")
        << command;
    const auto misspelt = run(command + " --filter kernel.sise=3");
    EXPECT_EQ(misspelt.exit_code, 2) << command;
    EXPECT_NE(misspelt.output.find("convlab " + name +
                                   ": --filter: unknown field 'kernel.sise' (did you mean "
                                   "'kernel.size'?)"),
              std::string::npos)
        << command << ": " << misspelt.output;
  }
  const auto misspelt_run = run("run small.yaml --dry-run --filter kernel.sise=3");
  EXPECT_NE(misspelt_run.output.find("convlab run: --filter: unknown field 'kernel.sise' (did you "
                                     "mean 'kernel.size'?)"),
            std::string::npos)
      << misspelt_run.output;
}

TEST_F(WinnersCli, ExportFormatKeepsOnlyTheRecordsTheFilterMatches) {
  const auto csv =
      run("export outputs/small --format csv --filter 'implementation=openmp,"
          "params.threads=2'");
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  const auto lines = lines_of(csv.output);
  EXPECT_EQ(lines.size(), kProblems + 1) << csv.output;
  for (size_t i = 1; i < lines.size(); ++i) EXPECT_EQ(lines[i].rfind("openmp,", 0), 0u) << lines[i];
  const auto compared =
      run("compare outputs/small outputs/small --filter implementation=sequential");
  EXPECT_EQ(compared.exit_code, 0) << compared.output;
  EXPECT_NE(compared.output.find(std::to_string(kProblems) + " points compared"), std::string::npos)
      << compared.output;
}

}  // namespace
}  // namespace convlab
