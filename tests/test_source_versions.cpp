// Measurements of two versions of a user's kernel never mix (docs/own-kernels.md, "How it runs"):
// the points every reader takes (show, export, compare, figures, the notebook and the report, all
// through latest_ok_points and latest_points) are of the version the latest run read, even when
// that run measured nothing because the source was restored byte for byte to a version measured
// before.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "notebook/freshness.hpp"
#include "query/record_queries.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

json record(const std::string& run, const std::string& version, int threads, double median) {
  static int next = 0;
  ++next;
  return {{"key", "k" + std::to_string(next)},
          {"point_id", "p" + std::to_string(next)},
          {"run_id", run},
          {"implementation", "mine"},
          {"family", "cpu"},
          {"params", {{"threads", threads}}},
          {"image", {{"name", "i"}, {"sha256", "s"}, {"width", 8}, {"height", 4}, {"channels", 3}}},
          {"kernel", {{"name", "g5"}, {"size", 5}}},
          {"border", "zero"},
          {"output", "u8"},
          {"status", "ok"},
          {"source", {{"path", "k.c"}, {"sha256", version}}},
          {"timing", {{"stats", {{"median", median}}}}},
          {"derived", json::object()},
          {"machine", {{"cpu_model", "cpu"}, {"hostname", "h"}, {"host_id", "h"}}}};
}

json run(const std::string& id, const std::string& version) {
  return {{"id", id},
          {"config", {{"sources", {{{"path", "k.c"}, {"sha256", version}, {"text", "..."}}}}}}};
}

ResultsDocument document(const std::vector<json>& runs, const std::vector<json>& records) {
  ResultsFile file;
  file.experiment = {{"name", "t"}};
  for (const json& block : runs) file.runs.push_back(run_block_from_json(block));
  for (const json& r : records) file.records.push_back(record_from_json(r));
  return results_document_of("t/results.json", std::move(file));
}

TEST(SourceVersions, ARestoredSourceShowsItsOwnPointsNotTheEditedOnes) {
  // A measured at 1 and 2 threads; B (an edit) at 1 and 4; A restored: its run kept A's points
  // and measured nothing.
  const ResultsDocument results =
      document({run("r1", "aaaa"), run("r2", "bbbb"), run("r3", "aaaa")},
               {record("r1", "aaaa", 1, 8.0), record("r1", "aaaa", 2, 5.0),
                record("r2", "bbbb", 1, 2.0), record("r2", "bbbb", 4, 1.0)});
  for (const auto& points : {latest_ok_points(results), latest_points(results)}) {
    ASSERT_EQ(points.size(), 2u);
    for (const Record* point : points) {
      EXPECT_EQ(point->source->sha256, "aaaa") << point->key;
      EXPECT_EQ(point->run_id, "r1");
    }
  }
}

TEST(SourceVersions, TheLatestVersionIsCurrentAndOtherImplementationsAreUntouched) {
  json builtin = record("r1", "", 1, 3.0);
  builtin.erase("source");
  builtin["implementation"] = "sequential";
  builtin["params"] = json::object();
  const ResultsDocument results =
      document({run("r1", "aaaa"), run("r2", "bbbb")},
               {record("r1", "aaaa", 1, 8.0), builtin, record("r2", "bbbb", 1, 2.0)});
  const auto points = latest_ok_points(results);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0]->implementation, "sequential");
  ASSERT_TRUE(points[1]->source.has_value());
  EXPECT_EQ(points[1]->source->sha256, "bbbb");
}

TEST(SourceVersions, ThePageSaysHowManyRecordsOfOtherVersionsItLeavesOut) {
  const ResultsDocument results =
      document({run("r1", "aaaa"), run("r2", "bbbb"), run("r3", "aaaa")},
               {record("r1", "aaaa", 1, 8.0), record("r1", "aaaa", 2, 5.0),
                record("r2", "bbbb", 1, 2.0), record("r2", "bbbb", 4, 1.0)});
  const Freshness freshness = assess_freshness(results, nullptr);
  EXPECT_EQ(freshness.other_version_records, 2u);
  EXPECT_EQ(other_versions_words(2).rfind("2 records of other versions", 0), 0u);
  EXPECT_EQ(assess_freshness(document({run("r1", "aaaa")}, {record("r1", "aaaa", 1, 8.0)}), nullptr)
                .other_version_records,
            0u);
}

}  // namespace
}  // namespace convlab
