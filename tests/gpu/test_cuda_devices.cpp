// `convlab run --devices` on a machine with CUDA devices, through the executable: one device
// gives the records of a plain run (keys, point ids, statuses, verdicts, the device's identity),
// and `--devices all` keeps every problem's CUDA points on one device, each record naming it (which
// devices measure which problems is decided as workers become free: a worker that is slow to
// start may find nothing left).
// Skipped without a device; with one device `--devices all` is that device alone.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "gpu_test_support.hpp"
#include "impl/cuda/device_calls.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// 4 problems of 1 CPU and 5 CUDA points.
const char* kSweep = R"(name: gpu_devices
images:
  - {type: generated, sizes: [512, 768], channels: 3, seed: 3}
kernels:
  - {type: gaussian, size: [3, 7]}
border: replicate
implementations:
  sequential: {}
  cuda_global: {block: [[16, 16], [32, 8]]}
  cuda_shared: {tile: [16, 32]}
  cuda_separable: {tile: [16]}
measure: {warmup: 1, min_reps: 3, max_reps: 3, max_seconds: 1}
)";

struct Shell {
  int status = -1;
  std::string output;
};

Shell shell(const std::string& command, const fs::path& dir) {
  Shell result;
  const std::string line = "cd '" + dir.string() + "' && { " + command + "\n} 2>&1";
  FILE* pipe = ::popen(line.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> chunk{};
  for (size_t n; (n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0;)
    result.output.append(chunk.data(), n);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

using Outcome = std::tuple<std::string, std::string, std::string, std::string>;

std::set<Outcome> outcomes(const json& doc) {
  std::set<Outcome> found;
  for (const auto& r : doc["records"])
    found.insert(
        {r["key"], r["point_id"], r["status"],
         r["verification"].is_object() ? r["verification"]["verdict"].get<std::string>() : ""});
  return found;
}

class CudaDevices : public ::testing::Test {
 protected:
  void SetUp() override {
    CONVLAB_SKIP_WITHOUT_GPU();
    dir_ = fs::temp_directory_path() / ("convlab-gpu-devices-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "sweep.yaml") << kSweep;
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  Shell convlab(const std::string& arguments) const {
    return shell(std::string("'") + CONVLAB_EXECUTABLE + "' " + arguments, dir_);
  }
  fs::path dir_;
};

TEST_F(CudaDevices, DeviceZeroGivesTheRecordsOfAPlainRun) {
  const Shell plain = convlab("run sweep.yaml --out plain --quiet");
  ASSERT_EQ(plain.status, 0) << plain.output;
  const Shell zero = convlab("run sweep.yaml --out zero --quiet --devices 0");
  ASSERT_EQ(zero.status, 0) << zero.output;
  const json a = read_json(dir_ / "plain/results.json"), b = read_json(dir_ / "zero/results.json");
  EXPECT_EQ(outcomes(a), outcomes(b));
  ASSERT_EQ(b["runs"].size(), 1u);
  const json& cuda = b["run"]["cuda"];
  ASSERT_TRUE(cuda.value("available", false)) << cuda.dump();
  EXPECT_EQ(cuda["device"], 0);
  EXPECT_EQ(cuda["uuid"].get<std::string>().rfind("GPU-", 0), 0u) << cuda.dump();
  for (const auto& r : b["records"]) {
    if (r["family"] != "cuda") continue;
    EXPECT_EQ(r["status"], "ok") << r.dump();
    EXPECT_EQ(r["machine"]["gpu_uuid"], cuda["uuid"]);
    EXPECT_EQ(r["machine"]["gpu_index"], 0);
    EXPECT_EQ(r["machine"]["gpu"], cuda["name"]);
  }
}

TEST_F(CudaDevices, AllDevicesKeepEveryProblemOnOneDeviceAndNameIt) {
  const int devices = cuda::device_count();
  const Shell all = convlab("run sweep.yaml --out all --devices all");
  ASSERT_EQ(all.status, 0) << all.output;
  const json doc = read_json(dir_ / "all/results.json");
  EXPECT_EQ(doc["records"].size(), 24u);
  std::map<std::string, std::set<std::string>> devices_of_problem;
  std::set<std::string> uuids;
  for (const auto& r : doc["records"]) {
    EXPECT_EQ(r["status"], "ok") << r.dump();
    if (r["family"] != "cuda") continue;
    const std::string uuid = r["machine"]["gpu_uuid"];
    EXPECT_EQ(uuid.rfind("GPU-", 0), 0u);
    uuids.insert(uuid);
    devices_of_problem[r["image"]["name"].get<std::string>() + "|" +
                       r["kernel"]["name"].get<std::string>()]
        .insert(uuid);
    // The speedup is over the sequential baseline of the same host.
    EXPECT_GT(r["derived"]["speedup"].get<double>(), 0) << r.dump();
  }
  for (const auto& [problem, on] : devices_of_problem) EXPECT_EQ(on.size(), 1u) << problem;
  EXPECT_GE(uuids.size(), 1u);
  EXPECT_LE(uuids.size(), static_cast<size_t>(std::min(devices, 4)));
  // A run block for each worker that measured a problem, and the CPU points'.
  EXPECT_EQ(doc["runs"].size(), devices == 1 ? 1u : 1u + uuids.size());
}

}  // namespace
}  // namespace convlab
