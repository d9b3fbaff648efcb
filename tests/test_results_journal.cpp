// The per-point journal next to results.json: appended lines are read back in order, a line cut
// short by a crash is ignored, compaction folds the journal into results.json exactly once, and
// records merge by key and by point on one machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "results/results_journal.hpp"
#include "results/results_merge.hpp"
#include "results/results_store.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Kind = JournalLine::Kind;

json machine() {
  return {{"cpu_model", "cpu"}, {"hostname", "h"}, {"host_id", "1"}};
}

json record(const std::string& key, const std::string& point_id, const std::string& run_id,
            double median = 1.0) {
  return {{"key", key},
          {"point_id", point_id},
          {"run_id", run_id},
          {"implementation", "sequential"},
          {"family", "cpu"},
          {"params", json::object()},
          {"image", {{"name", "i"}, {"width", 8}, {"height", 8}, {"channels", 1}}},
          {"kernel", {{"name", "k"}, {"size", 3}}},
          {"border", "zero"},
          {"output", "u8"},
          {"status", "ok"},
          {"timing", {{"stats", {{"median", median}}}}},
          {"machine", machine()}};
}

json run_block(const std::string& id) {
  return {{"id", id}, {"finished", nullptr}};
}

class Journal : public testing::DirectoryTest {
 protected:
  std::string results_path() const { return (dir_ / "results.json").string(); }
  std::string journal_path() const { return (dir_ / "results.journal").string(); }
};

TEST_F(Journal, LivesNextToTheResultsFile) {
  EXPECT_EQ(journal_path_for("out/results.json"), "out/results.journal");
}

TEST_F(Journal, LinesAreReadBackInOrderAndATornLastLineIsIgnored) {
  append_journal(journal_path(),
                 {{Kind::experiment, {{"name", "x"}}}, {Kind::run, run_block("r")}});
  append_journal(journal_path(), {{Kind::record, record("a", "pa", "r")}});
  {
    std::ofstream torn(journal_path(), std::ios::app);
    torn << R"({"record": {"key": "b", "po)";  // a crash in the middle of a write
  }
  auto lines = read_journal(journal_path());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].kind, Kind::experiment);
  EXPECT_EQ(lines[1].kind, Kind::run);
  EXPECT_EQ(lines[2].value["key"], "a");
  // The next append ends the torn line first: it stays one ignorable line.
  append_journal(journal_path(), {{Kind::record, record("c", "pc", "r")}});
  lines = read_journal(journal_path());
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[3].value["key"], "c");
}

TEST_F(Journal, ALineOfAnotherShapeIsRefusedNamingTheLine) {
  append_journal(journal_path(), {{Kind::run, run_block("r")}});
  testing::write_text(journal_path(), testing::read_text(journal_path()) + "{\"recods\": {}}\n");
  try {
    read_journal(journal_path());
    FAIL() << "a foreign line was accepted";
  } catch (const ResultsFileError& error) {
    EXPECT_NE(std::string(error.what()).find("results.journal: line 2"), std::string::npos)
        << error.what();
  }
  testing::write_text(journal_path(), "{\"record\": {\"key\": 3}}\n");
  EXPECT_THROW(read_journal(journal_path()), ResultsFileError);
}

TEST_F(Journal, ReadersSeeTheJournalAndCompactionFoldsItInOnce) {
  const ResultsStore store(dir_.string());
  store.append({{Kind::experiment, {{"name", "x"}}}, {Kind::run, run_block("r")}});
  store.append({{Kind::record, record("a", "pa", "r")}});
  store.append({{Kind::record, record("b", "pb", "r")}});
  EXPECT_FALSE(fs::exists(results_path()));
  EXPECT_EQ(read_results(results_path()).records.size(), 2u) << "a killed run's points are read";
  EXPECT_TRUE(store.has_journal());

  const ResultsFile compacted = store.compact();
  EXPECT_EQ(compacted.records.size(), 2u);
  EXPECT_FALSE(store.has_journal());
  const json on_disk = json::parse(testing::read_text(results_path()));
  EXPECT_EQ(on_disk["records"].size(), 2u);
  EXPECT_EQ(on_disk["run"]["id"], "r");
  EXPECT_TRUE(on_disk["records"][0]["derived"].contains("mpix_per_s")) << "derived on compaction";

  // A second run measures "a" again and adds "c"; the first run's block stays, referenced.
  store.append({{Kind::run, run_block("s")}, {Kind::record, record("a", "pa", "s", 2.0)}});
  store.append({{Kind::record, record("c", "pc", "s")}});
  const ResultsFile again = store.compact();
  ASSERT_EQ(again.records.size(), 3u);
  EXPECT_EQ(again.records[0].run_id, "s") << "replaced in place";
  EXPECT_EQ(again.records[0].median_ms(), 2.0);
  ASSERT_EQ(again.runs.size(), 2u);
  EXPECT_EQ(store.compact().records.size(), 3u) << "compacting without a journal changes nothing";
}

TEST_F(Journal, AnotherExperimentInTheJournalIsRefused) {
  const ResultsStore store(dir_.string());
  store.append({{Kind::experiment, {{"name", "x"}}}, {Kind::run, run_block("r")}});
  store.compact();
  store.append({{Kind::experiment, {{"name", "y"}}}});
  EXPECT_THROW(store.compact(), ResultsFileError);
}

TEST(RecordMerger, ReplacesByKeyOrByPointOnOneMachineAndAddsEverythingElse) {
  std::vector<Record> records{record_from_json(record("a", "pa", "r")),
                              record_from_json(record("b", "pb", "r"))};
  RecordMerger merger(records);
  merger.add_or_replace(record_from_json(record("a", "pa", "s")));  // same key
  json rebuilt = record("a2", "pb", "s");  // same point and machine, another build
  merger.add_or_replace(record_from_json(rebuilt));
  json elsewhere = record("b3", "pb", "s");
  elsewhere["machine"]["host_id"] = "2";  // another machine's measurement: kept apart
  merger.add_or_replace(record_from_json(elsewhere));
  merger.add_or_replace(
      record_from_json(record("a2", "pb", "t")));  // replaces the replacement, found by its key
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].run_id, "s");
  EXPECT_EQ(records[1].key, "a2");
  EXPECT_EQ(records[1].run_id, "t");
  EXPECT_EQ(records[2].key, "b3");
}

}  // namespace
}  // namespace convlab
