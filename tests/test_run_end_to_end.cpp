// `convlab run` on tiny configs, with the results file checked field by field.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "core/sha256.hpp"
#include "images/image_source.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kTinyConfig = R"(name: tiny
title: Tiny end-to-end check
description: two images, two kernels, two borders, three implementation points
images:
  - {type: generated, sizes: [[9, 7], 16], channels: [3], seed: 5}
kernels:
  - {type: gaussian, size: 3}
  - {type: sobel_x}
border: [reflect, zero]
output: u8
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 1, min_reps: 2, max_reps: 4, max_seconds: 0.05}
)";

constexpr size_t kTinyPoints = 2 * 2 * 2 * 3;

class EndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        testing::fresh_directory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    testing::write_text(dir_ / "tiny.yaml", kTinyConfig);
  }
  void TearDown() override { fs::remove_all(dir_); }
  json results() const {
    return json::parse(testing::read_text(dir_ / "outputs/tiny/results.json"));
  }
  fs::path dir_;
};

TEST_F(EndToEnd, ResultsFileHasEveryDocumentedField) {
  // --table: the summary lists every point's row, not the fastest of each problem.
  const auto result = testing::run_convlab("run tiny.yaml --table", dir_);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("| implementation | params | image | kernel | border | output | "
                               "median ms | CV % | speedup | verdict |"),
            std::string::npos);
  const json doc = results();
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["experiment"]["name"], "tiny");
  EXPECT_EQ(doc["experiment"]["title"], "Tiny end-to-end check");
  EXPECT_EQ(doc["experiment"]["baseline"]["implementation"], "sequential");

  const json& run = doc["run"];
  EXPECT_EQ(run, doc["runs"].back());
  EXPECT_EQ(run["argv"][1], "run");
  EXPECT_TRUE(std::regex_match(run["started"].get<std::string>(),
                               std::regex("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ")));
  EXPECT_TRUE(run["finished"].is_string());
  EXPECT_EQ(run["config"]["path"], "tiny.yaml");
  EXPECT_EQ(run["config"]["sha256"], sha256_hex(std::string(kTinyConfig)));
  EXPECT_EQ(run["config"]["resolved"]["measure"]["max_reps"], 4);
  const json& openmp_axes = run["config"]["resolved"]["implementations"]["openmp"];
  EXPECT_EQ(openmp_axes["threads"], json::array({1, 2}));
  EXPECT_EQ(openmp_axes["schedule"], json::array({"static"}));  // the default, filled in
  EXPECT_TRUE(run["git"].contains("commit"));
  EXPECT_EQ(run["build"]["id"].get<std::string>().size(), 64u);
  EXPECT_FALSE(run["build"]["compiler"].get<std::string>().empty());
  EXPECT_EQ(run["build"]["build_type"], "Release");
  EXPECT_FALSE(run["host"]["cpu_model"].get<std::string>().empty());
  EXPECT_GT(run["host"]["memory_bytes"].get<double>(), 0);
  EXPECT_FALSE(run.contains("cuda"));  // no CUDA point in this plan
  // What else the machine did: load average (Linux always has it) and the CPU governor, or why
  // there is none.
  const json& conditions = run["conditions"];
  ASSERT_EQ(conditions["load_average"].size(), 3u);
  for (const json& load : conditions["load_average"]) EXPECT_GE(load.get<double>(), 0.0);
  if (conditions["cpu_governor"].is_null()) {
    EXPECT_FALSE(conditions["cpu_governor_note"].get<std::string>().empty());
  } else {
    EXPECT_FALSE(conditions["cpu_governor"].get<std::string>().empty());
  }

  const json& records = doc["records"];
  ASSERT_EQ(records.size(), kTinyPoints);
  std::set<std::string> keys;
  for (const json& r : records) {
    keys.insert(r["key"].get<std::string>());
    EXPECT_TRUE(std::regex_match(r["key"].get<std::string>(), std::regex("[0-9a-f]{64}")));
    EXPECT_EQ(r["run_id"], run["id"]);
    EXPECT_EQ(r["status"], "ok") << r["reason"];
    EXPECT_EQ(r["reason"], "");
    EXPECT_EQ(r["family"], "cpu");
    const json& image = r["image"];
    const int w = image["width"], h = image["height"];
    EXPECT_EQ(image["channels"], 3);
    EXPECT_EQ(image["sha256"], generate_image(w, h, 3, 5, "noise").sha256);
    EXPECT_EQ(image["name"], "noise-" + std::to_string(w) + "x" + std::to_string(h) + "-c3-s5");
    EXPECT_EQ(r["kernel"]["separable"], true);  // gaussian and sobel are both rank 1
    EXPECT_EQ(r["output"], "u8");
    const json& timing = r["timing"];
    const size_t reps = timing["samples_ms"].size();
    EXPECT_GE(reps, 2u);
    EXPECT_LE(reps, 4u);
    EXPECT_EQ(timing["repetitions"], reps);
    EXPECT_EQ(timing["warmup"], 1);
    const json& stats = timing["stats"];
    for (const char* field : {"min", "q1", "median", "mean", "q3", "max", "stddev", "cv"})
      EXPECT_TRUE(stats[field].is_number()) << field;
    EXPECT_LE(stats["min"].get<double>(), stats["median"].get<double>());
    EXPECT_LE(stats["median"].get<double>(), stats["max"].get<double>());
    const json& derived = r["derived"];
    EXPECT_EQ(derived["pixels"].get<double>(), double(w) * h);
    EXPECT_EQ(derived["macs"].get<double>(), double(w) * h * 3 * 9);
    EXPECT_EQ(derived["bytes"].get<double>(), double(w) * h * 3 * 2);
    for (const char* field : {"mpix_per_s", "gmac_per_s", "gb_per_s", "ns_per_mac", "speedup"})
      EXPECT_GT(derived[field].get<double>(), 0) << field;
    if (r["implementation"] == "sequential") {
      EXPECT_DOUBLE_EQ(derived["speedup"].get<double>(), 1.0);
    }
    if (r["implementation"] == "openmp") {
      EXPECT_GT(derived["efficiency"].get<double>(), 0);
      if (r["params"]["threads"] == 1) {
        EXPECT_DOUBLE_EQ(derived["efficiency"].get<double>(), 1.0);
      }
      EXPECT_EQ(r["params"]["schedule"], "static");
    }
    EXPECT_EQ(r["verification"]["verdict"], "ok");
    EXPECT_EQ(r["verification"]["values_compared"], w * h * 3);
    EXPECT_EQ(r["verification"]["values_beyond_tolerance"], 0);
    EXPECT_LE(r["verification"]["max_abs_error"].get<double>(), 1.0);
  }
  EXPECT_EQ(keys.size(), kTinyPoints);
  EXPECT_FALSE(fs::exists(dir_ / "outputs/tiny/results.json.tmp"));
}

// A commit handed in names the measured source even where the tree's own .git is stale.
TEST_F(EndToEnd, HandedInCommitWinsOverTheTreesGit) {
  const auto result =
      testing::run_shell("CONVLAB_SOURCE_COMMIT=0123abcd \"$CONVLAB\" run tiny.yaml", dir_);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const json git = results()["run"]["git"];
  EXPECT_EQ(git["commit"], "0123abcd");
  EXPECT_EQ(git["source"], "CONVLAB_SOURCE_COMMIT");
}

TEST_F(EndToEnd, InterruptedRunResumesAndKeepsEarlierRecords) {
  auto first = testing::run_convlab("run tiny.yaml --max-points 5", dir_);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const json partial = results();
  ASSERT_EQ(partial["records"].size(), 5u);
  EXPECT_TRUE(partial["run"]["finished"].is_string());

  auto second = testing::run_convlab("run tiny.yaml", dir_);
  ASSERT_EQ(second.exit_code, 0) << second.output;
  const json full = results();
  ASSERT_EQ(full["records"].size(), kTinyPoints);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(full["records"][i]["key"], partial["records"][i]["key"]);
    EXPECT_EQ(full["records"][i]["timing"]["samples_ms"],
              partial["records"][i]["timing"]["samples_ms"]);
    EXPECT_EQ(full["records"][i]["run_id"], partial["run"]["id"]);
  }
  EXPECT_NE(full["records"][5]["run_id"], partial["run"]["id"]);
  EXPECT_EQ(full["runs"].size(), 2u);  // both runs still own records

  auto forced =
      testing::run_convlab("run tiny.yaml --force --filter implementation=sequential", dir_);
  ASSERT_EQ(forced.exit_code, 0) << forced.output;
  const json after = results();
  EXPECT_EQ(after["records"].size(), kTinyPoints);
  for (const json& r : after["records"])
    if (r["implementation"] == "sequential") {
      EXPECT_EQ(r["run_id"], after["run"]["id"]);
    }
}

TEST_F(EndToEnd, MeasurementByAnotherBuildIsReplacedInPlace) {
  ASSERT_EQ(
      testing::run_convlab("run tiny.yaml --filter implementation=sequential", dir_).exit_code, 0);
  json doc = results();
  ASSERT_EQ(doc["records"].size(), 8u);
  // Pretend the first record came from another build: its key no longer matches.
  const std::string point = doc["records"][0]["point_id"];
  doc["records"][0]["key"] = std::string(64, '0');
  testing::write_text(dir_ / "outputs/tiny/results.json", doc.dump());
  ASSERT_EQ(
      testing::run_convlab("run tiny.yaml --filter implementation=sequential", dir_).exit_code, 0);
  const json after = results();
  ASSERT_EQ(after["records"].size(), 8u);
  EXPECT_EQ(after["records"][0]["point_id"], point);
  EXPECT_NE(after["records"][0]["key"], std::string(64, '0'));
  EXPECT_EQ(after["records"][0]["run_id"], after["run"]["id"]);
  EXPECT_EQ(after["records"][1]["run_id"], doc["run"]["id"]);  // the others were kept
}

TEST_F(EndToEnd, CorruptResultsFileIsNeverOverwritten) {
  fs::create_directories(dir_ / "outputs/tiny");
  testing::write_text(dir_ / "outputs/tiny/results.json", "{ half a file");
  const auto result = testing::run_convlab("run tiny.yaml", dir_);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("results.json"), std::string::npos) << result.output;
  EXPECT_EQ(testing::read_text(dir_ / "outputs/tiny/results.json"), "{ half a file");
}

TEST_F(EndToEnd, DryRunPrintsThePlanAndWritesNothing) {
  const auto result =
      testing::run_convlab("run tiny.yaml --dry-run --filter kernel.type=sobel_x", dir_);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("12 points"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(dir_ / "outputs"));
}

TEST_F(EndToEnd, FilterAndOutDir) {
  const auto result = testing::run_convlab(
      "run tiny.yaml --out elsewhere --filter 'implementation=openmp,params.threads=2,border=zero'",
      dir_);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const json doc = json::parse(testing::read_text(dir_ / "elsewhere/results.json"));
  EXPECT_EQ(doc["records"].size(), 4u);
  for (const json& r : doc["records"]) EXPECT_EQ(r["border"], "zero");
}

TEST_F(EndToEnd, UsageErrorsExitTwo) {
  EXPECT_EQ(testing::run_convlab("run", dir_).exit_code, 2);
  EXPECT_EQ(testing::run_convlab("run tiny.yaml --bogus", dir_).exit_code, 2);
  EXPECT_EQ(testing::run_convlab("run tiny.yaml --filter nonsense", dir_).exit_code, 2);
  EXPECT_EQ(testing::run_convlab("run missing.yaml", dir_).exit_code, 2);
  EXPECT_EQ(testing::run_convlab("frobnicate", dir_).exit_code, 2);
  EXPECT_EQ(testing::run_convlab("validate tiny.yaml", dir_).exit_code, 0);
  const auto list = testing::run_convlab("list", dir_);
  EXPECT_EQ(list.exit_code, 0);
  for (const char* name :
       {"sequential", "openmp", "cpu_rows", "cuda_shared", "gaussian", "reflect"})
    EXPECT_NE(list.output.find(name), std::string::npos) << name;
}

TEST_F(EndToEnd, CudaPointsAreSkippedWithAReasonWithoutADevice) {
  testing::write_text(dir_ / "gpu.yaml", R"(name: gpu
images:
  - {type: generated, sizes: [8], channels: 1}
kernels:
  - {type: box, size: 3}
implementations:
  sequential: {}
  cuda_global: {block: [[16, 16], [32, 8]]}
measure: {min_reps: 1, max_reps: 1}
)");
  const auto result = testing::run_convlab("run gpu.yaml", dir_);
  const json doc = json::parse(testing::read_text(dir_ / "outputs/gpu/results.json"));
  if (doc["run"]["cuda"].value("available", false)) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(result.exit_code, 0) << result.output;
  int skipped = 0;
  for (const json& r : doc["records"])
    if (r["family"] == "cuda") {
      EXPECT_EQ(r["status"], "skipped");
      EXPECT_FALSE(r["reason"].get<std::string>().empty());
      ++skipped;
    }
  EXPECT_EQ(skipped, 2);
  // Skipped points are one line per reason, not rows of the table; the run is counted.
  EXPECT_EQ(result.output.find("| cuda_global"), std::string::npos) << result.output;
  const std::string reason = doc["records"][1]["reason"];
  EXPECT_NE(result.output.find("2 points skipped: " + reason + "\n"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("kept 0 \u00b7 ran 1 \u00b7 skipped 2 \u00b7 failed 0"),
            std::string::npos)
      << result.output;
  const auto again = testing::run_convlab("run gpu.yaml", dir_);
  EXPECT_NE(again.output.find("kept 1 \u00b7 ran 0 \u00b7 skipped 2 \u00b7 failed 0"),
            std::string::npos)
      << again.output;
}

TEST_F(EndToEnd, MediansPrintInPlainDecimal) {
  const auto result =
      testing::run_convlab("run tiny.yaml --filter implementation=sequential", dir_);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::regex exponent("\\| [0-9.]+e[+-][0-9]+ \\|");
  EXPECT_FALSE(std::regex_search(result.output, exponent)) << result.output;
  EXPECT_NE(result.output.find("kept 0 \u00b7 ran 8 \u00b7 skipped 0 \u00b7 failed 0"),
            std::string::npos)
      << result.output;
}

TEST_F(EndToEnd, ThreadsArePinnedAndEfficiencyIsOneThreadOverPTimesPThreads) {
  const auto result = testing::run_convlab("run tiny.yaml", dir_);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const json doc = results();
  const json& openmp = doc["run"]["host"]["openmp"];
  if (std::getenv("OMP_PROC_BIND") || std::getenv("OMP_PLACES") ||
      std::getenv("CONVLAB_OMP_PINNING"))
    GTEST_SKIP() << "the test environment sets its own OpenMP binding";
  EXPECT_EQ(openmp["CONVLAB_OMP_PINNING"], "convlab");
  EXPECT_EQ(openmp["OMP_PROC_BIND"], "close");
  EXPECT_EQ(openmp["OMP_PLACES"], "cores");
  EXPECT_EQ(openmp["proc_bind"], "close");  // what the runtime applies, not just the variable
  EXPECT_GE(openmp["places"].get<int>(), 1);
  EXPECT_TRUE(doc["run"]["build"]["opencv_built"].is_boolean());

  // E = T(1) / (P T(P)) from the two openmp records of each problem.
  std::map<std::string, std::map<int, const json*>> by_problem;
  for (const json& r : doc["records"])
    if (r["implementation"] == "openmp")
      by_problem[r["image"]["name"].get<std::string>() + r["kernel"]["name"].get<std::string>() +
                 r["border"].get<std::string>()][r["params"]["threads"].get<int>()] = &r;
  ASSERT_FALSE(by_problem.empty());
  for (const auto& [problem, records] : by_problem) {
    ASSERT_EQ(records.size(), 2u) << problem;
    const double t1 = (*records.at(1))["timing"]["stats"]["median"];
    const double t2 = (*records.at(2))["timing"]["stats"]["median"];
    EXPECT_DOUBLE_EQ((*records.at(2))["derived"]["efficiency"].get<double>(), t1 / (2 * t2));
    EXPECT_TRUE((*records.at(2))["verification"]["values_not_exact"].is_number());
  }
}

TEST_F(EndToEnd, InterleavedPointsOfAProblemAreTimedTogetherAndResume) {
  testing::write_text(dir_ / "tiny.yaml", R"(name: tiny
images:
  - {type: generated, sizes: [[9, 7]], channels: [3], seed: 5}
kernels:
  - {type: gaussian, size: 3}
  - {type: log, size: 5}
border: replicate
output: u8
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
  cpu_fused: {threads: [1, 2]}
  opencv_gaussianblur: {threads: [1, 2]}
measure: {interleave: true, warmup: 1, min_reps: 2, max_reps: 4, max_seconds: 10}
)");
  const auto first = testing::run_convlab("run tiny.yaml", dir_);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  // OpenMP points and OpenCV points with two threads each: their pools' spinning biases them.
  EXPECT_NE(first.output.find("opencv_gaussianblur (opencv), openmp (openmp) run on different "
                              "thread pools"),
            std::string::npos)
      << first.output;
  const json doc = results();
  EXPECT_EQ(doc["run"]["measure"]["interleave"], true);
  ASSERT_EQ(doc["records"].size(), 14u);
  // OpenCV's points (two thread counts, prepared side by side, each setting its own count before
  // its calls) run when it was found at build time; GaussianBlur takes only the Gaussian.
  const int opencv = doc["run"]["build"]["opencv_built"] == true ? 2 : 0;
  size_t timed = 0;
  for (const json& r : doc["records"]) {
    const bool gaussian = r["kernel"]["name"] == "gaussian3";
    const bool opencv_point = r["implementation"] == "opencv_gaussianblur";
    if ((r["implementation"] == "cpu_fused" || opencv_point) && !gaussian) {
      EXPECT_EQ(r["status"], "skipped");  // not rank-1 / not a Gaussian: not in the rounds
      continue;
    }
    if (opencv_point && opencv == 0) continue;
    ASSERT_EQ(r["status"], "ok") << r.dump();
    ++timed;
    // Gaussian: five convlab points and OpenCV's measured together; LoG: three.
    EXPECT_EQ(r["timing"]["interleaved_points"], gaussian ? 5 + opencv : 3) << r.dump();
    EXPECT_EQ(r["timing"]["repetitions"], 4);
    EXPECT_EQ(r["verification"]["verdict"], "ok");
    EXPECT_EQ(r["verification"]["values_beyond_tolerance"], 0);
  }
  const auto again = testing::run_convlab("run tiny.yaml", dir_);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("kept " + std::to_string(timed) + " "), std::string::npos)
      << again.output;
}

}  // namespace
}  // namespace convlab
