// The end-of-run summary: skipped points folded by reason, plain decimal numbers, the counts line.
#include <gtest/gtest.h>

#include <sstream>

#include "core/number_text.hpp"
#include "tables/summary_table.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

json record(const std::string& implementation, const std::string& status, const std::string& reason,
            double median_ms) {
  json r{{"implementation", implementation},
         {"params", json::object()},
         {"image", {{"name", "noise-64x64-c1-s1"}}},
         {"kernel", {{"name", "gaussian7"}}},
         {"border", "replicate"},
         {"output", "u8"},
         {"status", status},
         {"reason", reason},
         {"timing", nullptr},
         {"derived", json::object()}};
  if (status != "skipped") r["timing"] = {{"stats", {{"median", median_ms}}}};
  return r;
}

TEST(SummaryTable, SkippedPointsAreOneLinePerReasonMostFrequentFirst) {
  std::vector<Record> records{record_from_json(record("sequential", "ok", "", 13594.2))};
  for (int i = 0; i < 45; ++i)
    records.push_back(record_from_json(record("cuda_global", "skipped", "no CUDA device", 0)));
  records.push_back(record_from_json(record("npp", "skipped", "NPP not found at build time", 0)));
  records.push_back(record_from_json(record("npp", "skipped", "NPP not found at build time", 0)));
  std::ostringstream out;
  print_summary_table(records, RunBlock{}, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("45 points skipped: no CUDA device\n2 points skipped: NPP not found at build "
                      "time\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("| cuda_global"), std::string::npos) << text;
  EXPECT_NE(
      text.find("| sequential | - | noise-64x64-c1-s1 | gaussian7 | replicate | u8 | 13594 |"),
      std::string::npos)
      << text;
}

TEST(SummaryTable, TwoVersionsOfOneSourceAreToldApartByTheirShortHash) {
  json a = record("mine", "ok", "", 2.0);
  json b = record("mine", "ok", "", 1.0);
  a["source"] = {{"path", "k.c"}, {"sha256", "aaaaaaaaaaaaaaaa"}};
  b["source"] = {
      {"path", "k.c"}, {"sha256", "bbbbbbbbbbbbbbbb"}, {"snapshot_sha256", "cccccccccccccccc"}};
  std::ostringstream two, one;
  print_summary_table({record_from_json(a), record_from_json(b)}, RunBlock{}, two);
  EXPECT_NE(two.str().find("| params | source |"), std::string::npos) << two.str();
  EXPECT_NE(two.str().find(" aaaaaaaaaaaa |"), std::string::npos) << two.str();
  EXPECT_NE(two.str().find(" cccccccccccc |"), std::string::npos) << two.str();  // the snapshot's
  print_summary_table({record_from_json(a), record_from_json(a)}, RunBlock{}, one);
  EXPECT_EQ(one.str().find("source"), std::string::npos) << one.str();
}

TEST(SummaryTable, OnlySkippedPointsGiveNoEmptyTable) {
  std::ostringstream out;
  print_summary_table({record_from_json(record("npp", "skipped", "no CUDA device", 0))}, RunBlock{},
                      out);
  EXPECT_EQ(out.str(), "1 point skipped: no CUDA device\n");
}

TEST(SummaryTable, NoisyPointsAreCountedAndTheWorstListed) {
  std::vector<Record> records;
  for (double cv : {0.02, 0.35, 0.11, 0.10, 0.5, 0.2, 0.9, 0.15}) {
    records.push_back(record_from_json(record("openmp", "ok", "", 1.0)));
    records.back().timing->compute.stats.cv = cv;
  }
  records.push_back(record_from_json(record("cuda_global", "skipped", "no CUDA device", 0)));
  std::ostringstream out;
  print_noisy_points(records, out, 0.10, 3);
  // Above 50 % a point is flagged (point_flags.hpp); exactly 50 % is not.
  EXPECT_EQ(out.str(),
            "\n6 of 8 measured points are noisy (CV > 10 %); the worst:\n"
            "\u2021 CV 90 %  openmp - | noise-64x64-c1-s1 | gaussian7 | replicate | u8\n"
            "  CV 50 %  openmp - | noise-64x64-c1-s1 | gaussian7 | replicate | u8\n"
            "  CV 35 %  openmp - | noise-64x64-c1-s1 | gaussian7 | replicate | u8\n"
            "\u2021 1 of them: coefficient of variation above 50 %: the samples are so spread that "
            "the median is unreliable\n");
  std::ostringstream quiet;
  print_noisy_points({records[0], records[3]}, quiet);
  EXPECT_EQ(quiet.str(), "");  // 2 % and exactly 10 % are not noisy
}

TEST(SummaryTable, AnEmptySpeedupSaysWhy) {
  RunBlock run;
  run.resolved_config = {
      {"baseline", {{"implementation", "sequential"}, {"params", json::object()}}}};
  const Record openmp = record_from_json(record("openmp", "ok", "", 2.0));
  const auto row_of = [&](const std::vector<Record>& records) {
    std::ostringstream out;
    print_summary_table(records, run, out);
    const std::string text = out.str();
    const size_t at = text.find("| openmp |");
    return at == std::string::npos ? text : text.substr(at, text.find('\n', at) - at);
  };
  EXPECT_EQ(
      row_of({record_from_json(record("sequential", "skipped", "no CUDA device", 0)), openmp}),
      "| openmp | - | noise-64x64-c1-s1 | gaussian7 | replicate | u8 | 2.000 | 0 | baseline "
      "skipped | ok |");
  EXPECT_NE(row_of({openmp}).find("| baseline not run | ok |"), std::string::npos);
  run.argv =
      std::vector<std::string>{"convlab", "run", "x.yaml", "--filter", "implementation=openmp"};
  EXPECT_NE(row_of({openmp}).find("| baseline filtered out | ok |"), std::string::npos);
  // The table of a part of the file looks for the baseline in the whole file.
  const std::vector<Record> file{record_from_json(record("sequential", "failed", "error", 1.0)),
                                 openmp};
  std::ostringstream out;
  print_summary_table({openmp}, run, out, &file);
  EXPECT_NE(out.str().find("| baseline failed | ok |"), std::string::npos) << out.str();
}

TEST(SummaryTable, AWinnersSummaryNamesTheFailedAndSkippedPointsItCannotRank) {
  const std::vector<Record> records{
      record_from_json(record("openmp", "ok", "", 2.0)),
      record_from_json(record("cpu_rows", "failed", "outside tolerance: max error 3", 1.0)),
      record_from_json(record("cuda_global", "skipped", "no CUDA device", 0)),
      record_from_json(record("cuda_shared", "skipped", "no CUDA device", 0))};
  std::ostringstream out;
  print_unranked_points(records, RunBlock{}, out);
  EXPECT_EQ(out.str(),
            "\nfailed: cpu_rows - | noise-64x64-c1-s1 | gaussian7 | replicate | u8: outside "
            "tolerance: max error 3\n2 points skipped: no CUDA device\n");
  std::ostringstream none;
  print_unranked_points({records[0]}, RunBlock{}, none);
  EXPECT_EQ(none.str(), "");
}

TEST(SummaryTable, EfficienciesAboveOneAreFlagged) {
  std::vector<Record> records;
  for (double efficiency : {0.9, 1.0, 1.31}) {
    records.push_back(record_from_json(record("openmp", "ok", "", 1.0)));
    records.back().derived.efficiency = efficiency;
  }
  std::ostringstream out;
  print_efficiency_flags(records, out);
  EXPECT_EQ(out.str(),
            "\n\u2020 1 point with a parallel efficiency above 1: P threads more than P times "
            "faster than one, usually because the one-thread time was slowed (load, clock); "
            "measure again on an idle machine:\n"
            "  efficiency 1.31  openmp - | noise-64x64-c1-s1 | gaussian7 | replicate | u8\n");
  std::ostringstream none;
  print_efficiency_flags({records[0], records[1]}, none);
  EXPECT_EQ(none.str(), "");  // exactly 1 is not above
}

TEST(SummaryTable, CountsLine) {
  EXPECT_EQ(run_counts_line({3, 12, 45, 1, 0}),
            "kept 3 \u00b7 ran 12 \u00b7 skipped 45 \u00b7 failed 1");
  EXPECT_EQ(run_counts_line({0, 2, 0, 0, 7}),
            "kept 0 \u00b7 ran 2 \u00b7 skipped 0 \u00b7 failed 0 \u00b7 not run 7");
}

TEST(NumberText, PlainDecimalWithSignificantDigits) {
  EXPECT_EQ(format_number(13594.2, 4), "13594");
  EXPECT_EQ(format_number(13600.0, 3), "13600");
  EXPECT_EQ(format_number(2.59523, 3), "2.60");
  EXPECT_EQ(format_number(0.0027241, 4), "0.002724");
  EXPECT_EQ(format_number(0.99996, 4), "1.000");
  EXPECT_EQ(format_number(0.0, 4), "0");
}

}  // namespace
}  // namespace convlab
