// The plan tells before the run which points will be skipped and why (plan/skips.hpp): the
// implementations' own unmet needs, counted apart from this machine's reasons, left out of the
// cost estimate, and what the run then records. Also the unclosed-bracket finder behind the
// config's syntax messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "config/flow_brackets.hpp"
#include "impl/registry.hpp"
#include "plan/skips.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

TEST(PlanCounts, OneCauseOnOneLineSeveralOnTheirOwn) {
  using Skip = std::optional<PlannedSkip>;
  const Skip gaussian =
      PlannedSkip{SkipCause::config, "opencv_gaussianblur needs a Gaussian kernel",
                  "kernel 'box3' is not a Gaussian"};
  const Skip device = PlannedSkip{SkipCause::machine, "no CUDA device", "no CUDA device"};
  std::vector<Skip> skips(42);
  for (int i = 0; i < 6; ++i) skips.push_back(gaussian);
  EXPECT_EQ(plan_counts_text(count_plan(skips)),
            "48 points: 42 to run, 6 skipped: opencv_gaussianblur needs a Gaussian kernel");
  for (int i = 0; i < 12; ++i) skips.insert(skips.begin(), device);
  EXPECT_EQ(plan_counts_text(count_plan(skips)),
            "60 points: 42 to run, 6 skipped, 12 skipped on this machine\n"
            "  6 skipped: opencv_gaussianblur needs a Gaussian kernel\n"
            "  12 skipped on this machine: no CUDA device");
  EXPECT_EQ(plan_counts_text(count_plan(std::vector<Skip>(3))), "3 points, all to run");
  EXPECT_EQ(plan_counts_text(count_plan(std::vector<Skip>(1))), "1 point to run");
  const PlanCounts counts = count_plan(skips);
  EXPECT_EQ(counts.to_run, 42u);
  ASSERT_EQ(counts.skipped.size(), 2u);
  EXPECT_EQ(counts.skipped[0].cause, SkipCause::config);  // the config's first, then the machine's
}

// Every implementation that states unmet needs gives the same reason from `unsupported`, first,
// whatever the machine: the plan's count and the run's records agree.
TEST(UnmetNeeds, AreWhatUnsupportedSaysFirst) {
  const Image image = testing::random_image(16, 16, 3, 1);
  const Filter box = testing::filter_of("box", 3);
  const Filter sharpen = testing::filter_of("sharpen", 3);
  const Filter gaussian = testing::filter_of("gaussian", 5);
  int unmet = 0;
  for (const auto& impl : implementation_registry()) {
    if (!impl.unmet_need) continue;
    Params params = Params::object();
    for (const auto& axis : impl.axes) params[axis.name] = axis.default_value;
    for (const Filter* filter : {&box, &sharpen, &gaussian})
      for (Border border : {Border::replicate, Border::reflect, Border::wrap})
        for (OutputType output : {OutputType::u8, OutputType::f32}) {
          const Problem problem{image, *filter, border, output};
          const auto need = impl.unmet_need(problem, params);
          if (!need) continue;
          ++unmet;
          EXPECT_FALSE(need->needs.empty()) << impl.name;
          EXPECT_EQ(impl.unsupported(problem, params, RunContext{}), need->reason)
              << impl.name << " " << filter->name;
        }
  }
  EXPECT_GT(unmet, 20);
  const auto need_of = [&](const char* name, const Filter& filter, Border border, OutputType output,
                           Params params) {
    const Implementation* impl = find_implementation(name);
    const auto need = impl->unmet_need(Problem{image, filter, border, output}, params);
    return need ? need->needs : std::string();
  };
  EXPECT_EQ(need_of("opencv_gaussianblur", box, Border::replicate, OutputType::u8, {}),
            "a Gaussian kernel");
  EXPECT_EQ(need_of("cpu_fused", sharpen, Border::replicate, OutputType::u8, {}),
            "a separable (rank-1) kernel");
  EXPECT_EQ(need_of("npp", gaussian, Border::reflect, OutputType::u8, {}), "the replicate border");
  EXPECT_EQ(need_of("npp", gaussian, Border::replicate, OutputType::f32, {}), "u8 output");
  EXPECT_EQ(
      need_of("cuda_shared", gaussian, Border::replicate, OutputType::u8,
              {{"tile", 16}, {"block", {16, 16}}, {"layout", "interleaved"}, {"streams", true}}),
      "layout: planar with streams: true");
  EXPECT_EQ(need_of("cpu_fused", gaussian, Border::wrap, OutputType::f32, {}), "");
}

const char* kSkipping = R"(name: skipping
images:
  - {type: generated, sizes: [16], channels: 1}
kernels:
  - {type: gaussian, size: 3}
  - {type: box, size: 3}
border: [replicate, reflect]
implementations:
  openmp: {threads: 1}
  opencv_gaussianblur: {}
  npp: {}
measure: {warmup: 0, min_reps: 1, max_reps: 2, max_seconds: 0.01}
)";

class PlanSkips : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "skipping.yaml", kSkipping);
  }
};

TEST_F(PlanSkips, ValidateDryRunAndRunAgreeOnWhatIsSkipped) {
  const auto validated = testing::run_convlab("validate skipping.yaml", dir_);
  ASSERT_EQ(validated.exit_code, 0) << validated.output;
  EXPECT_NE(validated.output.find("valid; 1 image, 2 kernels, 2 borders, 1 output\n"),
            std::string::npos)
      << validated.output;
  std::smatch counts;
  ASSERT_TRUE(std::regex_search(validated.output, counts,
                                std::regex("12 points: ([0-9]+) to run, ([0-9]+) skipped")))
      << validated.output;
  EXPECT_NE(validated.output.find("\n  2 skipped: opencv_gaussianblur needs a Gaussian kernel\n"),
            std::string::npos)
      << validated.output;
  EXPECT_NE(validated.output.find("\n  2 skipped: npp needs the replicate border\n"),
            std::string::npos)
      << validated.output;
  const int to_run = std::stoi(counts[1]);

  const auto planned = testing::run_convlab("run skipping.yaml --dry-run", dir_);
  ASSERT_EQ(planned.exit_code, 0) << planned.output;
  size_t skipped_rows = 0, at = 0;
  while ((at = planned.output.find("| skipped |", at)) != std::string::npos) ++skipped_rows, ++at;
  EXPECT_EQ(skipped_rows, 12u - to_run) << planned.output;
  EXPECT_NE(planned.output.find(counts[0].str()), std::string::npos) << planned.output;

  ASSERT_EQ(testing::run_convlab("run skipping.yaml --quiet", dir_).exit_code, 0);
  const json records =
      json::parse(testing::read_text(dir_ / "outputs/skipping/results.json"))["records"];
  int ran = 0;
  for (const auto& record : records) {
    ran += record["status"] != "skipped";
    if (record["implementation"] == "opencv_gaussianblur" && record["kernel"]["name"] == "box3") {
      EXPECT_EQ(record["reason"],
                "kernel 'box3' is not a Gaussian (GaussianBlur makes only those)");
    }
    if (record["implementation"] == "npp" && record["border"] == "reflect") {
      EXPECT_NE(record["reason"].get<std::string>().find("supports only the replicate border"),
                std::string::npos)
          << record["reason"];
    }
  }
  EXPECT_EQ(ran, to_run);
}

// A figure is tried on the plan's points; the points the config rules out are not among them.
TEST_F(PlanSkips, FiguresAreTriedOnThePointsThatCanRun) {
  testing::write_text(dir_ / "figure.yaml", R"(name: figure
images:
  - {type: generated, sizes: [16], channels: 1}
kernels:
  - {type: box, size: 3}
  - {type: gaussian, size: 3}
implementations:
  openmp: {threads: 1}
  opencv_gaussianblur: {}
figures:
  - {name: cpu, x: kernel.name, y: median_ms, series: family, where: kernel.type=box}
)");
  // Both implementations are of family cpu, but GaussianBlur never runs the box kernel.
  const auto valid = testing::run_convlab("validate figure.yaml", dir_);
  EXPECT_EQ(valid.exit_code, 0) << valid.output;
  testing::write_text(dir_ / "figure.yaml",
                      std::regex_replace(testing::read_text(dir_ / "figure.yaml"),
                                         std::regex("kernel.type=box"), "kernel.type=gaussian"));
  const auto refused = testing::run_convlab("validate figure.yaml", dir_);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("figures[0]: figure 'cpu': 2 points fall on 'cpu' at 'gaussian3' "
                                "(they differ in implementation, params)"),
            std::string::npos)
      << refused.output;
}

TEST(FlowBrackets, FindsTheBracketLeftOpenAndNothingElse) {
  auto unclosed = find_unclosed_bracket("a:\n  - {x: 1, y: 2\nb: 3\n");
  ASSERT_TRUE(unclosed.has_value());
  EXPECT_EQ(unclosed->bracket, '{');
  EXPECT_EQ(unclosed->line, 2);
  EXPECT_EQ(unclosed->column, 5);
  EXPECT_EQ(unclosed->found_line, 3);
  unclosed = find_unclosed_bracket("a: [1, [2, 3]\n");
  ASSERT_TRUE(unclosed.has_value());
  EXPECT_EQ(unclosed->column, 4);
  EXPECT_EQ(unclosed->found_line, 0);  // the end of the file
  // Closed across lines, inside quotes, in a comment, in plain text and in a block scalar.
  for (const char* fine :
       {"a: {x: 1,\n     y: 2}\nb: 3\n", "a: \"{ [\"\nb: '{'\n", "a: 1  # {\n",
        "title: speed {fast}\n", "description: |\n  {open\nb: [1]\n", "a: 'it''s {'\n"})
    EXPECT_FALSE(find_unclosed_bracket(fine).has_value()) << fine;
}

}  // namespace
}  // namespace convlab
