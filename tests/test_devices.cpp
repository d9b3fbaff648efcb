// `convlab run --devices`: one worker process per CUDA device. Without a GPU the workers run
// with CONVLAB_TEST_DEVICE_COUNT (run/devices.hpp): they record their CUDA points as skipped,
// which is enough to check the split, the files and the order; the GPU machine checks the
// timings (tests/gpu and docs/scale-out.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// 2 images x 2 kernels x 2 borders = 8 problems of 2 CPU and 3 CUDA points.
const char* kSweep = R"(name: devices
images:
  - {type: generated, sizes: [16, 24], channels: 1, seed: 3}
kernels:
  - {type: gaussian, size: [3, 5]}
border: [reflect, zero]
implementations:
  sequential: {}
  openmp: {threads: [2]}
  cuda_global: {block: [[16, 16]]}
  cuda_shared: {tile: [8, 16]}
measure: {warmup: 0, min_reps: 2, max_reps: 2, max_seconds: 0.01}
)";

class Devices : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "sweep.yaml", kSweep);
  }
  testing::CommandResult run(const std::string& arguments, int pretend_devices = -1) const {
    const std::string environment =
        pretend_devices < 0 ? ""
                            : "CONVLAB_TEST_DEVICE_COUNT=" + std::to_string(pretend_devices) + " ";
    return testing::run_shell(environment + "\"$CONVLAB\" " + arguments, dir_);
  }
  json results(const std::string& dir = "out") const {
    return json::parse(testing::read_text(dir_ / dir / "results.json"));
  }
};

std::string argv_text(const json& run) {
  std::string text;
  for (const auto& arg : run["argv"]) text += arg.get<std::string>() + " ";
  return text;
}

TEST_F(Devices, WorkersTakeWholeProblemsOfCudaPointsAndTheCpuPointsRunAloneAfterThem) {
  const auto ran = run("run sweep.yaml --out out --devices all", 2);
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  EXPECT_NE(ran.output.find("kept 0 \u00b7 ran 16 \u00b7 skipped 24 \u00b7 failed 0"),
            std::string::npos)
      << ran.output;
  EXPECT_FALSE(fs::exists(dir_ / "out/workers")) << "worker files are folded in and removed";
  const json doc = results();
  ASSERT_EQ(doc["records"].size(), 40u);
  ASSERT_EQ(doc["runs"].size(), 3u);
  std::map<std::string, json> runs;
  std::string cpu_run;
  std::set<std::string> worker_runs;
  for (const auto& r : doc["runs"]) {
    runs[r["id"]] = r;
    const std::string args = argv_text(r);
    if (args.find("--worker") == std::string::npos)
      cpu_run = r["id"];
    else
      worker_runs.insert(r["id"].get<std::string>());
  }
  ASSERT_EQ(worker_runs.size(), 2u);
  ASSERT_FALSE(cpu_run.empty());
  // The CPU points start when both workers have finished.
  for (const auto& id : worker_runs)
    EXPECT_GE(runs[cpu_run]["started"].get<std::string>(), runs[id]["finished"].get<std::string>());
  std::map<std::string, std::set<std::string>> runs_of_problem;
  for (const auto& record : doc["records"]) {
    const std::string problem = record["image"]["name"].get<std::string>() + "|" +
                                record["kernel"]["name"].get<std::string>() + "|" +
                                record["border"].get<std::string>();
    if (record["family"] == "cuda") {
      EXPECT_EQ(worker_runs.count(record["run_id"]), 1u);
      EXPECT_EQ(record["status"], "skipped");
      runs_of_problem[problem].insert(record["run_id"]);
    } else {
      EXPECT_EQ(record["run_id"], cpu_run);
      EXPECT_EQ(record["status"], "ok");
    }
  }
  // Every problem's CUDA points on one device, and both devices used.
  std::set<std::string> used;
  for (const auto& [problem, ids] : runs_of_problem) {
    EXPECT_EQ(ids.size(), 1u) << problem;
    used.insert(*ids.begin());
  }
  EXPECT_EQ(used.size(), 2u);

  // Again: the CPU points are kept; the skipped CUDA points are tried again.
  const auto again = run("run sweep.yaml --out out --devices 0,1", 2);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("kept 16 \u00b7 ran 0 \u00b7 skipped 24"), std::string::npos)
      << again.output;
  EXPECT_EQ(results()["records"].size(), 40u);
}

TEST_F(Devices, AWorkerFileLeftByAStoppedRunIsFoldedInFirst) {
  const auto worker = run("run sweep.yaml --out out --devices 0,1 --worker 1", 2);
  ASSERT_EQ(worker.exit_code, 0) << worker.output;
  ASSERT_TRUE(fs::exists(dir_ / "out/workers/results.device-1.json"));
  const std::string left_run =
      json::parse(testing::read_text(dir_ / "out/workers/results.device-1.json"))["run"]["id"];
  // A run of the CPU points alone starts no worker, but folds the one left first.
  ASSERT_EQ(run("run sweep.yaml --out out --devices 0,1 --quiet --filter family=cpu", 2).exit_code,
            0);
  EXPECT_FALSE(fs::exists(dir_ / "out/workers"));
  const json doc = results();
  size_t left_records = 0;
  for (const auto& record : doc["records"]) left_records += record["run_id"] == left_run;
  EXPECT_EQ(left_records, 12u) << "the stopped worker's records are in results.json";
  EXPECT_EQ(doc["records"].size(), 16u + left_records);
}

TEST_F(Devices, AShardSpreadsItsCudaPointsOverTheDevicesIntoItsOwnFile) {
  for (int shard = 0; shard < 2; ++shard)
    ASSERT_EQ(run("run sweep.yaml --out out --quiet --devices all --shard " +
                      std::to_string(shard) + "/2",
                  2)
                  .exit_code,
              0);
  EXPECT_FALSE(fs::exists(dir_ / "out/shards/workers"));
  const auto merged = run("merge out");
  EXPECT_EQ(merged.exit_code, 0) << merged.output;
  const json doc = results();
  EXPECT_EQ(doc["records"].size(), 40u);
  EXPECT_EQ(doc["runs"].size(), 6u);  // per shard: two workers and the CPU points
}

TEST_F(Devices, OneDeviceGivesTheRecordsOfAPlainRun) {
  ASSERT_EQ(run("run sweep.yaml --out plain --quiet").exit_code, 0);
  ASSERT_EQ(run("run sweep.yaml --out one --devices 0 --quiet", 1).exit_code, 0);
  const auto keyed = [](const json& doc) {
    std::map<std::string, std::pair<std::string, std::string>> by_key;
    for (const auto& r : doc["records"]) by_key[r["key"]] = {r["point_id"], r["status"]};
    return by_key;
  };
  EXPECT_EQ(keyed(results("one")), keyed(results("plain")));
  EXPECT_EQ(results("one")["runs"].size(), 1u);
}

TEST_F(Devices, DryRunShowsTheSplitOverFourAndEightDevicesOnAMachineWithoutThem) {
  for (int count : {4, 8}) {
    std::string list;
    for (int d = 0; d < count; ++d) list += (d ? "," : "") + std::to_string(d);
    const auto dry = run("run sweep.yaml --dry-run --devices " + list);
    ASSERT_EQ(dry.exit_code, 0) << dry.output;
    EXPECT_NE(dry.output.find("devices: " + std::to_string(count) +
                              " workers, one per CUDA device; CPU points run after the workers, "
                              "in this process alone (devices not checked against this "
                              "machine: --dry-run)"),
              std::string::npos)
        << dry.output;
    size_t groups = 0, points = 0;
    for (int d = 0; d < count; ++d) {
      std::smatch row;
      ASSERT_TRUE(
          std::regex_search(dry.output, row,
                            std::regex("\\| " + std::to_string(d) + " \\| " + std::to_string(d) +
                                       " \\| ([0-9]+) \\| ([0-9]+) \\|")))
          << dry.output;
      groups += std::stoul(row[1]);
      points += std::stoul(row[2]);
    }
    EXPECT_EQ(groups, 8u);
    EXPECT_EQ(points, 24u);
    EXPECT_NE(dry.output.find("| CPU | - | 8 | 16 |"), std::string::npos) << dry.output;
  }
  EXPECT_FALSE(fs::exists(dir_ / "outputs"));
  // --devices all needs to see the devices, also for a dry run.
  const auto all = run("run sweep.yaml --dry-run --devices all", 0);
  EXPECT_EQ(all.exit_code, 2);
  EXPECT_NE(all.output.find("no CUDA device"), std::string::npos) << all.output;
}

}  // namespace
}  // namespace convlab
