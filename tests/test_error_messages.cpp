// Errors that come from outside the config's keys (results files of the wrong shape, the file
// system, memory) still name the file and the key or JSON path at fault, exit 2, leave earlier
// results as they were and write nothing partial.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kSmallConfig = R"(name: small
images:
  - {type: generated, sizes: [9], channels: [1], seed: 5}
kernels:
  - {type: gaussian, size: 3}
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 1, max_reps: 2, max_seconds: 0.01}
)";

class ErrorMessages : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "small.yaml", kSmallConfig);
  }

  // A valid results file of the small config, then `edit` applied to it.
  std::string results_with(const std::function<void(json&)>& edit) {
    const auto result = testing::run_convlab("run small.yaml --out base", dir_);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    json doc = json::parse(testing::read_text(dir_ / "base/results.json"));
    edit(doc);
    fs::create_directories(dir_ / "outputs/small");
    const std::string text = doc.dump(1);
    testing::write_text(dir_ / "outputs/small/results.json", text);
    return text;
  }

  // `run` and `export` both refuse the file with `needle` in one message, and leave it as it was.
  void expect_refused_file(const std::string& text, const std::string& needle) {
    const auto run = testing::run_convlab("run small.yaml", dir_);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find("outputs/small/results.json: " + needle), std::string::npos)
        << run.output;
    EXPECT_EQ(testing::read_text(dir_ / "outputs/small/results.json"), text);
    const auto exported = testing::run_convlab("export outputs/small --out exported", dir_);
    EXPECT_EQ(exported.exit_code, 2) << exported.output;
    EXPECT_NE(exported.output.find("outputs/small/results.json: " + needle), std::string::npos)
        << exported.output;
    EXPECT_EQ(run.output.find("json.exception"), std::string::npos) << run.output;
    EXPECT_EQ(exported.output.find("json.exception"), std::string::npos) << exported.output;
  }
};

TEST_F(ErrorMessages, ResultsFileFieldOfTheWrongTypeIsNamed) {
  const auto text = results_with([](json& doc) { doc["records"][1]["params"] = "threads=2"; });
  expect_refused_file(text, "records[1].params: expected an object, got a string");
}

TEST_F(ErrorMessages, ResultsFileExperimentOfTheWrongTypeIsNamed) {
  const auto text = results_with([](json& doc) { doc["experiment"] = "small"; });
  expect_refused_file(text, "experiment: expected an object, got a string");
}

TEST_F(ErrorMessages, ResultsFileNestedTimingOfTheWrongTypeIsNamed) {
  const auto text =
      results_with([](json& doc) { doc["records"][0]["timing"]["stats"]["median"] = "fast"; });
  expect_refused_file(text, "records[0].timing.stats.median: expected a number");
}

TEST_F(ErrorMessages, ResultsFileRunBlockOfTheWrongTypeIsNamed) {
  const auto text = results_with([](json& doc) { doc["runs"][0]["id"] = 42; });
  expect_refused_file(text, "runs[0].id: expected a string, got a number");
}

TEST_F(ErrorMessages, ResultsPathThatIsADirectoryIsNamed) {
  fs::create_directories(dir_ / "outputs/small/results.json");
  const auto run = testing::run_convlab("run small.yaml", dir_);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("outputs/small/results.json: is a directory"), std::string::npos)
      << run.output;
}

TEST_F(ErrorMessages, OutputFolderNameTooLongIsNamedAndNothingRuns) {
  const std::string long_name(300, 'x');
  const auto run = testing::run_convlab("run small.yaml --out " + long_name, dir_);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find(long_name + "/results.json: cannot read (File name too long)"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("filesystem error"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("| sequential"), std::string::npos) << "points ran: " << run.output;
}

TEST_F(ErrorMessages, EmptyOutputFolderIsRefused) {
  const auto run = testing::run_convlab("run small.yaml --out ''", dir_);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("--out '': cannot be empty"), std::string::npos) << run.output;
}

TEST_F(ErrorMessages, ExportConfigIsReadStrictly) {
  ASSERT_EQ(testing::run_convlab("run small.yaml", dir_).exit_code, 0);
  testing::write_text(dir_ / "dup.yaml", std::string(kSmallConfig) + "name: again\n");
  const auto exported =
      testing::run_convlab("export outputs/small --config dup.yaml --out exported", dir_);
  EXPECT_EQ(exported.exit_code, 2) << exported.output;
  EXPECT_NE(exported.output.find("dup.yaml:10:1: name: duplicate key 'name'"), std::string::npos)
      << exported.output;
}

TEST_F(ErrorMessages, AllocationFailureNamesTheConfigAndExitsTwo) {
  // A config near the size limits needs about 130 MB to validate. The address space convlab needs
  // to start (its size, the CUDA kernels compiled in, the shared libraries it loads) is found
  // first, by halving; 16 MB more is enough to start reading the config but not to finish, so an
  // allocation fails inside the YAML library.
  std::ofstream big(dir_ / "big.yaml");
  big << kSmallConfig << "figures:\n";
  for (int i = 0; i < 12000; ++i)
    big << "  - {name: f" << i << ", type: line, x: image.width, y: median_ms}\n";
  big.close();
  long starts = 1 << 20, fails = 1024;  // KB
  ASSERT_EQ(testing::run_shell("ulimit -v " + std::to_string(starts) + "; \"$CONVLAB\" version")
                .exit_code,
            0);
  while (starts - fails > 256) {
    const long middle = (starts + fails) / 2;
    const bool started =
        testing::run_shell("ulimit -v " + std::to_string(middle) + "; \"$CONVLAB\" version")
            .exit_code == 0;
    (started ? starts : fails) = middle;
  }
  const std::string limit = std::to_string(starts + 16000);
  const auto result =
      testing::run_shell("ulimit -v " + limit + "; \"$CONVLAB\" validate big.yaml", dir_);
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("big.yaml: not enough memory"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("terminate"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace convlab
