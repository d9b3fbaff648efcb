// Every CUDA implementation against the double-precision reference: awkward image sizes (1x1,
// 7x13, 1000x3, sizes that are no multiple of any block or tile), every border, K in {1, 3, 5, 7,
// 15, 31}, u8 and f32 output, 1 and 3 channels, and for each implementation several parameter sets
// covering both layouts, streams, odd blocks and tiles. CONVLAB_GPU_TEST_QUICK=1 shrinks the grid
// (for runs under compute-sanitizer).
#include <cstdlib>
#include <map>
#include <sstream>

#include "gpu_test_support.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

using gpu_test::compare;
using gpu_test::reference_sums;

struct Case {
  std::string implementation;
  Params params;
};

std::string case_name(const Case& c) {
  std::string name = c.implementation;
  for (const auto& [key, value] : c.params.items()) {
    name += "_" + key;
    if (value.is_array()) {
      for (const auto& v : value) name += std::to_string(v.get<int>());
    } else if (value.is_boolean()) {
      name += value.get<bool>() ? "1" : "0";
    } else if (value.is_string()) {
      name += value.get<std::string>();
    } else {
      name += std::to_string(value.get<int>());
    }
  }
  return name;
}

std::vector<Case> all_cases() {
  using nlohmann::json;
  const json interleaved = {{"layout", "interleaved"}, {"streams", false}};
  const json planar = {{"layout", "planar"}, {"streams", false}};
  const json planar_streams = {{"layout", "planar"}, {"streams", true}};
  auto with = [](json base, const json& extra) {
    for (const auto& [k, v] : extra.items()) base[k] = v;
    return base;
  };
  std::vector<Case> cases;
  for (const char* direct : {"cuda_global", "cuda_constant"}) {
    cases.push_back({direct, with(interleaved, {{"block", {16, 16}}})});
    cases.push_back({direct, with(interleaved, {{"block", {7, 5}}})});
    cases.push_back({direct, with(planar, {{"block", {32, 8}}})});
    cases.push_back({direct, with(planar_streams, {{"block", {16, 16}}})});
  }
  for (const char* tiled : {"cuda_shared", "cuda_separable"}) {
    cases.push_back({tiled, with(interleaved, {{"tile", 16}, {"block", {16, 16}}})});
    cases.push_back({tiled, with(interleaved, {{"tile", 13}, {"block", {7, 5}}})});
    cases.push_back({tiled, with(interleaved, {{"tile", 32}, {"block", {32, 8}}})});
    cases.push_back({tiled, with(planar, {{"tile", 8}, {"block", {32, 8}}})});
    cases.push_back({tiled, with(planar_streams, {{"tile", 32}, {"block", {16, 16}}})});
  }
  cases.push_back(
      {"cuda_regblock", with(interleaved, {{"per_thread", {8, 2}}, {"block", {4, 16}}})});
  cases.push_back(
      {"cuda_regblock", with(interleaved, {{"per_thread", {4, 1}}, {"block", {8, 4}}})});
  cases.push_back(
      {"cuda_regblock", with(interleaved, {{"per_thread", {8, 4}}, {"block", {8, 8}}})});
  cases.push_back({"cuda_regblock", with(planar, {{"per_thread", {4, 2}}, {"block", {16, 8}}})});
  cases.push_back(
      {"cuda_regblock", with(planar_streams, {{"per_thread", {8, 1}}, {"block", {4, 8}}})});
  const json fused_default = {
      {"strip", {32, 256}}, {"chunk", 32}, {"rows_per_thread", 8}, {"threads", 256}};
  cases.push_back({"cuda_fused", with(interleaved, fused_default)});
  cases.push_back(
      {"cuda_fused",
       with(interleaved,
            {{"strip", {64, 13}}, {"chunk", 8}, {"rows_per_thread", 4}, {"threads", 64}})});
  cases.push_back(
      {"cuda_fused",
       with(interleaved,
            {{"strip", {32, 7}}, {"chunk", 4}, {"rows_per_thread", 4}, {"threads", 32}})});
  cases.push_back({"cuda_fused", with(planar, fused_default)});
  cases.push_back(
      {"cuda_fused",
       with(planar_streams,
            {{"strip", {64, 40}}, {"chunk", 16}, {"rows_per_thread", 8}, {"threads", 128}})});
  cases.push_back(
      {"cuda_tensor", with(interleaved, {{"n_tiles", 8}, {"warp_rows", 2}, {"weights", "fp16"}})});
  cases.push_back({"cuda_tensor",
                   with(interleaved, {{"n_tiles", 4}, {"warp_rows", 1}, {"weights", "fp16x2"}})});
  cases.push_back(
      {"cuda_tensor", with(planar, {{"n_tiles", 8}, {"warp_rows", 3}, {"weights", "fp16"}})});
  cases.push_back({"cuda_tensor", with(planar_streams,
                                       {{"n_tiles", 4}, {"warp_rows", 2}, {"weights", "fp16x2"}})});
  cases.push_back({"npp", interleaved});
  cases.push_back({"npp", planar});
  cases.push_back({"npp", planar_streams});
  return cases;
}

bool quick() {
  const char* env = std::getenv("CONVLAB_GPU_TEST_QUICK");
  return env != nullptr && std::string(env) == "1";
}

// A skip the test expects: npp's border and output limits, NPP missing at build time.
bool expected_skip(const std::string& implementation, Border border, OutputType output,
                   const std::string& reason) {
  if (implementation != "npp") return false;
  if (reason == "NPP not found at build time") return true;
  return border != Border::replicate || output != OutputType::u8;
}

class CudaCorrectness : public ::testing::TestWithParam<Case> {};

TEST_P(CudaCorrectness, MatchesDoubleReference) {
  CONVLAB_SKIP_WITHOUT_GPU();
  const Case& test_case = GetParam();
  const auto implementations = make_cuda_implementations();
  const Implementation& impl =
      gpu_test::cuda_implementation(implementations, test_case.implementation);
  const bool separable_only = impl.name == "cuda_separable" || impl.name == "cuda_fused";
  const double roundoff = gpu_test::weight_roundoff(impl, test_case.params);

  struct Size {
    int width, height;
  };
  const std::vector<Size> sizes =
      quick() ? std::vector<Size>{{1, 1}, {7, 13}, {37, 21}}
              : std::vector<Size>{{1, 1}, {7, 13}, {1000, 3}, {3, 200}, {37, 61}, {130, 67}};
  const std::vector<int> ksizes =
      quick() ? std::vector<int>{1, 3, 15} : std::vector<int>{1, 3, 5, 7, 15, 31};
  const std::vector<Border> borders =
      quick() ? std::vector<Border>{Border::zero, Border::replicate, Border::reflect,
                                    Border::symmetric, Border::wrap}
              : all_borders();

  std::mt19937 rng(1234);
  RunContext context;
  int checked = 0, skipped = 0, failures = 0;
  for (const Size size : sizes) {
    for (int channels : {1, 3}) {
      const Image image = gpu_test::random_image(size.width, size.height, channels, rng);
      for (int k : ksizes) {
        const Filter filter = separable_only ? gpu_test::random_separable_filter(k, rng)
                                             : gpu_test::random_filter(k, rng);
        for (Border border : borders) {
          const std::vector<double> sums = reference_sums(image, filter, border);
          for (OutputType output : {OutputType::u8, OutputType::f32}) {
            const Problem problem{image, filter, border, output};
            std::ostringstream where;
            where << impl.name << " " << test_case.params.dump() << " image " << size.width << "x"
                  << size.height << "x" << channels << " K=" << k << " border " << to_string(border)
                  << " output " << to_string(output);
            if (auto reason = impl.unsupported(problem, test_case.params, context)) {
              EXPECT_TRUE(expected_skip(impl.name, border, output, *reason))
                  << where.str() << ": unexpected skip: " << *reason;
              ++skipped;
              continue;
            }
            auto point = impl.prepare(problem, test_case.params, context);
            for (int rep = 0; rep < 2; ++rep) {  // a second run must give the same result
              const auto phases = point->execute();
              ASSERT_TRUE(phases.has_value()) << where.str();
              EXPECT_GE(phases->kernel_ms, 0.0);
              EXPECT_GE(phases->h2d_ms, 0.0);
              EXPECT_GE(phases->d2h_ms, 0.0);
              const OutputView view = point->output();
              ASSERT_EQ(view.count, image.value_count()) << where.str();
              ASSERT_EQ(view.type, output) << where.str();
              const auto result = compare(view, sums, filter, roundoff);
              if (result.beyond > 0) {
                ++failures;
                ADD_FAILURE() << where.str() << " rep " << rep << ": " << result.beyond
                              << " values beyond tolerance " << result.tolerance << ", max error "
                              << result.max_error << " at value " << result.worst << " (pixel "
                              << result.worst / channels << ", channel " << result.worst % channels
                              << ")";
                if (failures > 20) FAIL() << "too many failures, stopping";
              }
            }
            ++checked;
          }
        }
      }
    }
  }
  std::printf("[   INFO   ] %s: %d points checked, %d skipped as expected\n",
              case_name(test_case).c_str(), checked, skipped);
}

INSTANTIATE_TEST_SUITE_P(AllImplementations, CudaCorrectness, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return case_name(info.param);
                         });

// Skip reasons: reported, never a crash.
TEST(CudaSkips, ReasonsForUnfitPoints) {
  CONVLAB_SKIP_WITHOUT_GPU();
  const auto implementations = make_cuda_implementations();
  std::mt19937 rng(7);
  const Image image = gpu_test::random_image(64, 48, 3, rng);
  const Filter dense = gpu_test::random_filter(7, rng);
  const Problem problem{image, dense, Border::replicate, OutputType::u8};
  RunContext context;
  auto reason_of = [&](const std::string& name, const Problem& p, const Params& params) {
    return gpu_test::cuda_implementation(implementations, name).unsupported(p, params, context);
  };

  auto separable = reason_of("cuda_separable", problem, Params::object());
  ASSERT_TRUE(separable.has_value());
  EXPECT_NE(separable->find("not separable"), std::string::npos) << *separable;

  auto fused = reason_of("cuda_fused", problem, Params::object());
  ASSERT_TRUE(fused.has_value());
  EXPECT_NE(fused->find("not separable"), std::string::npos) << *fused;

  auto regblock_shape =
      reason_of("cuda_regblock", problem, {{"per_thread", {8, 2}}, {"block", {6, 8}}});
  ASSERT_TRUE(regblock_shape.has_value());
  EXPECT_NE(regblock_shape->find("multiple"), std::string::npos) << *regblock_shape;
  auto regblock_threads =
      reason_of("cuda_regblock", problem, {{"per_thread", {8, 2}}, {"block", {32, 16}}});
  ASSERT_TRUE(regblock_threads.has_value());
  EXPECT_NE(regblock_threads->find("threads per block"), std::string::npos) << *regblock_threads;

  Filter overflowing = dense;
  overflowing.weights[3] = 1e6f;
  const Problem overflow_problem{image, overflowing, Border::replicate, OutputType::f32};
  auto tensor_range = reason_of("cuda_tensor", overflow_problem, Params::object());
  ASSERT_TRUE(tensor_range.has_value());
  EXPECT_NE(tensor_range->find("FP16"), std::string::npos) << *tensor_range;

  auto big_block = reason_of("cuda_shared", problem, {{"block", {64, 32}}, {"tile", 16}});
  ASSERT_TRUE(big_block.has_value());
  EXPECT_NE(big_block->find("threads per block"), std::string::npos) << *big_block;

  const Filter big = gpu_test::random_filter(61, rng);
  const Problem big_problem{image, big, Border::replicate, OutputType::u8};
  auto big_tile = reason_of("cuda_shared", big_problem, {{"block", {16, 16}}, {"tile", 256}});
  ASSERT_TRUE(big_tile.has_value());
  EXPECT_NE(big_tile->find("shared memory"), std::string::npos) << *big_tile;

  const Filter huge = gpu_test::random_filter(101, rng);
  const Problem huge_problem{image, huge, Border::replicate, OutputType::u8};
  auto constant = reason_of("cuda_constant", huge_problem, Params::object());
  ASSERT_TRUE(constant.has_value());
  EXPECT_NE(constant->find("__constant__"), std::string::npos) << *constant;
  EXPECT_FALSE(reason_of("cuda_global", huge_problem, Params::object()).has_value());

  auto streams = reason_of("cuda_shared", problem, {{"streams", true}, {"layout", "interleaved"}});
  ASSERT_TRUE(streams.has_value());
  EXPECT_NE(streams->find("planar"), std::string::npos) << *streams;

  const Problem wrap{image, dense, Border::wrap, OutputType::u8};
  auto npp_border = reason_of("npp", wrap, Params::object());
  ASSERT_TRUE(npp_border.has_value());
  const Problem f32{image, dense, Border::replicate, OutputType::f32};
  auto npp_f32 = reason_of("npp", f32, Params::object());
  ASSERT_TRUE(npp_f32.has_value());

  RunContext missing;
  missing.cuda_device = 99;
  auto absent = gpu_test::cuda_implementation(implementations, "cuda_global")
                    .unsupported(problem, {}, missing);
  ASSERT_TRUE(absent.has_value());
}

// A large kernel on a bigger image with the L2 flushed between repetitions, and K beyond the
// compile-time specialisations, through the generic kernels.
TEST(CudaLarge, GenericKAndL2Flush) {
  CONVLAB_SKIP_WITHOUT_GPU();
  const auto implementations = make_cuda_implementations();
  std::mt19937 rng(99);
  const Image image = gpu_test::random_image(301, 157, 3, rng);
  const Filter dense = gpu_test::random_filter(45, rng);
  const Filter rank1 = gpu_test::random_separable_filter(45, rng);
  const Filter streaming = gpu_test::random_filter(7, rng);  // cuda_streaming's direct limit
  RunContext context;
  context.l2_flush = true;
  for (const auto& impl : implementations) {
    if (impl.name == "npp") continue;
    const bool rank1_only = impl.name == "cuda_separable" || impl.name == "cuda_fused" ||
                            impl.name == "cuda_tensor_separable";
    const Filter& filter = impl.name == "cuda_streaming" ? streaming : (rank1_only ? rank1 : dense);
    const Problem problem{image, filter, Border::reflect, OutputType::f32};
    Params params = Params::object();  // every axis at its default, as a config leaves them
    for (const auto& axis : impl.axes) params[axis.name] = axis.default_value;
    ASSERT_FALSE(impl.unsupported(problem, params, context).has_value()) << impl.name;
    auto point = impl.prepare(problem, params, context);
    for (int rep = 0; rep < 3; ++rep) point->execute();
    const auto result = compare(point->output(), reference_sums(image, filter, Border::reflect),
                                filter, gpu_test::weight_roundoff(impl, params));
    EXPECT_EQ(result.beyond, 0u) << impl.name << " max error " << result.max_error;
  }
}

}  // namespace
}  // namespace convlab
