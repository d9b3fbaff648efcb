// `convlab run --devices`: one worker process per CUDA device, taking problem groups from the
// run's queue as it becomes free. Without a GPU the workers run with CONVLAB_TEST_DEVICE_COUNT
// (run/devices.hpp): they record their CUDA points as skipped, which is enough to check the
// hand-out, the files and the order, and with CONVLAB_TEST_DEVICE_GMACS each pretend device takes
// time in proportion to a point's work, so that which worker takes what can be seen; the GPU
// machine checks the timings (tests/gpu and docs/scale-out.md).
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

// The CUDA points of the sweep take about 0.3 s each on a pretend device
// (CONVLAB_TEST_DEVICE_GMACS): 8 problem groups of 3 points, so that every worker has taken a group
// before the first is done.
const char* kSlowDevices = "CONVLAB_TEST_DEVICE_GMACS=0.0000236 ";

class Devices : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "sweep.yaml", kSweep);
  }
  testing::CommandResult run(const std::string& arguments, int pretend_devices = -1,
                             bool slow = false) const {
    const std::string environment =
        (pretend_devices < 0
             ? ""
             : "CONVLAB_TEST_DEVICE_COUNT=" + std::to_string(pretend_devices) + " ") +
        (slow ? kSlowDevices : "");
    return testing::run_shell(environment + "\"$CONVLAB\" " + arguments, dir_);
  }
  json results(const std::string& dir = "out") const {
    return json::parse(testing::read_text(dir_ / dir / "results.json"));
  }
};

// A point as its record names it.
std::string point_of(const json& record) {
  return record["implementation"].get<std::string>() + " " + record["params"].dump() + " " +
         record["image"]["name"].get<std::string>() + " " +
         record["kernel"]["name"].get<std::string>() + " " + record["border"].get<std::string>() +
         " " + record["output"].get<std::string>();
}

// Every point of the file with exactly one record: the points by how often they appear, none
// more than once.
std::map<std::string, int> records_per_point(const json& doc) {
  std::map<std::string, int> count;
  for (const auto& record : doc["records"]) ++count[point_of(record)];
  return count;
}

// The status, reason and verdict of every point of the file.
std::map<std::string, std::string> verdicts(const json& doc) {
  std::map<std::string, std::string> by_point;
  for (const auto& record : doc["records"]) {
    std::string verdict =
        record["status"].get<std::string>() + " | " + record.value("reason", std::string());
    if (record.contains("verification") && record["verification"].is_object())
      verdict += record["verification"].value("ok", false) ? " | verified" : " | not verified";
    by_point[point_of(record)] = verdict;
  }
  return by_point;
}

// The points each run of the file measured, from its phases (run.phases.problems).
std::size_t points_measured(const json& run) {
  std::size_t points = 0;
  for (const auto& problem : run["phases"]["problems"])
    points += problem["points"].get<std::size_t>();
  return points;
}

std::string argv_text(const json& run) {
  std::string text;
  for (const auto& arg : run["argv"]) text += arg.get<std::string>() + " ";
  return text;
}

TEST_F(Devices, WorkersTakeWholeProblemsOfCudaPointsAndTheCpuPointsRunAloneAfterThem) {
  const auto ran = run("run sweep.yaml --out out --devices all", 2, true);
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
                  2, true)
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

TEST_F(Devices, EveryPointIsMeasuredOnceWithTheVerdictsOfOneDevice) {
  ASSERT_EQ(run("run sweep.yaml --out one --devices 0 --quiet", 1).exit_code, 0);
  for (int count : {2, 3, 5}) {
    const std::string out = "all-" + std::to_string(count);
    const auto ran = run("run sweep.yaml --out " + out + " --devices all --quiet", count, true);
    ASSERT_EQ(ran.exit_code, 0) << ran.output;
    const json doc = results(out);
    for (const auto& [point, records] : records_per_point(doc)) EXPECT_EQ(records, 1) << point;
    EXPECT_EQ(verdicts(doc), verdicts(results("one"))) << count << " devices";
    // Measured once: the workers' and the CPU run's points add up to the plan's 40.
    std::size_t measured = 0, workers = 0;
    for (const auto& r : doc["runs"]) {
      measured += points_measured(r);
      workers += argv_text(r).find("--hand-out") != std::string::npos;
    }
    EXPECT_EQ(measured, 40u);
    // 8 problem groups: 5 devices start 5 workers; each has a group to take.
    EXPECT_EQ(workers, std::size_t(count)) << ran.output;
  }
  // More devices than problem groups: those beyond them are not started.
  const auto crowded =
      run("run sweep.yaml --out crowded --devices all --quiet --filter "
          "'kernel.size=3,border=zero'",
          5, true);
  ASSERT_EQ(crowded.exit_code, 0) << crowded.output;
  EXPECT_EQ(results("crowded")["runs"].size(), 3u) << "two workers and the CPU points";
}

TEST_F(Devices, AFreeWorkerTakesTheLargestGroupLeftAndKeepsItsImage) {
  // One problem far larger than the rest (64^2 with K = 9): the worker that takes it first is busy
  // with it while the other measures every other group, largest first, on the image it holds.
  testing::write_text(dir_ / "uneven.yaml", R"(name: uneven
images:
  - {type: generated, sizes: [64, 16], channels: 1, seed: 3}
kernels:
  - {type: gaussian, size: [3, 5, 9]}
border: replicate
implementations:
  cuda_global: {block: [[16, 16]]}
measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}
)");
  // 64^2 x 81 multiply-adds take 3.3 s, 64^2 x 25 1.0 s, 64^2 x 9 0.37 s, the 16^2 ones < 0.1 s.
  const auto ran = testing::run_shell(
      "CONVLAB_TEST_DEVICE_COUNT=2 CONVLAB_TEST_DEVICE_GMACS=0.0001 "
      "\"$CONVLAB\" run uneven.yaml --out out --devices all --quiet",
      dir_);
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  std::vector<std::vector<std::string>> sequences;
  const json doc = results();
  for (const auto& r : doc["runs"]) {
    std::vector<std::string> sequence;
    for (const auto& problem : r["phases"]["problems"])
      sequence.push_back(
          (problem["image"].get<std::string>().find("64x64") != std::string::npos ? "64 " : "16 ") +
          problem["kernel"].get<std::string>());
    if (!sequence.empty()) sequences.push_back(sequence);
  }
  ASSERT_EQ(sequences.size(), 2u);
  std::sort(sequences.begin(), sequences.end(),
            [](const auto& a, const auto& b) { return a.size() < b.size(); });
  EXPECT_EQ(sequences[0], std::vector<std::string>{"64 gaussian9"}) << ran.output;
  EXPECT_EQ(sequences[1], (std::vector<std::string>{"64 gaussian5", "64 gaussian3", "16 gaussian9",
                                                    "16 gaussian5", "16 gaussian3"}));
}

TEST_F(Devices, AWorkerThatDiesGivesItsGroupToAnotherAndNoPointIsLost) {
  // Worker 1 is killed once its first point is in its journal, two points before the end of its
  // group: the group goes to worker 0, which measures it whole.
  const auto ran = testing::run_shell(
      std::string("export CONVLAB_TEST_DEVICE_COUNT=2 ") + kSlowDevices +
          "; \"$CONVLAB\" run sweep.yaml --out out --devices all >log.txt 2>&1 & parent=$!; "
          "for i in $(seq 1 400); do [ -s out/workers/results.device-1.journal ] && break; "
          "sleep 0.025; done; "
          "worker=$(pgrep -P $parent -f -- '--worker 1'); "
          "[ -n \"$worker\" ] && kill -9 $worker; wait $parent; echo \"exit $?\"; cat log.txt",
      dir_);
  EXPECT_NE(ran.output.find("exit 2"), std::string::npos) << ran.output;
  EXPECT_NE(ran.output.find("the worker of CUDA device 1 ended with signal 9 while measuring"),
            std::string::npos)
      << ran.output;
  EXPECT_NE(ran.output.find("(3 points); it goes to another device"), std::string::npos)
      << ran.output;
  const json doc = results();
  const auto per_point = records_per_point(doc);
  EXPECT_EQ(per_point.size(), 40u) << ran.output;
  for (const auto& [point, records] : per_point) EXPECT_EQ(records, 1) << point;
  EXPECT_FALSE(fs::exists(dir_ / "out/workers"));
  // Run again: everything is there; only the skipped CUDA points are tried again.
  const auto again = run("run sweep.yaml --out out --devices all --quiet", 2);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(records_per_point(results()).size(), 40u);
}

TEST_F(Devices, AnInterruptedRunKeepsWhatTheWorkersMeasuredAndResumes) {
  const auto ran = testing::run_shell(
      std::string("export CONVLAB_TEST_DEVICE_COUNT=2 ") + kSlowDevices +
          "; \"$CONVLAB\" run sweep.yaml --out out --devices all >log.txt 2>&1 & parent=$!; "
          "for i in $(seq 1 400); do [ -s out/workers/results.device-0.journal ] && break; "
          "sleep 0.025; done; kill -INT $parent; wait $parent; echo \"exit $?\"; cat log.txt",
      dir_);
  EXPECT_NE(ran.output.find("exit 130"), std::string::npos) << ran.output;
  EXPECT_NE(ran.output.find("interrupted: the device workers stopped; their points are kept in"),
            std::string::npos)
      << ran.output;
  EXPECT_EQ(ran.output.find("goes to another device"), std::string::npos) << ran.output;
  const std::size_t kept = results()["records"].size();
  EXPECT_GE(kept, 1u);
  EXPECT_LT(kept, 24u);
  const auto again = run("run sweep.yaml --out out --devices all --quiet", 2);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  const auto per_point = records_per_point(results());
  EXPECT_EQ(per_point.size(), 40u);
  for (const auto& [point, records] : per_point) EXPECT_EQ(records, 1) << point;
}

TEST_F(Devices, TheSplitBeforeTheRunIsStillThereToCompare) {
  const auto ran = run("run sweep.yaml --out out --devices all --quiet", 2);
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  const auto fixed = testing::run_shell(
      "CONVLAB_HAND_OUT=fixed CONVLAB_TEST_DEVICE_COUNT=2 \"$CONVLAB\" run sweep.yaml --out fixed "
      "--devices all --quiet",
      dir_);
  ASSERT_EQ(fixed.exit_code, 0) << fixed.output;
  EXPECT_EQ(verdicts(results("fixed")), verdicts(results()));
  const json split = results("fixed");
  for (const auto& r : split["runs"]) EXPECT_EQ(argv_text(r).find("--hand-out"), std::string::npos);
  const auto dry = testing::run_shell(
      "CONVLAB_HAND_OUT=fixed \"$CONVLAB\" run sweep.yaml --dry-run --devices 0,1", dir_);
  EXPECT_NE(dry.output.find("split before the run (CONVLAB_HAND_OUT=fixed)"), std::string::npos)
      << dry.output;
  const auto wrong = testing::run_shell(
      "CONVLAB_HAND_OUT=later CONVLAB_TEST_DEVICE_COUNT=2 \"$CONVLAB\" run sweep.yaml --out out "
      "--devices all --quiet",
      dir_);
  EXPECT_EQ(wrong.exit_code, 0);
  EXPECT_NE(wrong.output.find("CONVLAB_HAND_OUT=later is neither 'queue' nor 'fixed'"),
            std::string::npos)
      << wrong.output;
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
    EXPECT_NE(dry.output.find("problem groups handed out as workers become free"),
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
