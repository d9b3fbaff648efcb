// cuda_streaming (rung 8) against the double-precision reference: sizes of 1x1, 1xN and Nx1, odd
// sizes, rows that are no multiple of the 16-byte vector (border path for every lane) and wide
// aligned rows (interior warps with vector loads and stores), K up to the rung's limits and one
// past them (a skip with its reason), every border, u8 and f32, 1 and 3 channels, both layouts and
// streams. Each arithmetic path has its family of kernels: dense float (direct), rank-1 float
// (row and column passes), and dyadic kernels, random and from the kernel library (OpenCV's
// default Gaussians, Sobel, Prewitt, Laplacian), whose u8 results are summed in integers and must
// equal the correctly rounded reference exactly. CONVLAB_GPU_TEST_QUICK=1 shrinks the grid.
#include <cstdlib>

#include "filters/filter_library.hpp"
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

constexpr int kDirectLimit = 7;
constexpr int kRank1Limit = 11;

Filter library_filter(const std::string& type, int size) {
  FilterRequest request;
  request.type = type;
  request.size = size;
  return make_filter(request);
}

KernelFamily dense_float() {
  return {"dense", [](int k, std::mt19937& rng) { return gpu_test::random_filter(k, rng); },
          [](int k) { return k > kDirectLimit; }, false};
}
KernelFamily rank1_float() {
  return {"rank1",
          [](int k, std::mt19937& rng) { return gpu_test::random_separable_filter(k, rng); },
          [](int k) { return k > kRank1Limit; }, false};
}
KernelFamily rank1_dyadic() {
  return {"dyadic_rank1",
          [](int k, std::mt19937& rng) { return gpu_test::random_dyadic_filter(k, true, 5, rng); },
          [](int k) { return k > kRank1Limit; }, true};
}
KernelFamily dense_dyadic() {
  return {"dyadic_dense",
          [](int k, std::mt19937& rng) { return gpu_test::random_dyadic_filter(k, false, 4, rng); },
          [](int k) { return k > kDirectLimit; }, true};
}
// OpenCV's default Gaussians (K <= 7), Sobel x of size K, and at K = 3 the Laplacian: dyadic.
KernelFamily library_dyadic() {
  return {"library",
          [](int k, std::mt19937& rng) {
            if (k == 3)
              return std::uniform_int_distribution<int>(0, 1)(rng) == 0
                         ? library_filter("laplacian", 3)
                         : library_filter("prewitt_y", 3);
            if (k == 9) return library_filter("sobel_x", 9);
            return library_filter("gaussian", k);
          },
          [](int) { return false; }, true};
}

struct Case {
  std::string name;
  Params params;
  bool all_families;
};

std::vector<Case> cases() {
  using nlohmann::json;
  auto params = [](int rows, int warps, const char* layout, bool streams) {
    return json{{"rows", rows}, {"warps", warps}, {"layout", layout}, {"streams", streams}};
  };
  return {{"default", params(64, 4, "interleaved", false), true},
          {"rows5_warps1", params(5, 1, "interleaved", false), false},
          {"rows3_warps8", params(3, 8, "interleaved", false), false},
          {"planar_rows17_warps3", params(17, 3, "planar", false), false},
          {"planar_streams", params(64, 2, "planar", true), false}};
}

class CudaStreaming : public ::testing::TestWithParam<Case> {};

TEST_P(CudaStreaming, MatchesDoubleReference) {
  CONVLAB_SKIP_WITHOUT_GPU();
  const Case& test_case = GetParam();
  const auto implementations = make_cuda_implementations();
  const std::string name = "cuda_streaming";
  const Implementation& impl = gpu_test::cuda_implementation(implementations, name);
  const std::vector<Size> sizes =
      quick() ? std::vector<Size>{{1, 1}, {7, 13}, {528, 19}}
              : std::vector<Size>{{1, 1},  {7, 13},  {1000, 3}, {3, 200},  {1, 40},
                                  {40, 1}, {37, 61}, {130, 67}, {528, 19}, {1024, 37}};
  using Sizes = std::vector<int>;
  std::vector<std::pair<KernelFamily, Sizes>> families = {
      {dense_float(), quick() ? Sizes{3, 7, 9} : Sizes{1, 3, 5, 7, 9}},
      {rank1_float(), quick() ? Sizes{1, 5, 11} : Sizes{1, 3, 5, 7, 9, 11, 13}},
      {rank1_dyadic(), quick() ? Sizes{3, 5} : Sizes{1, 3, 5, 7, 9, 11}},
  };
  if (test_case.all_families) {
    families.push_back({dense_dyadic(), quick() ? Sizes{3} : Sizes{3, 5, 7}});
    families.push_back({library_dyadic(), quick() ? Sizes{3, 5} : Sizes{3, 5, 7, 9}});
  }
  std::mt19937 rng(4321);
  gpu_test::GridCounts total;
  for (const auto& [family, ksizes] : families) {
    const auto counts = gpu_test::check_grid(impl, test_case.params, sizes, ksizes, family, rng);
    total.checked += counts.checked;
    total.skipped += counts.skipped;
    if (counts.failures > 20) FAIL() << "too many failures, stopping";
  }
  std::printf("[   INFO   ] cuda_streaming %s: %d points checked, %d skipped as expected\n",
              test_case.name.c_str(), total.checked, total.skipped);
}

INSTANTIATE_TEST_SUITE_P(Params, CudaStreaming, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

// The skip reasons name the limit and the rung that takes over.
TEST(CudaStreamingSkips, ReasonsBeyondTheLimits) {
  CONVLAB_SKIP_WITHOUT_GPU();
  const auto implementations = make_cuda_implementations();
  const std::string name = "cuda_streaming";
  const Implementation& impl = gpu_test::cuda_implementation(implementations, name);
  std::mt19937 rng(5);
  const Image image = gpu_test::random_image(64, 48, 3, rng);
  RunContext context;
  const Problem dense{image, gpu_test::random_filter(9, rng), Border::replicate, OutputType::u8};
  auto reason = impl.unsupported(dense, Params::object(), context);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("K = 7"), std::string::npos) << *reason;
  const Problem rank1{image, gpu_test::random_separable_filter(13, rng), Border::replicate,
                      OutputType::u8};
  reason = impl.unsupported(rank1, Params::object(), context);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("cuda_tensor_separable"), std::string::npos) << *reason;
  reason = impl.unsupported(dense, {{"warps", 9}}, context);
  ASSERT_TRUE(reason.has_value());
}

}  // namespace
}  // namespace convlab
