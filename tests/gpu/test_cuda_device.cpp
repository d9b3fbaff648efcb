// The run block's "cuda" object: facts of the device and the two calibration figures.
#include <cstdio>

#include "gpu_test_support.hpp"
#include "impl/cuda/device_facts.hpp"

namespace convlab {
namespace {

TEST(CudaDevice, DescribesDeviceAndCalibrates) {
  RunContext context;
  const nlohmann::json facts = describe_cuda_device(context);
  ASSERT_TRUE(facts.contains("available"));
  if (!facts.at("available").get<bool>()) {
    EXPECT_TRUE(facts.contains("reason"));
    GTEST_SKIP() << "skipped: " << facts.at("reason").get<std::string>();
  }
  std::printf("[   INFO   ] %s\n", facts.dump().c_str());
  EXPECT_FALSE(facts.at("name").get<std::string>().empty());
  EXPECT_GT(facts.at("sm_count").get<int>(), 0);
  EXPECT_GT(facts.at("l2_bytes").get<long long>(), 0);
  const auto& calibration = facts.at("calibration");
  EXPECT_GT(calibration.at("copy_bytes_per_s").get<double>(), 1e10);
  EXPECT_GT(calibration.at("fma_per_s").get<double>(), 1e11);
  EXPECT_TRUE(cuda_built());
}

TEST(CudaDevice, MissingDeviceIsReported) {
  RunContext context;
  context.cuda_device = 99;
  const nlohmann::json facts = describe_cuda_device(context);
  EXPECT_FALSE(facts.at("available").get<bool>());
  EXPECT_TRUE(facts.contains("reason"));
}

}  // namespace
}  // namespace convlab
