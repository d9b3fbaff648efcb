// cuda_tensor_separable (rung 9) against the double-precision reference: random rank-1 kernels
// (asymmetric, with negative taps) from K = 1 to the rung's limit of 49 and one past it (a skip),
// sizes of 1x1, 1xN and Nx1, odd sizes, sizes that are no multiple of the 16-pixel tile or the
// 16-row step, every border, u8 and f32 (the f32 tolerance includes the rung's FP16 rounding
// bound), 1 and 3 channels, both layouts and streams. CONVLAB_GPU_TEST_QUICK=1 shrinks the grid.
#include <cstdlib>

#include "gpu_test_support.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

using gpu_test::KernelFamily;
using gpu_test::Size;

bool quick() {
  const char* env = std::getenv("CONVLAB_GPU_TEST_QUICK");
  return env != nullptr && std::string(env) == "1";
}

constexpr int kLimit = 49;

struct Case {
  std::string name;
  Params params;
};

std::vector<Case> cases() {
  using nlohmann::json;
  auto params = [](int n_tiles, int rows, const char* layout, bool streams) {
    return json{{"n_tiles", n_tiles}, {"rows", rows}, {"layout", layout}, {"streams", streams}};
  };
  return {{"default", params(4, 128, "interleaved", false)},
          {"tiles1_rows16", params(1, 16, "interleaved", false)},
          {"tiles3_rows40", params(3, 40, "interleaved", false)},
          {"planar_tiles8_rows7", params(8, 7, "planar", false)},
          {"planar_streams", params(4, 64, "planar", true)}};
}

class CudaTensorSeparable : public ::testing::TestWithParam<Case> {};

TEST_P(CudaTensorSeparable, MatchesDoubleReference) {
  CONVLAB_SKIP_WITHOUT_GPU();
  const Case& test_case = GetParam();
  const auto implementations = make_cuda_implementations();
  const std::string name = "cuda_tensor_separable";
  const Implementation& impl = gpu_test::cuda_implementation(implementations, name);
  const KernelFamily rank1{
      "rank1", [](int k, std::mt19937& rng) { return gpu_test::random_separable_filter(k, rng); },
      [](int k) { return k > kLimit; }, false};
  const std::vector<Size> small = {{1, 1}, {7, 13}, {1, 40}, {40, 1}, {37, 61}};
  const std::vector<Size> all =
      quick() ? small : std::vector<Size>{{1, 1},  {7, 13},  {1000, 3}, {3, 200}, {1, 40},
                                          {40, 1}, {37, 61}, {130, 67}, {528, 19}};
  std::mt19937 rng(8765);
  gpu_test::GridCounts total;
  auto run = [&](const std::vector<Size>& sizes, const std::vector<int>& ksizes) {
    const auto counts = gpu_test::check_grid(impl, test_case.params, sizes, ksizes, rank1, rng);
    total.checked += counts.checked;
    total.skipped += counts.skipped;
    return counts.failures <= 20;
  };
  ASSERT_TRUE(run(all, quick() ? std::vector<int>{1, 3, 21} : std::vector<int>{1, 3, 5, 7, 15, 21}))
      << "too many failures, stopping";
  ASSERT_TRUE(run(small, quick() ? std::vector<int>{33} : std::vector<int>{31, 33, 49, 51}))
      << "too many failures, stopping";
  std::printf("[   INFO   ] cuda_tensor_separable %s: %d points checked, %d skipped as expected\n",
              test_case.name.c_str(), total.checked, total.skipped);
}

INSTANTIATE_TEST_SUITE_P(Params, CudaTensorSeparable, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace convlab
