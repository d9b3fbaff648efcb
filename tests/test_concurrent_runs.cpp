// Two `convlab run` processes writing one results folder at the same time, as docs/config.md
// suggests for splitting a sweep with disjoint --filters: every record of both must be there.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Many tiny points, so the two runs write the file dozens of times each and their writes
// interleave.
const char* kSplitConfig = R"(name: split
images:
  - {type: generated, sizes: [8, 9, 10, 11, 12, 13], channels: [1], seed: 5}
kernels:
  - {type: gaussian, size: [3, 5]}
border: [reflect, zero, replicate]
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}
)";
constexpr size_t kSequentialPoints = 6 * 2 * 3;
constexpr size_t kOpenmpPoints = 6 * 2 * 3 * 2;

std::set<std::string> point_ids(const json& results, const std::string& implementation) {
  std::set<std::string> ids;
  for (const auto& record : results["records"])
    if (record["implementation"] == implementation) ids.insert(record["point_id"]);
  return ids;
}

TEST(ConcurrentRuns, DisjointFiltersIntoOneFolderKeepEveryRecord) {
  const fs::path dir = testing::fresh_directory("concurrent");
  testing::write_text(dir / "split.yaml", kSplitConfig);
  for (int round = 0; round < 3; ++round) {
    fs::remove_all(dir / "out");
    const auto result = testing::run_shell(
        "\"$CONVLAB\" run split.yaml --out out --filter implementation=sequential > a.log 2>&1 &\n"
        "A=$!\n"
        "\"$CONVLAB\" run split.yaml --out out --filter implementation=openmp > b.log 2>&1\n"
        "B=$?\n"
        "wait $A; echo \"exit $? $B\"",
        dir);
    ASSERT_NE(result.output.find("exit 0 0"), std::string::npos)
        << result.output << testing::read_text(dir / "a.log") << testing::read_text(dir / "b.log");
    const json results = json::parse(testing::read_text(dir / "out/results.json"));
    EXPECT_EQ(results["records"].size(), kSequentialPoints + kOpenmpPoints) << "round " << round;
    EXPECT_EQ(point_ids(results, "sequential").size(), kSequentialPoints) << "round " << round;
    EXPECT_EQ(point_ids(results, "openmp").size(), kOpenmpPoints) << "round " << round;
    // Both run blocks stay: records of each refer to their own.
    std::set<std::string> run_ids;
    for (const auto& run : results["runs"]) run_ids.insert(run["id"]);
    for (const auto& record : results["records"]) EXPECT_EQ(run_ids.count(record["run_id"]), 1u);
    EXPECT_EQ(results["runs"].size(), 2u);
    for (const auto& entry : fs::directory_iterator(dir / "out"))
      EXPECT_NE(entry.path().extension(), ".tmp") << "left behind: " << entry.path();
  }
  fs::remove_all(dir);
}

TEST(ConcurrentRuns, WritesWaitForTheFolderLock) {
  const fs::path dir = testing::fresh_directory("lock-held");
  testing::write_text(dir / "split.yaml", kSplitConfig);
  fs::create_directories(dir / "out");
  // Another process holds the folder's lock for 3 s: the run's first write waits for it, says
  // so, and then completes.
  const auto result = testing::run_shell(
      "flock out/results.lock sleep 3 &\n"
      "sleep 0.3\n"
      "START=$(date +%s%N)\n"
      "\"$CONVLAB\" run split.yaml --out out --filter 'implementation=sequential,image.width=8'\n"
      "echo \"exit $? after $((($(date +%s%N) - START) / 1000000)) ms\"\n"
      "wait",
      dir);
  EXPECT_NE(result.output.find("out/results.lock is held by another convlab process; waiting"),
            std::string::npos)
      << result.output;
  const size_t at = result.output.find("exit 0 after ");
  ASSERT_NE(at, std::string::npos) << result.output;
  EXPECT_GT(std::stol(result.output.substr(at + 13)), 2000) << result.output;
  EXPECT_EQ(json::parse(testing::read_text(dir / "out/results.json"))["records"].size(), 6u);
  fs::remove_all(dir);
}

TEST(ConcurrentRuns, StaleTemporaryFilesAreRemoved) {
  const fs::path dir = testing::fresh_directory("stale-temporaries");
  testing::write_text(dir / "split.yaml", kSplitConfig);
  fs::create_directories(dir / "out");
  // What writers killed between write and rename leave behind.
  testing::write_text(dir / "out/results.json.tmp", "{\"half\": ");
  testing::write_text(dir / "out/results.json.4242.deadbeef.tmp", "{\"half\": ");
  const auto result = testing::run_convlab(
      "run split.yaml --out out --filter 'implementation=sequential,image.width=8'", dir);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_FALSE(fs::exists(dir / "out/results.json.tmp"));
  EXPECT_FALSE(fs::exists(dir / "out/results.json.4242.deadbeef.tmp"));
  EXPECT_TRUE(fs::exists(dir / "out/results.json"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace convlab
