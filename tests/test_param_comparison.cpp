// Configurations of one implementation against each other (query/param_comparison.hpp) on
// records made by hand: the verdict `convlab compare` gives on constructed samples, the groups,
// ratios, speedups and efficiencies, the flags, the runs' conditions, --against and the errors;
// then the writer's md and csv; and the conditions of the runs a set of records comes from
// (query/mixed_runs.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "html/figure_html.hpp"
#include "measure/mann_whitney.hpp"
#include "query/mixed_runs.hpp"
#include "query/param_comparison.hpp"
#include "query/point_flags.hpp"
#include "query/results_document.hpp"
#include "query/winners.hpp"
#include "store/derive.hpp"
#include "tables/param_comparison_writer.hpp"
#include "tables/winners_writer.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

// `count` samples spread evenly over +-`spread` (a fraction) around `median`.
std::vector<double> samples_around(double median, int count = 10, double spread = 0.02) {
  std::vector<double> samples;
  for (int i = 0; i < count; ++i)
    samples.push_back(median * (1 - spread + 2 * spread * i / std::max(1, count - 1)));
  return samples;
}

TEST(ChangeVerdict, SeparatedSamplesAreFasterOrSlowerBeyondTheThreshold) {
  const auto a = samples_around(2.0), faster = samples_around(1.0), slower = samples_around(3.0);
  const MannWhitney down = mann_whitney_u(a, faster);
  ASSERT_LT(down.p_value, 0.001);
  EXPECT_EQ(change_verdict(0.5, down, 10, 10, 0.05, 0.05), ChangeVerdict::faster);
  EXPECT_EQ(change_verdict(1.5, mann_whitney_u(a, slower), 10, 10, 0.05, 0.05),
            ChangeVerdict::slower);
  // Separated but within the threshold: the same, whatever p says.
  const auto near = samples_around(2.04, 10, 0.001), tight = samples_around(2.0, 10, 0.001);
  const MannWhitney close = mann_whitney_u(tight, near);
  ASSERT_LT(close.p_value, 0.05);
  EXPECT_EQ(change_verdict(1.02, close, 10, 10, 0.05, 0.05), ChangeVerdict::same);
  EXPECT_STREQ(to_string(ChangeVerdict::same), "same");
}

TEST(ChangeVerdict, OverlappingSamplesAreWithinNoiseAndFewSamplesCannotTell) {
  // 1.0 and 1.2 ms medians with samples spread +-50 %: ranks interleave, p well above 0.05.
  const MannWhitney overlap =
      mann_whitney_u(samples_around(1.0, 10, 0.5), samples_around(1.2, 10, 0.5));
  ASSERT_GE(overlap.p_value, 0.05);
  EXPECT_EQ(change_verdict(1.2, overlap, 10, 10, 0.05, 0.05), ChangeVerdict::same_within_noise);
  EXPECT_STREQ(to_string(ChangeVerdict::same_within_noise), "same (within noise)");
  // Three against three, far apart: p = 0.1 at best, so no verdict at 0.05.
  const MannWhitney few = mann_whitney_u({1, 1.1, 1.2}, {5, 5.1, 5.2});
  EXPECT_DOUBLE_EQ(few.p_value, 0.1);
  EXPECT_EQ(change_verdict(5.0, few, 3, 3, 0.05, 0.05), ChangeVerdict::same_too_few_samples);
  // The same samples at alpha 0.2 are enough.
  EXPECT_EQ(change_verdict(5.0, few, 3, 3, 0.05, 0.2), ChangeVerdict::slower);
}

struct Point {
  std::string implementation;
  json params;
  int k;
  double median;
  std::string run = "r1";
  double cv = 0.01;
  double spread = 0.02;
};

json record_json(const Point& p) {
  const auto samples = samples_around(p.median, 10, p.spread);
  return {{"key", p.implementation + p.params.dump() + std::to_string(p.k)},
          {"run_id", p.run},
          {"implementation", p.implementation},
          {"family", "cpu"},
          {"params", p.params},
          {"image",
           {{"name", "noise-64x64-c1-s1"},
            {"source", "generated:noise seed=1"},
            {"sha256", "ab"},
            {"width", 64},
            {"height", 64},
            {"channels", 1}}},
          {"kernel",
           {{"name", "gaussian" + std::to_string(p.k)},
            {"type", "gaussian"},
            {"size", p.k},
            {"separable", true},
            {"parameters", json::object()}}},
          {"border", "replicate"},
          {"output", "u8"},
          {"status", "ok"},
          {"reason", ""},
          {"timing",
           {{"samples_ms", samples},
            {"stats", {{"median", p.median}, {"min", samples.front()}, {"cv", p.cv}}},
            {"repetitions", samples.size()}}},
          {"derived", json::object()},
          {"machine", {{"cpu_model", "Test CPU"}, {"hostname", "box"}, {"host_id", "h1"}}}};
}

RunBlock run_block(const std::string& id, double load, const std::string& commit = "c0ffee1234",
                   const std::string& build = "b1") {
  RunBlock run;
  run.id = id;
  run.conditions = RunConditions{std::vector<double>{load, load, load}, std::nullopt, std::nullopt};
  run.git = GitFacts{commit, false, std::nullopt};
  run.build = {{"id", build}};
  return run;
}

ResultsDocument document_of(const std::vector<Point>& points,
                            std::vector<RunBlock> runs = {run_block("r1", 0.1)}) {
  ResultsFile file;
  file.experiment = {{"name", "t"},
                     {"baseline", {{"implementation", "sequential"}, {"params", json::object()}}}};
  file.runs = std::move(runs);
  for (const auto& point : points) file.records.push_back(record_from_json(record_json(point)));
  derive_metrics(file);
  return results_document_of("t/results.json", std::move(file));
}

std::vector<const Record*> ok_points(const ResultsDocument& document) {
  std::vector<const Record*> points;
  for (const auto& record : document.file.records)
    if (record.usable()) points.push_back(&record);
  return points;
}

json omp(int threads, const std::string& schedule) {
  return {{"threads", threads}, {"schedule", schedule}};
}

// openmp with 1, 2 and 4 threads and two schedules on a 3x3 Gaussian; sequential alone.
std::vector<Point> thread_sweep() {
  return {{"sequential", json::object(), 3, 8.0},     {"openmp", omp(1, "static"), 3, 4.0},
          {"openmp", omp(2, "static"), 3, 2.5},       {"openmp", omp(4, "static"), 3, 1.6},
          {"openmp", omp(1, "dynamic"), 3, 4.2},      {"openmp", omp(2, "dynamic"), 3, 2.1},
          {"openmp", omp(4, "dynamic"), 3, 4.3, "r1"}};
}

TEST(ParamComparison, EachValueAgainstTheFirstPerProblemImplementationAndOtherParams) {
  const auto document = document_of(thread_sweep());
  const ParamComparison comparison =
      compare_param_values(ok_points(document), document.file.runs, "params.threads");
  EXPECT_TRUE(comparison.threads);
  ASSERT_EQ(comparison.groups.size(), 2u);  // openmp static and dynamic; sequential has no threads
  const ParamGroup& statik = comparison.groups[0];
  EXPECT_EQ(statik.reference_value, "1");
  ASSERT_EQ(statik.rows.size(), 3u);
  EXPECT_TRUE(statik.rows[0].reference);
  EXPECT_FALSE(statik.rows[0].ratio.has_value());
  EXPECT_DOUBLE_EQ(*statik.rows[1].ratio, 2.5 / 4.0);
  EXPECT_EQ(statik.rows[1].verdict, ChangeVerdict::faster);
  EXPECT_LT(statik.rows[1].test.p_value, 0.001);
  // Speedup and efficiency from the derived metrics: T(1) / T(P), T(1) / (P T(P)).
  EXPECT_DOUBLE_EQ(*statik.rows[2].speedup, 4.0 / 1.6);
  EXPECT_DOUBLE_EQ(*statik.rows[2].efficiency, 4.0 / (4 * 1.6));
  EXPECT_TRUE(statik.rows[2].flags.empty());
  const ParamGroup& dynamic = comparison.groups[1];
  EXPECT_EQ(dynamic.rows[2].verdict, ChangeVerdict::same);  // 4.3 against 4.2: within 5 %
  bool configuration_named = false;
  for (const auto& [part, value] : dynamic.parts)
    configuration_named =
        configuration_named || (part == "configuration" && value == "schedule=dynamic");
  EXPECT_TRUE(configuration_named);
  EXPECT_FALSE(comparison.runs.mixed());
}

TEST(ParamComparison, AgainstAnotherValueAndATextParam) {
  const auto document = document_of(thread_sweep());
  ParamComparisonOptions options;
  options.against = "2";
  const ParamComparison by_two =
      compare_param_values(ok_points(document), document.file.runs, "params.threads", options);
  const ParamGroup& statik = by_two.groups[0];
  EXPECT_FALSE(statik.rows[1].ratio.has_value());
  EXPECT_TRUE(statik.rows[1].reference);
  EXPECT_DOUBLE_EQ(*statik.rows[0].ratio, 4.0 / 2.5);
  EXPECT_EQ(statik.rows[0].verdict, ChangeVerdict::slower);

  // Schedules: static first, as the points came; one group per thread count.
  const ParamComparison schedules =
      compare_param_values(ok_points(document), document.file.runs, "params.schedule");
  EXPECT_FALSE(schedules.threads);
  ASSERT_EQ(schedules.groups.size(), 3u);
  EXPECT_EQ(schedules.groups[2].rows[0].value, "static");
  EXPECT_DOUBLE_EQ(*schedules.groups[2].rows[1].ratio, 4.3 / 1.6);
  EXPECT_FALSE(schedules.groups[0].rows[1].speedup.has_value());
}

TEST(ParamComparison, EfficiencyAboveOneAndVeryNoisyPointsAreFlagged) {
  auto points = thread_sweep();
  points[2].median = 1.6;  // 2 threads at 1.6 ms against 4.0 with one: efficiency 1.25
  points[3].cv = 0.62;
  points[3].spread = 0.6;
  const auto document = document_of(points);
  const ParamComparison comparison =
      compare_param_values(ok_points(document), document.file.runs, "params.threads");
  const ParamGroup& statik = comparison.groups[0];
  EXPECT_EQ(statik.rows[1].flags, std::vector<PointFlag>{PointFlag::efficiency_above_one});
  EXPECT_EQ(statik.rows[2].flags, std::vector<PointFlag>{PointFlag::very_noisy});
  EXPECT_EQ(flag_words(PointFlag::efficiency_above_one, *statik.rows[1].point),
            "parallel efficiency 1.25 is above 1: the one-thread time was probably slowed "
            "(load, clock)");
  EXPECT_EQ(flag_words(PointFlag::very_noisy, *statik.rows[2].point),
            "CV 62 % is above 50 %: the median is unreliable");

  std::ostringstream md;
  write_param_comparison(comparison, FlatFormat::md, md);
  const std::string text = md.str();
  EXPECT_NE(text.find("| 2 | 1.600 | 1.0 | 0.400x | faster (p = "), std::string::npos) << text;
  EXPECT_NE(text.find("| 2.50x | 1.25\u2020 |"), std::string::npos) << text;
  EXPECT_NE(text.find("| 4 | 1.600\u2021 | 62 |"), std::string::npos) << text;
  EXPECT_NE(text.find("\n\u2020 parallel efficiency above 1"), std::string::npos) << text;
  EXPECT_NE(text.find("\n\u2021 coefficient of variation above 50"), std::string::npos) << text;
  EXPECT_EQ(text.find("\u00a7"), std::string::npos) << text;  // one run: no conditions mark
}

TEST(ParamComparison, TheNotebooksHoverCarriesTheFlags) {
  auto points = thread_sweep();
  points[2].median = 1.6;  // efficiency 1.25
  const auto document = document_of(points);
  const auto rows = record_rows(document.file.records[2]);
  const auto flag =
      std::find_if(rows.begin(), rows.end(), [](const auto& row) { return row.first == "Flag"; });
  ASSERT_NE(flag, rows.end());
  EXPECT_EQ(flag->second,
            "\u2020 parallel efficiency 1.25 is above 1: the one-thread time was "
            "probably slowed (load, clock)");
  const auto plain = record_rows(document.file.records[1]);  // one thread, CV 1 %: no flag
  EXPECT_EQ(std::count_if(plain.begin(), plain.end(),
                          [](const auto& row) { return row.first == "Flag"; }),
            0);
}

TEST(ParamComparison, RatiosOfPointsFromRunsUnderDifferentConditionsAreMarked) {
  // The trial's case: one thread measured under load, two threads on an idle machine.
  auto points = thread_sweep();
  points[1].run = "loaded";
  const auto document = document_of(points, {run_block("loaded", 2.3), run_block("r1", 0.2)});
  const ParamComparison comparison =
      compare_param_values(ok_points(document), document.file.runs, "params.threads");
  EXPECT_TRUE(comparison.runs.load_differs);
  const ParamGroup& statik = comparison.groups[0];
  EXPECT_TRUE(statik.rows[1].conditions_differ);
  EXPECT_FALSE(comparison.groups[1].rows[1].conditions_differ);  // dynamic: one run
  std::ostringstream md;
  write_param_comparison(comparison, FlatFormat::md, md);
  const std::string text = md.str();
  EXPECT_NE(text.find("| 0.625x\u00a7 |"), std::string::npos) << text;
  EXPECT_NE(text.find("\u00a7 the point and its reference"), std::string::npos) << text;
  EXPECT_NE(text.find("Runs under different conditions (load average at the start differs by "
                      "more than one core): loaded (load 2.30, commit c0ffee1, build b1, 1 "
                      "record); r1 (load 0.20, commit c0ffee1, build b1, 5 records)."),
            std::string::npos)
      << text;

  std::ostringstream csv;
  write_param_comparison(comparison, FlatFormat::csv, csv);
  std::istringstream lines(csv.str());
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "image,kernel,border,output,machine,implementation,configuration,params.threads,"
            "median_ms,cv,reference,ratio,p_value,verdict,speedup,efficiency,flags,conditions");
  EXPECT_NE(csv.str().find(",0.625,"), std::string::npos) << csv.str();
  EXPECT_NE(csv.str().find(",faster,1.6,0.8,,different\n"), std::string::npos) << csv.str();
}

TEST(ParamComparison, MistakesAreRefusedWithWhatThereIs) {
  const auto document = document_of(thread_sweep());
  const auto points = ok_points(document);
  const auto message = [&](const std::string& field, std::optional<std::string> against) {
    ParamComparisonOptions options;
    options.against = against;
    try {
      compare_param_values(points, document.file.runs, field, options);
    } catch (const ResultsError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("kernel.size", {}).find("'kernel.size' is not a params field"),
            std::string::npos);
  EXPECT_EQ(message("params.tile", {}),
            "--compare: no ok point has the field 'params.tile' (the points' params: schedule, "
            "threads)");
  EXPECT_EQ(message("params.threads", "3"),
            "--against 3: no point has params.threads = 3 (its values: 1, 2, 4)");
  // One thread count only: nothing to compare, and the message says what there is.
  const auto single = document_of({{"openmp", omp(2, "static"), 3, 1.0}});
  EXPECT_THROW(compare_param_values(ok_points(single), single.file.runs, "params.threads"),
               ResultsError);
}

TEST(MixedRuns, LoadsMoreThanOneCoreApartCommitsAndBuildsMix) {
  const auto document = document_of(
      {{"openmp", omp(1, "static"), 3, 4.0, "a"}, {"openmp", omp(2, "static"), 3, 2.0, "b"}},
      {run_block("a", 0.5), run_block("b", 1.4), run_block("unused", 9.0)});
  const auto points = ok_points(document);
  const MixedRuns close = mixed_runs(points, document.file.runs);
  ASSERT_EQ(close.runs.size(), 2u);  // the run that measured nothing shown is not named
  EXPECT_FALSE(close.mixed());       // 0.9 apart: within one core
  EXPECT_EQ(mixed_runs_note(close), "");

  const auto far = document_of(
      {{"openmp", omp(1, "static"), 3, 4.0, "a"}, {"openmp", omp(2, "static"), 3, 2.0, "b"}},
      {run_block("a", 0.3), run_block("b", 1.4, "d1f834dabc", "b2")});
  const MixedRuns mixed = mixed_runs(ok_points(far), far.file.runs);
  EXPECT_TRUE(mixed.load_differs);
  EXPECT_TRUE(mixed.commit_differs);
  EXPECT_TRUE(mixed.build_differs);
  EXPECT_EQ(mixed_runs_note(mixed),
            "Runs under different conditions (load average at the start differs by more than one "
            "core; other commits; other builds): a (load 0.30, commit c0ffee1, build b1, 1 "
            "record); b (load 1.40, commit d1f834d, build b2, 1 record).");
  // One record: one run, never mixed; a run block without conditions differs from nothing.
  EXPECT_FALSE(mixed_runs({points[0]}, far.file.runs).mixed());
  std::vector<RunBlock> unknown = far.file.runs;
  unknown[0].conditions.reset();
  unknown[0].git.reset();
  unknown[0].build = json::object();
  unknown[1].build = json::object();
  EXPECT_FALSE(mixed_runs(ok_points(far), unknown).mixed());
}

// A machine without a machine id records host_id null (the GPU machine does): read as unknown.
TEST(MixedRuns, AHostWithoutAMachineIdIsNoError) {
  std::vector<RunBlock> runs{run_block("a", 0.3), run_block("b", 1.4, "d1f834dabc", "b2")};
  for (auto& run : runs)
    run.host = {{"cpu_model", "Test CPU"}, {"hostname", "vm"}, {"host_id", nullptr}};
  const auto document = document_of(
      {{"openmp", omp(1, "static"), 3, 4.0, "a"}, {"openmp", omp(2, "static"), 3, 2.0, "b"}}, runs);
  const MixedRuns mixed = mixed_runs(ok_points(document), document.file.runs);
  EXPECT_TRUE(mixed.load_differs);
}

TEST(MixedRuns, OnlyRunsOfOneHostAreComparedAndTheNoteNamesSixRunsAtMost) {
  // Two hosts: their loads and builds differ by nature, and tables keep them apart.
  std::vector<RunBlock> runs{run_block("a", 0.1), run_block("b", 3.0, "d1f834dabc", "b2")};
  runs[0].host = {{"cpu_model", "Test CPU"}, {"hostname", "box"}, {"host_id", "h1"}};
  runs[1].host = {{"cpu_model", "Test CPU"}, {"hostname", "other"}, {"host_id", "h2"}};
  const auto two_hosts = document_of(
      {{"openmp", omp(1, "static"), 3, 4.0, "a"}, {"openmp", omp(2, "static"), 3, 2.0, "b"}}, runs);
  EXPECT_FALSE(mixed_runs(ok_points(two_hosts), two_hosts.file.runs).mixed());
  runs[1].host = runs[0].host;
  const auto one_host = document_of(
      {{"openmp", omp(1, "static"), 3, 4.0, "a"}, {"openmp", omp(2, "static"), 3, 2.0, "b"}}, runs);
  EXPECT_TRUE(mixed_runs(ok_points(one_host), one_host.file.runs).load_differs);

  std::vector<Point> points;
  std::vector<RunBlock> many;
  for (int i = 0; i < 8; ++i) {
    const std::string id = "r" + std::to_string(i);
    points.push_back({"openmp", omp(1 + i, "static"), 3, 4.0, id});
    many.push_back(run_block(id, i * 0.5));
  }
  const auto sharded = document_of(points, many);
  const std::string note = mixed_runs_note(mixed_runs(ok_points(sharded), sharded.file.runs));
  EXPECT_NE(note.find("; r5 (load 2.50, "), std::string::npos) << note;
  EXPECT_EQ(note.find("r6 ("), std::string::npos) << note;
  EXPECT_NE(note.find("1 record); and 2 more runs."), std::string::npos) << note;
}

TEST(MixedRuns, WinnersMarkARatioOfTwoRunsAndSayWhichRuns) {
  const auto document = document_of(
      {{"sequential", json::object(), 3, 8.0, "a"}, {"openmp", omp(2, "static"), 3, 2.0, "b"}},
      {run_block("a", 3.0), run_block("b", 0.0)});
  const WinnersTable table = find_winners(document, ok_points(document));
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_TRUE(table.rows[0].conditions_differ);
  std::ostringstream md;
  write_winners(table, FlatFormat::md, md);
  EXPECT_NE(md.str().find("| 4.00x\u00a7 |"), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("\nRuns under different conditions (load average"), std::string::npos)
      << md.str();
}

}  // namespace
}  // namespace convlab
