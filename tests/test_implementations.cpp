// Every CPU implementation against the double-precision reference on awkward inputs, and the
// reference itself against hand-worked values.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "impl/cuda/cuda_axes.hpp"
#include "impl/family.hpp"
#include "impl/opencv/opencv_calls.hpp"
#include "impl/registry.hpp"
#include "reference/reference.hpp"
#include "store/record.hpp"
#include "test_support.hpp"
#include "verify/verify.hpp"

namespace convlab {
namespace {

using testing::filter_of;
using testing::random_image;

OutputView run_once(const std::string& name, const Params& params, const Problem& problem,
                    std::unique_ptr<PreparedPoint>& keep) {
  const Implementation* impl = find_implementation(name);
  EXPECT_NE(impl, nullptr) << name;
  keep = impl->prepare(problem, params, RunContext{});
  keep->execute();
  return keep->output();
}

Filter asymmetric_custom(int size) {
  FilterRequest request;
  request.type = "custom";
  request.custom_name = "asym" + std::to_string(size);
  request.size = size;
  request.matrix.assign(size, std::vector<double>(size));
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) request.matrix[y][x] = ((y * 7 + x * 3) % 11 - 5) / 10.0;
  return make_filter(request);
}

// The reason an implementation must skip a problem with (a part of it), or nullopt when it must
// run the problem.
using ExpectedSkip = std::function<std::optional<std::string>(const Problem&)>;

std::optional<std::string> never_skips(const Problem&) {
  return std::nullopt;
}

std::optional<std::string> skips_rank_two(const Problem& problem) {
  if (!problem.filter.separable) return std::string("not separable");
  return std::nullopt;
}

// OpenCV peers: wrap and what the function cannot filter (on any machine), then everything else
// without OpenCV.
ExpectedSkip opencv_skips(ExpectedSkip function_limits) {
  return [function_limits](const Problem& problem) -> std::optional<std::string> {
    if (problem.border == Border::wrap) return std::string("wrap border");
    if (auto limit = function_limits(problem)) return limit;
    if (!opencv_built()) return std::string("OpenCV not found at build time");
    return std::nullopt;
  };
}

std::optional<std::string> skips_non_gaussian(const Problem& problem) {
  if (problem.filter.type != "gaussian") return std::string("not a Gaussian");
  return std::nullopt;
}

Filter gaussian_with_sigma(int size, double sigma) {
  FilterRequest request;
  request.type = "gaussian";
  request.size = size;
  request.sigma = sigma;
  return make_filter(request);
}

struct Case {
  std::string implementation;
  Params params;
  ExpectedSkip expected_skip = never_skips;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.implementation << " " << c.params.dump();
}

class CpuImplementations : public ::testing::TestWithParam<Case> {};

TEST_P(CpuImplementations, MatchTheReferenceOnAwkwardInputs) {
  const Case& c = GetParam();
  // 90 x 35: rows of whole vector blocks between the edges and a partial one, and more rows than
  // the vertical chunks of cpu_fused's K = 3 path.
  const std::vector<std::pair<int, int>> shapes{{1, 1},  {1, 9},   {9, 1},
                                                {7, 13}, {33, 17}, {90, 35}};
  std::vector<Filter> filters;
  for (int k : {1, 3, 5, 7, 9, 11, 15, 21}) filters.push_back(filter_of("gaussian", k));
  filters.push_back(gaussian_with_sigma(9, 2.0));
  filters.push_back(filter_of("sobel_x", 5));
  filters.push_back(filter_of("emboss", 3));
  filters.push_back(asymmetric_custom(5));
  filters.push_back(asymmetric_custom(21));  // larger than most of the images
  int checked = 0, skipped = 0;
  for (const auto& [w, h] : shapes)
    for (int channels : {1, 3}) {
      const Image image = random_image(w, h, channels, 1000 + w * 31 + h + channels);
      for (const Filter& filter : filters)
        for (Border border : all_borders())
          for (OutputType output : {OutputType::u8, OutputType::f32}) {
            const Problem problem{image, filter, border, output};
            const Implementation* impl = find_implementation(c.implementation);
            const auto reason = impl->unsupported(problem, c.params, RunContext{});
            const auto expected = c.expected_skip(problem);
            if (reason || expected) {
              ASSERT_TRUE(reason.has_value()) << filter.name << " " << to_string(border)
                                              << ": runs, but should skip (" << *expected << ")";
              ASSERT_TRUE(expected.has_value())
                  << filter.name << " " << to_string(border) << ": skipped: " << *reason;
              EXPECT_NE(reason->find(*expected), std::string::npos) << *reason;
              ++skipped;
              continue;
            }
            std::unique_ptr<PreparedPoint> point;
            const OutputView out = run_once(c.implementation, c.params, problem, point);
            const Verification v = verify_output(out, compute_reference(problem),
                                                 verification_tolerance(*impl, problem, c.params));
            EXPECT_TRUE(v.ok) << c.implementation << " " << w << "x" << h << "x" << channels << " "
                              << filter.name << " " << to_string(border) << " " << to_string(output)
                              << ": max error " << v.max_abs_error << " at " << v.worst_index;
            ++checked;
          }
    }
  if (c.implementation.rfind("opencv_", 0) == 0 && !opencv_built()) {
    EXPECT_EQ(checked, 0);
    GTEST_SKIP() << "OpenCV not found at build time: all " << skipped << " problems skipped";
  }
  EXPECT_GT(checked, 100);
}

INSTANTIATE_TEST_SUITE_P(
    All, CpuImplementations,
    ::testing::Values(
        Case{"sequential", Params::object()},
        Case{"openmp", {{"threads", 3}, {"schedule", "dynamic"}, {"chunk", 1}}},
        Case{"openmp", {{"threads", 2}, {"schedule", "static"}, {"chunk", 0}}},
        Case{"cpu_rows", {{"threads", 2}, {"schedule", "guided"}, {"chunk", 0}}},
        Case{"cpu_separable",
             {{"threads", 2}, {"schedule", "static"}, {"chunk", 0}},
             skips_rank_two},
        Case{"cpu_fused", {{"threads", 2}, {"tile", 0}}, skips_rank_two},
        // Many threads for few rows, and tiles narrower than the kernel.
        Case{"cpu_fused", {{"threads", 5}, {"tile", 3}, {"stream", "always"}}, skips_rank_two},
        Case{"cpu_direct", {{"threads", 2}, {"tile", 0}}},
        Case{"cpu_direct", {{"threads", 7}, {"tile", 2}, {"stream", "always"}}},
        Case{"opencv_filter2d", {{"threads", 2}}, opencv_skips(never_skips)},
        Case{"opencv_sepfilter2d", {{"threads", 2}}, opencv_skips(skips_rank_two)},
        Case{"opencv_gaussianblur", {{"threads", 1}}, opencv_skips(skips_non_gaussian)}),
    [](const auto& info) { return info.param.implementation + std::to_string(info.index); });

TEST(CpuImplementations, OpenmpIsBitIdenticalToSequentialForU8) {
  const Image image = random_image(101, 67, 3, 7);
  for (const Filter& filter :
       {filter_of("gaussian", 7), filter_of("sharpen", 3), asymmetric_custom(9)})
    for (Border border : all_borders()) {
      const Problem problem{image, filter, border, OutputType::u8};
      std::unique_ptr<PreparedPoint> a, b;
      const OutputView seq = run_once("sequential", Params::object(), problem, a);
      const OutputView par =
          run_once("openmp", {{"threads", 4}, {"schedule", "dynamic"}, {"chunk", 3}}, problem, b);
      ASSERT_EQ(seq.count, par.count);
      EXPECT_EQ(std::memcmp(seq.data, par.data, seq.count), 0)
          << filter.name << " " << to_string(border);
    }
}

TEST(CpuImplementations, FusedIsExactForOpenCVsSmallestGaussians) {
  // Integer weights over 4 and 16 fit 16 bits whole: every u8 value is the rounded reference.
  const Image image = random_image(301, 67, 3, 11);
  for (int k : {1, 3, 5})
    for (Border border : {Border::replicate, Border::zero, Border::reflect}) {
      const Problem problem{image, filter_of("gaussian", k), border, OutputType::u8};
      std::unique_ptr<PreparedPoint> point;
      const OutputView out = run_once("cpu_fused", {{"threads", 2}}, problem, point);
      const Verification v = verify_output(out, compute_reference(problem), 1.0);
      EXPECT_TRUE(v.ok);
      EXPECT_EQ(v.values_not_exact, 0u) << "K=" << k << " " << to_string(border);
    }
}

// cpu_fused compiles K = 3..11 with K fixed and runs any other K with K read at run time; rows
// wide enough for whole register blocks plus a partial one, both arithmetic paths (16-bit for u8
// with OpenCV's weights, float for f32 and for a sigma), every border.
TEST(CpuImplementations, FusedMatchesTheReferenceForEveryCompiledKernelSize) {
  const Image image = random_image(203, 41, 3, 5);
  int checked = 0;
  for (int k : {1, 3, 5, 7, 9, 11, 13})
    for (const Filter& filter : {filter_of("gaussian", k), gaussian_with_sigma(k, 1.5)})
      for (Border border : all_borders())
        for (OutputType output : {OutputType::u8, OutputType::f32}) {
          const Problem problem{image, filter, border, output};
          const Implementation* impl = find_implementation("cpu_fused");
          std::unique_ptr<PreparedPoint> point;
          const OutputView out = run_once("cpu_fused", {{"threads", 2}}, problem, point);
          const Verification v = verify_output(out, compute_reference(problem),
                                               verification_tolerance(*impl, problem, {}));
          EXPECT_TRUE(v.ok) << filter.name << " " << to_string(border) << " " << to_string(output)
                            << ": max error " << v.max_abs_error;
          ++checked;
        }
  EXPECT_EQ(checked, 7 * 2 * 5 * 2);
}

// Tall images, cut into several strips and tiles per thread (each strip re-filtering the rows
// around its edges): the bytes must not depend on who filtered which rows.
TEST(CpuImplementations, RingRungsGiveTheSameBytesOnAnyThreadCountAndTile) {
  int compared = 0;
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{45, 301}, {130, 203}, {7, 517}})
    for (const char* name : {"cpu_fused", "cpu_direct"})
      for (const Filter& filter : {filter_of("gaussian", 7), filter_of("gaussian", 21),
                                   gaussian_with_sigma(9, 2.0), asymmetric_custom(5)}) {
        const Image image = random_image(w, h, 3, 77 + w + h);
        for (Border border : {Border::replicate, Border::zero, Border::wrap}) {
          const Problem problem{image, filter, border, OutputType::u8};
          const Implementation* impl = find_implementation(name);
          if (impl->unsupported(problem, Params::object(), RunContext{})) continue;
          std::unique_ptr<PreparedPoint> one;
          const OutputView expected = run_once(name, {{"threads", 1}}, problem, one);
          const Verification v = verify_output(expected, compute_reference(problem),
                                               verification_tolerance(*impl, problem, {}));
          EXPECT_TRUE(v.ok) << name << " " << w << "x" << h << " " << filter.name;
          for (const Params& params :
               {Params{{"threads", 2}}, Params{{"threads", 3}, {"tile", 16}},
                Params{{"threads", 5}, {"tile", 64}}, Params{{"threads", 8}, {"tile", 5}}}) {
            std::unique_ptr<PreparedPoint> point;
            const OutputView out = run_once(name, params, problem, point);
            ASSERT_EQ(out.count, expected.count);
            EXPECT_EQ(std::memcmp(out.data, expected.data, out.count), 0)
                << name << " " << params.dump() << " " << w << "x" << h << " " << filter.name << " "
                << to_string(border);
            ++compared;
          }
        }
      }
  EXPECT_GT(compared, 100);
}

TEST(CpuImplementations, SeparableSkipsRankTwoKernels) {
  const Image image = random_image(8, 8, 1, 1);
  const Filter sharpen = filter_of("sharpen", 3);
  const Problem problem{image, sharpen, Border::zero, OutputType::u8};
  const auto reason =
      find_implementation("cpu_separable")->unsupported(problem, Params::object(), RunContext{});
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("not separable"), std::string::npos);
}

TEST(OpencvPeers, GaussianBlurBoundIsOneLevelWhereOpenCVsWeightsAreExact) {
  const Image image = random_image(8, 8, 1, 1);
  const Implementation* blur = find_implementation("opencv_gaussianblur");
  ASSERT_NE(blur, nullptr);
  for (int k : {1, 3, 5, 7, 9}) {
    const Filter table = filter_of("gaussian", k);  // multiples of 1/256: no fixed-point error
    EXPECT_EQ(verification_tolerance(*blur, {image, table, Border::zero, OutputType::u8}), 1.0);
  }
  const Filter wide = filter_of("gaussian", 21);
  const double bound = verification_tolerance(*blur, {image, wide, Border::zero, OutputType::u8});
  EXPECT_GT(bound, 1.0);
  EXPECT_LT(bound, 10.0);
  // f32 output is float arithmetic in OpenCV too: the usual bound.
  EXPECT_EQ(verification_tolerance(*blur, {image, wide, Border::zero, OutputType::f32}),
            verification_tolerance(OutputType::f32, wide));
  // Everyone else keeps one level.
  EXPECT_EQ(verification_tolerance(*find_implementation("cpu_rows"),
                                   {image, wide, Border::zero, OutputType::u8}),
            1.0);
}

TEST(Reference, ComputesCorrelationNotConvolution) {
  // A single bright pixel: correlation places the kernel around it flipped in both directions.
  Image image = random_image(7, 7, 1, 1);
  std::fill(image.pixels.begin(), image.pixels.end(), 0);
  image.pixels[3 * 7 + 3] = 100;
  const Filter filter = asymmetric_custom(3);
  const Reference ref = compute_reference({image, filter, Border::zero, OutputType::f32});
  for (int ky = 0; ky < 3; ++ky)
    for (int kx = 0; kx < 3; ++kx) {
      const int x = 3 - (kx - 1), y = 3 - (ky - 1);
      EXPECT_NEAR(ref.values[y * 7 + x], 100.0 * filter.at(ky, kx), 1e-9);
    }
}

TEST(Reference, HandWorkedReplicateAndRounding) {
  Image image = random_image(3, 1, 1, 1);
  image.pixels = {10, 20, 40};
  const Filter box = filter_of("box", 3);
  const Reference f32 = compute_reference({image, box, Border::replicate, OutputType::f32});
  // Row replicated above and below: every window holds three copies of one row of three values.
  const double w = static_cast<double>(box.weights[0]);
  EXPECT_NEAR(f32.values[0], w * 3 * (10 + 10 + 20), 1e-12);
  EXPECT_NEAR(f32.values[1], w * 3 * (10 + 20 + 40), 1e-12);
  EXPECT_NEAR(f32.values[2], w * 3 * (20 + 40 + 40), 1e-12);
  const Reference u8 = compute_reference({image, box, Border::replicate, OutputType::u8});
  EXPECT_EQ(u8.values[0], 13.0);  // 13.33 rounds down
  EXPECT_EQ(u8.values[1], 23.0);  // 23.33
  EXPECT_EQ(u8.values[2], 33.0);  // 33.33
  const Reference zero = compute_reference({image, box, Border::zero, OutputType::f32});
  EXPECT_NEAR(zero.values[0], w * (10 + 20), 1e-12);
}

TEST(Reference, U8ClampsBothEnds) {
  Image image = random_image(3, 3, 1, 1);
  std::fill(image.pixels.begin(), image.pixels.end(), 200);
  image.pixels[4] = 0;
  const Reference ref =
      compute_reference({image, filter_of("laplacian", 3), Border::replicate, OutputType::u8});
  EXPECT_EQ(ref.values[4], 255.0);  // 4 * 200 - 0 = 800 clamps to 255
  EXPECT_EQ(ref.values[1], 0.0);    // 0 + 200 + 200 - 800 + 200... negative clamps to 0
}

TEST(Verification, CountsValuesBeyondTolerance) {
  Reference ref{OutputType::u8, {10, 20, 30}};
  const std::uint8_t close[3] = {11, 20, 29}, far[3] = {10, 22, 30};
  EXPECT_TRUE(verify_output({OutputType::u8, close, 3}, ref, 1.0).ok);
  const Verification v = verify_output({OutputType::u8, far, 3}, ref, 1.0);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.values_beyond_tolerance, 1u);
  EXPECT_EQ(v.max_abs_error, 2.0);
  EXPECT_EQ(v.worst_index, 1u);
  EXPECT_EQ(v.values_not_exact, 1u);
  const Verification within = verify_output({OutputType::u8, close, 3}, ref, 1.0);
  EXPECT_EQ(within.values_not_exact, 2u);  // 11 and 29: within 1, but not the rounded reference
  EXPECT_EQ(to_json(within)["values_not_exact"], 2);
  const float nan_output[3] = {10, NAN, 30};
  Reference fref{OutputType::f32, {10, 20, 30}};
  EXPECT_FALSE(verify_output({OutputType::f32, nan_output, 3}, fref, 0.5).ok);
  const float f32_output[3] = {10, 20.25f, 30};
  EXPECT_TRUE(
      to_json(verify_output({OutputType::f32, f32_output, 3}, fref, 0.5))["values_not_exact"]
          .is_null());
}

// A family is written as "cpu" or "cuda" (plan descriptions, records, `convlab list`) and read back
// from that name; a name of no family reads as nothing.
TEST(Implementations, FamilyNamesReadBack) {
  EXPECT_STREQ(family_name(Family::cpu), "cpu");
  EXPECT_STREQ(family_name(Family::cuda), "cuda");
  for (Family family : {Family::cpu, Family::cuda})
    EXPECT_EQ(family_named(family_name(family)), family);
  EXPECT_EQ(family_named("gpu"), std::nullopt);
  EXPECT_EQ(family_named(""), std::nullopt);
}

// A CUDA rung's params reach its .cu file by axis name, with the rung's own defaults where the
// params leave an axis out (cuda_regblock's block is [4, 16], not cuda_global's [16, 16]); an axis
// the rung does not declare is a programming error.
TEST(Implementations, CudaLaunchParamsHoldTheRungsAxesByName) {
  const Implementation* regblock = find_implementation("cuda_regblock");
  ASSERT_NE(regblock, nullptr);
  const cuda::LaunchParams launch =
      launch_params(regblock->axes, Params{{"per_thread", {4, 1}}, {"layout", "planar"}});
  EXPECT_EQ(launch.pair("per_thread").x, 4);
  EXPECT_EQ(launch.pair("per_thread").y, 1);
  EXPECT_EQ(launch.pair("block").x, 4);
  EXPECT_EQ(launch.pair("block").y, 16);
  EXPECT_EQ(launch.layout, cuda::Layout::planar);
  EXPECT_FALSE(launch.streams);
  EXPECT_THROW(launch.integer("tile"), std::logic_error);
  EXPECT_THROW(launch.integer("block"), std::logic_error);
  const cuda::LaunchParams tensor =
      launch_params(find_implementation("cuda_tensor")->axes, Params::object());
  EXPECT_EQ(tensor.choice("weights"), "fp16");
}

}  // namespace
}  // namespace convlab
