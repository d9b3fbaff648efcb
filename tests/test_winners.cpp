// The winners table and its pivot (query/winners.hpp) on records made by hand: who wins a
// problem, the runner-up, the ratios, the Mann-Whitney verdict, the baseline ratio or why it is
// missing, and how --by groups the rows; then the writers' csv and md.
#include <gtest/gtest.h>

#include <sstream>

#include "core/number_text.hpp"
#include "query/speedup_gap.hpp"
#include "query/winners.hpp"
#include "store/derive.hpp"
#include "tables/winners_writer.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

// Timing samples around `median`: 10 values from 0.98 to 1.02 times it.
std::vector<double> samples_around(double median, int count = 10) {
  std::vector<double> samples;
  for (int i = 0; i < count; ++i)
    samples.push_back(median * (0.98 + 0.04 * i / std::max(1, count - 1)));
  return samples;
}

struct Point {
  std::string implementation;
  json params;
  std::string kernel_type;
  int k;
  double median;
  int samples = 10;
  std::string status = "ok";
  int width = 64;
};

json record_json(const Point& p) {
  json r{{"implementation", p.implementation},
         {"family", "cpu"},
         {"params", p.params},
         {"image",
          {{"name", "noise-" + std::to_string(p.width) + "x64-c1-s1"},
           {"source", "generated:noise seed=1"},
           {"sha256", "ab" + std::to_string(p.width)},
           {"width", p.width},
           {"height", 64},
           {"channels", 1}}},
         {"kernel",
          {{"name", p.kernel_type + std::to_string(p.k)},
           {"type", p.kernel_type},
           {"size", p.k},
           {"separable", true},
           {"parameters", json::object()}}},
         {"border", "replicate"},
         {"output", "u8"},
         {"status", p.status},
         {"reason", p.status == "skipped" ? "no CUDA device" : ""},
         {"timing", nullptr},
         {"derived", json::object()},
         {"machine", {{"cpu_model", "Test CPU"}, {"hostname", "box"}, {"host_id", "h1"}}}};
  if (p.status == "ok") {
    const auto samples = samples_around(p.median, p.samples);
    r["timing"] = {{"samples_ms", samples},
                   {"stats", {{"median", p.median}, {"min", samples.front()}}},
                   {"repetitions", samples.size()}};
  }
  return r;
}

// A results document of these points, its baseline `baseline`, the derived metrics computed.
ResultsDocument document_of(const std::vector<Point>& points, const json& baseline) {
  ResultsFile file;
  file.experiment = {{"name", "t"}, {"baseline", baseline}};
  for (const auto& point : points) file.records.push_back(record_from_json(record_json(point)));
  derive_metrics(file);  // as the run stores them in results.json
  return results_document_of("t/results.json", std::move(file));
}

std::vector<const Record*> ok_points(const ResultsDocument& document) {
  std::vector<const Record*> points;
  for (const auto& record : document.file.records)
    if (record.usable()) points.push_back(&record);
  return points;
}

const json kSequential = {{"implementation", "sequential"}, {"params", json::object()}};

TEST(Winners, FastestPointWinsAgainstTheFastestOfAnotherImplementation) {
  const auto document = document_of({{"sequential", json::object(), "gaussian", 3, 40.0},
                                     {"cpu_fused", {{"threads", 1}}, "gaussian", 3, 2.0},
                                     {"cpu_fused", {{"threads", 2}}, "gaussian", 3, 1.0},
                                     {"opencv_gaussianblur", {{"threads", 2}}, "gaussian", 3, 1.5}},
                                    kSequential);
  const WinnersTable table = find_winners(document, ok_points(document));
  ASSERT_EQ(table.rows.size(), 1u);
  const ProblemWinner& row = table.rows[0];
  EXPECT_EQ(row.winner->implementation, "cpu_fused");
  EXPECT_EQ(row.winner->params["threads"], 2);
  // Not cpu_fused with one thread (2.0 ms): the runner-up is another implementation.
  ASSERT_NE(row.runner_up, nullptr);
  EXPECT_EQ(row.runner_up->implementation, "opencv_gaussianblur");
  EXPECT_DOUBLE_EQ(*row.runner_up_ratio, 1.5);
  EXPECT_EQ(row.contenders, 4u);
  // 10 against 10 samples that do not overlap: significant.
  EXPECT_EQ(row.margin, WinMargin::significant);
  EXPECT_LT(row.test.p_value, 0.001);
  ASSERT_TRUE(row.baseline_ratio.has_value());
  EXPECT_DOUBLE_EQ(*row.baseline_ratio, 40.0);
  EXPECT_EQ(table.baseline, "sequential");
  EXPECT_EQ(table.swept.at("cpu_fused"), std::vector<std::string>{"threads"});
}

TEST(Winners, OverlappingSamplesAreWithinNoiseAndFewSamplesCannotTell) {
  // 1.00 and 1.01 ms medians with samples spread +-2 %: the ranks interleave.
  const auto close = document_of({{"cpu_fused", json::object(), "gaussian", 3, 1.00},
                                  {"opencv_gaussianblur", json::object(), "gaussian", 3, 1.01}},
                                 kSequential);
  const WinnersTable noisy = find_winners(close, ok_points(close));
  EXPECT_EQ(noisy.rows[0].margin, WinMargin::within_noise) << noisy.rows[0].test.p_value;
  EXPECT_GE(noisy.rows[0].test.p_value, 0.05);

  // Three samples each, far apart: p = 0.1 at best, so no verdict is possible at 0.05.
  const auto few = document_of({{"cpu_fused", json::object(), "gaussian", 3, 1.0, 3},
                                {"opencv_gaussianblur", json::object(), "gaussian", 3, 9.0, 3}},
                               kSequential);
  const WinnersTable table = find_winners(few, ok_points(few));
  EXPECT_EQ(table.rows[0].margin, WinMargin::too_few_samples);
  EXPECT_DOUBLE_EQ(table.rows[0].test.p_value, 0.1);
}

TEST(Winners, AlonePointHasNoRunnerUpAndOneImplementationRanksItsConfigurations) {
  const auto alone = document_of({{"cpu_fused", json::object(), "gaussian", 3, 1.0}}, kSequential);
  const WinnersTable one = find_winners(alone, ok_points(alone));
  EXPECT_EQ(one.rows[0].runner_up, nullptr);
  EXPECT_EQ(one.rows[0].margin, WinMargin::alone);
  EXPECT_FALSE(one.rows[0].runner_up_ratio.has_value());

  const auto sweep = document_of({{"openmp", {{"threads", 1}}, "gaussian", 3, 4.0},
                                  {"openmp", {{"threads", 2}}, "gaussian", 3, 2.0}},
                                 kSequential);
  const WinnersTable table = find_winners(sweep, ok_points(sweep));
  ASSERT_NE(table.rows[0].runner_up, nullptr);
  EXPECT_EQ(table.rows[0].runner_up->params["threads"], 1);
  EXPECT_DOUBLE_EQ(*table.rows[0].runner_up_ratio, 2.0);
}

TEST(Winners, MissingBaselineRatioSaysWhy) {
  const auto skipped =
      document_of({{"sequential", json::object(), "gaussian", 3, 0.0, 10, "skipped"},
                   {"cpu_fused", json::object(), "gaussian", 3, 1.0}},
                  kSequential);
  const WinnersTable table = find_winners(skipped, ok_points(skipped));
  EXPECT_FALSE(table.rows[0].baseline_ratio.has_value());
  EXPECT_EQ(table.rows[0].baseline_gap, "baseline skipped");

  const auto absent = document_of({{"cpu_fused", json::object(), "gaussian", 3, 1.0}}, kSequential);
  EXPECT_EQ(find_winners(absent, ok_points(absent)).rows[0].baseline_gap, "baseline not run");
  // The baseline was measured but the view left it out: the ratio is still the file's.
  const auto measured = document_of({{"sequential", json::object(), "gaussian", 3, 8.0},
                                     {"cpu_fused", json::object(), "gaussian", 3, 1.0}},
                                    kSequential);
  const std::vector<const Record*> fused_only{&measured.file.records[1]};
  EXPECT_DOUBLE_EQ(*find_winners(measured, fused_only).rows[0].baseline_ratio, 8.0);
}

TEST(Winners, EveryProblemIsARowAndConstantFieldsAreNamed) {
  const auto document = document_of({{"cpu_fused", json::object(), "gaussian", 3, 1.0},
                                     {"cpu_fused", json::object(), "gaussian", 7, 2.0},
                                     {"cpu_fused", json::object(), "box", 3, 1.0, 10, "ok", 128}},
                                    kSequential);
  const WinnersTable table = find_winners(document, ok_points(document));
  EXPECT_EQ(table.rows.size(), 3u);
  EXPECT_EQ(table.constant, (std::vector<std::string>{"border", "output", "machine"}));
  EXPECT_FALSE(table.several_machines);
}

TEST(Winners, EachMachineRanksItsOwnPoints) {
  auto document = document_of({{"cpu_fused", json::object(), "gaussian", 3, 1.0},
                               {"opencv_gaussianblur", json::object(), "gaussian", 3, 2.0},
                               {"cpu_fused", json::object(), "gaussian", 3, 5.0},
                               {"opencv_gaussianblur", json::object(), "gaussian", 3, 4.0}},
                              kSequential);
  for (size_t i : {2u, 3u}) {
    document.file.records[i].machine->hostname = "other";
    document.file.records[i].machine->host_id = "h2";
  }
  attach_machine_identities(document.file);
  const WinnersTable table = find_winners(document, ok_points(document));
  ASSERT_EQ(table.rows.size(), 2u);  // never the first machine's 1 ms against the other's 4 ms
  EXPECT_TRUE(table.several_machines);
  EXPECT_EQ(table.rows[0].winner->implementation, "cpu_fused");
  EXPECT_EQ(table.rows[1].winner->implementation, "opencv_gaussianblur");
  EXPECT_DOUBLE_EQ(*table.rows[1].runner_up_ratio, 5.0 / 4.0);
  std::ostringstream md;
  write_winners(table, FlatFormat::md, md);
  EXPECT_NE(md.str().find("| machine | fastest |"), std::string::npos) << md.str();
}

TEST(WinnersPivot, KernelSizeRowsPerKernelTypeWithOneColumnPerImplementation) {
  const auto document = document_of({{"openmp", {{"threads", 1}}, "gaussian", 7, 9.0},
                                     {"openmp", {{"threads", 2}}, "gaussian", 7, 5.0},
                                     {"cpu_fused", json::object(), "gaussian", 7, 1.0},
                                     {"openmp", {{"threads", 2}}, "gaussian", 3, 3.0},
                                     {"cpu_fused", json::object(), "gaussian", 3, 0.5},
                                     {"openmp", {{"threads", 2}}, "box", 3, 2.0},
                                     {"opencv_gaussianblur", json::object(), "gaussian", 3, 0.4}},
                                    kSequential);
  const WinnersPivot pivot = pivot_winners(ok_points(document), "kernel.size");
  EXPECT_EQ(pivot.implementations,
            (std::vector<std::string>{"openmp", "cpu_fused", "opencv_gaussianblur"}));
  ASSERT_EQ(pivot.groups.size(), 2u);  // gaussian, box
  const PivotGroup& gaussian = pivot.groups[0];
  ASSERT_EQ(gaussian.labels.size(), 1u);
  EXPECT_EQ(gaussian.labels[0], (std::pair<std::string, std::string>{"kernel.type", "gaussian"}));
  ASSERT_EQ(gaussian.rows.size(), 2u);
  EXPECT_EQ(gaussian.rows[0].value, "3");  // in the field's order, not the records'
  EXPECT_EQ(gaussian.rows[1].value, "7");
  const PivotRow& k7 = gaussian.rows[1];
  EXPECT_DOUBLE_EQ(k7.cells[0].best->median_ms(), 5.0);  // openmp's fastest configuration
  EXPECT_EQ(k7.cells[2].best, nullptr);                  // no GaussianBlur point at K = 7
  EXPECT_EQ(k7.winner, 1u);
  EXPECT_EQ(k7.runner_up, 0u);
  EXPECT_DOUBLE_EQ(*k7.runner_up_ratio, 5.0);
  EXPECT_EQ(gaussian.rows[0].winner, 2u);
  EXPECT_EQ(pivot.groups[1].rows.size(), 1u);
}

TEST(WinnersPivot, AParamsFieldSplitsTheRowsOfEachProblem) {
  const auto document = document_of({{"openmp", {{"threads", 1}}, "gaussian", 3, 4.0},
                                     {"openmp", {{"threads", 2}}, "gaussian", 3, 2.0},
                                     {"cpu_fused", {{"threads", 1}}, "gaussian", 3, 1.0},
                                     {"cpu_fused", {{"threads", 2}}, "gaussian", 3, 0.6},
                                     {"sequential", json::object(), "gaussian", 3, 40.0}},
                                    kSequential);
  const WinnersPivot pivot = pivot_winners(ok_points(document), "params.threads");
  ASSERT_EQ(pivot.groups.size(), 1u);
  const auto& rows = pivot.groups[0].rows;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].value, "1");
  EXPECT_EQ(rows[1].value, "2");
  EXPECT_EQ(rows[2].value, "-");  // sequential has no threads
  EXPECT_DOUBLE_EQ(*rows[1].runner_up_ratio, 2.0 / 0.6);
}

TEST(WinnersPivot, RowsNeverMergeTwoProblems) {
  // Two images of one size: taking the size out would put both in one row; each keeps its group.
  auto a = Point{"cpu_fused", json::object(), "gaussian", 3, 1.0};
  auto b = Point{"cpu_fused", json::object(), "gaussian", 3, 3.0};
  auto document = document_of({a, b}, kSequential);
  document.file.records[1].image.name = "photo-c1";
  document.file.records[1].image.source = "photo.png";
  const WinnersPivot by_kernel = pivot_winners(ok_points(document), "kernel.size");
  EXPECT_EQ(by_kernel.groups.size(), 2u);
  // Same source and size, two names (a file matched twice): one row would hold two problems.
  document.file.records[1].image.source = "generated:noise seed=1";
  const WinnersPivot by_size = pivot_winners(ok_points(document), "image.size");
  ASSERT_EQ(by_size.groups.size(), 2u);
  for (const auto& group : by_size.groups) EXPECT_EQ(group.rows.size(), 1u);
}

TEST(WinnersPivot, FieldsThatCannotPivotAreRefused) {
  const auto document =
      document_of({{"cpu_fused", json::object(), "gaussian", 3, 1.0}}, kSequential);
  const auto points = ok_points(document);
  try {
    pivot_winners(points, "kernel.sise");
    FAIL() << "expected an error";
  } catch (const ResultsError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("unknown field 'kernel.sise' (did you mean "
                        "'kernel.size'?)"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(pivot_winners(points, "implementation"), ResultsError);
  EXPECT_THROW(pivot_winners(points, "params.tile"), ResultsError);  // no point has it
}

TEST(WinnersWriter, CsvHasEveryColumnAndMdSaysTheConstantsOnce) {
  const auto document = document_of({{"sequential", json::object(), "gaussian", 3, 40.0},
                                     {"cpu_fused", {{"threads", 2}}, "gaussian", 3, 1.0},
                                     {"opencv_gaussianblur", {{"threads", 2}}, "gaussian", 3, 1.5}},
                                    kSequential);
  const WinnersTable table = find_winners(document, ok_points(document));
  std::ostringstream csv;
  write_winners(table, FlatFormat::csv, csv);
  EXPECT_EQ(csv.str(),
            "image,kernel,border,output,machine,implementation,configuration,median_ms,runner_up,"
            "runner_up_configuration,runner_up_median_ms,runner_up_ratio,p_value,difference,"
            "baseline,baseline_ratio,baseline_note\n"
            "noise-64x64-c1-s1,gaussian3,replicate,u8,Test CPU (box),cpu_fused,threads=2,1,"
            "opencv_gaussianblur,threads=2,1.5,1.5," +
                format_exact(table.rows[0].test.p_value) + ",significant,sequential,40,\n");
  std::ostringstream md;
  write_winners(table, FlatFormat::md, md);
  const std::string text = md.str();
  EXPECT_NE(text.find("Every problem: image noise-64x64-c1-s1, kernel gaussian3, border "
                      "replicate, output u8.\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("| fastest | median ms | runner-up (median ms) | ratio | difference | vs "
                      "sequential |"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("| cpu_fused | 1.000 | opencv_gaussianblur (1.500) | 1.50x | significant (p = "),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("| 40.0x |"), std::string::npos) << text;
}

TEST(WinnersWriter, PivotMdBoldsTheFastestAndMarksMissingCells) {
  const auto document = document_of({{"openmp", json::object(), "gaussian", 3, 3.0},
                                     {"cpu_fused", json::object(), "gaussian", 3, 0.5},
                                     {"openmp", json::object(), "box", 3, 2.0}},
                                    kSequential);
  std::ostringstream md;
  write_pivot(pivot_winners(ok_points(document), "kernel.size"), FlatFormat::md, md);
  const std::string text = md.str();
  EXPECT_NE(text.find("## kernel.type gaussian\n\n| kernel.size | openmp ms | cpu_fused ms | "
                      "fastest | ratio | difference |\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("| 3 | 3.000 | **0.5000** | cpu_fused | 6.00x |"), std::string::npos) << text;
  EXPECT_NE(text.find("| 3 | **2.000** | - | openmp |  | only point |"), std::string::npos) << text;
}

TEST(SpeedupGap, SaysWhetherTheBaselineWasSkippedFailedFilteredOrNotRun) {
  const auto document =
      document_of({{"sequential", json::object(), "gaussian", 3, 0.0, 10, "failed"},
                   {"cpu_fused", json::object(), "gaussian", 3, 1.0}},
                  kSequential);
  const auto& records = document.file.records;
  EXPECT_EQ(missing_speedup_reason(records[1], records, kSequential, false), "baseline failed");
  const std::vector<Record> alone{records[1]};
  EXPECT_EQ(missing_speedup_reason(records[1], alone, kSequential, false), "baseline not run");
  EXPECT_EQ(missing_speedup_reason(records[1], alone, kSequential, true), "baseline filtered out");
  EXPECT_EQ(missing_speedup_reason(records[1], alone, json::object(), true), "");
  EXPECT_EQ(baseline_words({{"implementation", "openmp"}, {"params", {{"threads", 1}}}}),
            "openmp threads=1");
}

}  // namespace
}  // namespace convlab
