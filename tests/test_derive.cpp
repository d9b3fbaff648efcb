// Derived metrics (docs/results-schema.md, "derived") worked by hand: throughputs from the median,
// the hardware floor and roofline fraction of CUDA points from the run's calibration (the
// algorithm's multiply-adds, 2K per value when factored, tensor-core points against their own
// rate), speedups against the baseline and parallel efficiency, never across machines.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "store/derive.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

json machine(const std::string& host = "h") {
  return {{"cpu_model", "cpu"}, {"hostname", host}, {"host_id", host}};
}

// An 8x4 image with 3 channels and a 5x5 kernel: 32 pixels, 96 values, 2,400 multiply-adds.
json record(const std::string& implementation, const std::string& family, double median_ms,
            json params = json::object(), const std::string& output = "u8") {
  static int next = 0;
  json m = machine();
  if (family == "cuda") {
    m["gpu"] = "gpu";
    m["gpu_driver"] = "1";
  }
  return {{"key", "k" + std::to_string(++next)},
          {"point_id", "p" + std::to_string(next)},
          {"run_id", "run"},
          {"implementation", implementation},
          {"family", family},
          {"params", params},
          {"image", {{"name", "i"}, {"sha256", "s"}, {"width", 8}, {"height", 4}, {"channels", 3}}},
          {"kernel", {{"name", "g5"}, {"size", 5}}},
          {"border", "zero"},
          {"output", output},
          {"status", "ok"},
          {"timing", {{"stats", {{"median", median_ms}}}}},
          {"derived", json::object()},
          {"machine", m}};
}

ResultsFile file_with(std::vector<json> records, json calibration = nullptr) {
  ResultsFile results;
  results.experiment = {
      {"name", "x"}, {"baseline", {{"implementation", "sequential"}, {"params", json::object()}}}};
  json run{{"id", "run"}};
  if (!calibration.is_null()) run["cuda"] = {{"calibration", calibration}};
  results.runs.push_back(run_block_from_json(run));
  for (const auto& record : records) results.records.push_back(record_from_json(record));
  derive_metrics(results);
  return results;
}

// The derived block as results.json holds it.
json derived_of(const ResultsFile& results, size_t i) {
  return to_json(results.records[i])["derived"];
}

TEST(Derive, ThroughputsComeFromTheMedian) {
  const ResultsFile results = file_with(
      {record("sequential", "cpu", 2.0), record("sequential", "cpu", 2.0, json::object(), "f32")});
  const json u8 = derived_of(results, 0);
  EXPECT_DOUBLE_EQ(u8["pixels"], 32.0);
  EXPECT_DOUBLE_EQ(u8["macs"], 2400.0);
  EXPECT_DOUBLE_EQ(u8["bytes"], 96.0 * 2);  // each value read once and written once as a byte
  EXPECT_DOUBLE_EQ(u8["mpix_per_s"], 32 / 0.002 / 1e6);
  EXPECT_DOUBLE_EQ(u8["gmac_per_s"], 2400 / 0.002 / 1e9);
  EXPECT_DOUBLE_EQ(u8["gb_per_s"], 192 / 0.002 / 1e9);
  EXPECT_DOUBLE_EQ(u8["ns_per_mac"], 0.002 * 1e9 / 2400);
  EXPECT_DOUBLE_EQ(derived_of(results, 1)["bytes"], 96.0 * 5);  // f32: 4 bytes written
  EXPECT_FALSE(u8.contains("floor_ms")) << "CPU points have no measured floor";
}

TEST(Derive, FloorIsTheSlowerOfMemoryAndArithmeticAtTheCalibratedRates) {
  // 1 GB/s and 1 G multiply-adds/s: bytes take 192 ns, multiply-adds 2,400 ns.
  json direct = record("cuda_global", "cuda", 2.0);
  json factored = record("cuda_separable", "cuda", 2.0);
  factored["factored"] = true;  // 2K = 10 multiply-adds per value: 960 ns
  json tensor = record("cuda_tensor", "cuda", 2.0);
  tensor["arithmetic"] = "tensor_fp16";  // at 1e10 per s: 240 ns, above the 192 ns of memory
  const ResultsFile compute_bound =
      file_with({direct, factored, tensor},
                {{"copy_bytes_per_s", 1e9}, {"fma_per_s", 1e9}, {"tensor_fma_per_s", 1e10}});
  EXPECT_DOUBLE_EQ(derived_of(compute_bound, 0)["floor_ms"], 2400e-9 * 1e3);
  EXPECT_DOUBLE_EQ(derived_of(compute_bound, 0)["roofline_fraction"], 2400e-6 / 2.0);
  EXPECT_DOUBLE_EQ(derived_of(compute_bound, 1)["floor_ms"], 960e-9 * 1e3);
  EXPECT_DOUBLE_EQ(derived_of(compute_bound, 2)["floor_ms"], 240e-9 * 1e3);

  // At 1 MB/s memory is the bound: 192 bytes take 192 us.
  const ResultsFile memory_bound = file_with({record("cuda_global", "cuda", 0.5)},
                                             {{"copy_bytes_per_s", 1e6}, {"fma_per_s", 1e9}});
  EXPECT_DOUBLE_EQ(derived_of(memory_bound, 0)["floor_ms"], 0.192);
  EXPECT_DOUBLE_EQ(derived_of(memory_bound, 0)["roofline_fraction"], 0.192 / 0.5);
}

TEST(Derive, NoFloorWithoutACalibration) {
  const ResultsFile none = file_with({record("cuda_global", "cuda", 2.0)});
  EXPECT_FALSE(derived_of(none, 0).contains("floor_ms"));
  const ResultsFile zero = file_with({record("cuda_global", "cuda", 2.0)},
                                     {{"copy_bytes_per_s", 0}, {"fma_per_s", 1e9}});
  EXPECT_FALSE(derived_of(zero, 0).contains("roofline_fraction"));
}

TEST(Derive, SpeedupAgainstTheBaselineAndEfficiencyAgainstOneThreadOnOneMachine) {
  json baseline = record("sequential", "cpu", 8.0);
  json one = record("openmp", "cpu", 8.0, {{"threads", 1}, {"schedule", "static"}});
  json four = record("openmp", "cpu", 2.5, {{"threads", 4}, {"schedule", "static"}});
  json elsewhere = record("openmp", "cpu", 1.0, {{"threads", 4}, {"schedule", "static"}});
  elsewhere["machine"] = machine("other");
  const ResultsFile results = file_with({baseline, one, four, elsewhere});
  const json derived = derived_of(results, 2);
  EXPECT_DOUBLE_EQ(derived["speedup"], 8.0 / 2.5);
  EXPECT_EQ(derived["baseline_key"], baseline["key"]);
  EXPECT_DOUBLE_EQ(derived["speedup_vs_threads1"], 8.0 / 2.5);
  EXPECT_DOUBLE_EQ(derived["efficiency"], 8.0 / (4 * 2.5));
  EXPECT_DOUBLE_EQ(derived_of(results, 0)["speedup"], 1.0);
  // Another machine's record has no baseline and no one-thread record of its own.
  EXPECT_FALSE(derived_of(results, 3).contains("speedup"));
  EXPECT_FALSE(derived_of(results, 3).contains("efficiency"));
}

}  // namespace
TEST(Derive, EfficiencyOfAUsersKernelDividesOnlyItsOwnVersionsOneThreadTime) {
  // Version A measured at 1 and 2 threads, then an edited version B at 1 thread: A's efficiency
  // at 2 threads takes A's T(1), never B's.
  json a1 = record("mine", "cpu", 8.0, {{"threads", 1}});
  json b1 = record("mine", "cpu", 2.0, {{"threads", 1}});
  json a2 = record("mine", "cpu", 5.0, {{"threads", 2}});
  a1["source"] = a2["source"] = {{"path", "k.c"}, {"sha256", "aaaa"}};
  b1["source"] = {{"path", "k.c"}, {"sha256", "bbbb"}};
  const ResultsFile results = file_with({a1, b1, a2});
  EXPECT_DOUBLE_EQ(derived_of(results, 2)["efficiency"], 8.0 / (2 * 5.0));
  EXPECT_DOUBLE_EQ(derived_of(results, 2)["speedup_vs_threads1"], 8.0 / 5.0);
  // With included files, the snapshot's hash is the version.
  json c1 = record("mine", "cpu", 4.0, {{"threads", 1}});
  json c2 = record("mine", "cpu", 4.0, {{"threads", 2}});
  c1["source"] = {{"path", "k.c"}, {"sha256", "aaaa"}, {"snapshot_sha256", "s1"}};
  c2["source"] = {{"path", "k.c"}, {"sha256", "aaaa"}, {"snapshot_sha256", "s2"}};
  EXPECT_FALSE(derived_of(file_with({c1, c2}), 1).contains("efficiency"));
}

TEST(Derive, ABaselineThatIsAUsersKernelIsItsCurrentVersion) {
  // The baseline, a user's kernel, measured as A, edited to B and measured, then restored to A
  // (the last run read A and measured nothing): speedups are against A.
  ResultsFile results;
  results.experiment = {{"name", "x"},
                        {"baseline", {{"implementation", "mine"}, {"params", json::object()}}}};
  for (const auto& [id, version] : {std::pair{"r1", "aaaa"}, {"r2", "bbbb"}, {"r3", "aaaa"}})
    results.runs.push_back(run_block_from_json(
        {{"id", id},
         {"config", {{"sources", {{{"path", "k.c"}, {"sha256", version}, {"text", "x"}}}}}}}));
  json a = record("mine", "cpu", 8.0);
  json b = record("mine", "cpu", 1.0);
  a["source"] = {{"path", "k.c"}, {"sha256", "aaaa"}};
  b["source"] = {{"path", "k.c"}, {"sha256", "bbbb"}};
  a["run_id"] = "r1";
  b["run_id"] = "r2";
  json other = record("openmp", "cpu", 2.0);
  other["run_id"] = "r2";
  for (const json& r : {a, b, other}) results.records.push_back(record_from_json(r));
  derive_metrics(results);
  EXPECT_DOUBLE_EQ(derived_of(results, 2)["speedup"], 8.0 / 2.0);
  EXPECT_EQ(derived_of(results, 2)["baseline_key"], a["key"]);
}

}  // namespace convlab
