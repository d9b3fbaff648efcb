// The per-point journal next to results.json: appended lines are read back in order, a line cut
// short by a crash is ignored, compaction folds the journal into results.json exactly once, and
// records merge by key and by point on one machine.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "store/results_journal.hpp"
#include "store/results_merge.hpp"
#include "store/results_schema.hpp"
#include "store/results_store.hpp"
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

// A line that is not a journal line, in the middle: an edit, a disk error or a write cut short
// that a later append ended. It is skipped with a warning naming it, every line before and after
// it is read, and compaction sets it aside, as it was, in results.journal.rejected.
TEST_F(Journal, AMalformedLineInTheMiddleIsSkippedNamedAndSetAside) {
  const ResultsStore store(dir_.string());
  store.append({{Kind::experiment, {{"name", "x"}}},
                {Kind::run, run_block("r")},
                {Kind::record, record("a", "pa", "r")}});
  const std::vector<std::string> bad{R"({"point_id": 5, "status": ["ok"]})",
                                     R"({"record": {"key": 3}})", R"({"record": {"key": "b", "po)"};
  std::string text = testing::read_text(journal_path());
  for (const auto& line : bad) text += line + "\n";
  testing::write_text(journal_path(), text);
  store.append({{Kind::record, record("c", "pc", "r")}});
  {
    std::ofstream torn(journal_path(), std::ios::app);
    torn << R"({"record": {"key": "d", "po)";  // a last line cut short: ignored, as before
  }

  const JournalContents contents = read_journal_contents(journal_path());
  ASSERT_EQ(contents.lines.size(), 4u);
  EXPECT_EQ(contents.lines[2].value["key"], "a");
  EXPECT_EQ(contents.lines[3].value["key"], "c");
  ASSERT_EQ(contents.rejected.size(), 3u);
  for (size_t i = 0; i < bad.size(); ++i) {
    EXPECT_EQ(contents.rejected[i].number, 4 + i);
    EXPECT_EQ(contents.rejected[i].text, bad[i]);
  }
  EXPECT_EQ(contents.rejected[0].reason,
            "expected one of experiment, run, record, gallery or part");
  EXPECT_EQ(contents.rejected[1].reason.rfind("record.key: expected a string", 0), 0u)
      << contents.rejected[1].reason;

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(read_results(results_path()).records.size(), 2u);
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  for (const char* needle : {"results.journal: line 4: skipped (expected one of experiment",
                             "results.journal: line 5: skipped (record.key: expected a string",
                             "results.journal: line 6: skipped (not JSON"})
    EXPECT_NE(warnings.find(needle), std::string::npos) << warnings;
  EXPECT_EQ(warnings.find("line 8"), std::string::npos) << "the torn last line is not rejected";
  EXPECT_FALSE(fs::exists(dir_ / "results.journal.rejected")) << "a reader writes nothing";

  const ResultsFile compacted = store.compact();
  ASSERT_EQ(compacted.records.size(), 2u);
  EXPECT_FALSE(store.has_journal());
  EXPECT_EQ(testing::read_text(dir_ / "results.journal.rejected"),
            bad[0] + "\n" + bad[1] + "\n" + bad[2] + "\n");
  EXPECT_EQ(json::parse(testing::read_text(results_path()))["records"].size(), 2u);
}

TEST_F(Journal, AJournalThatIsNotARegularFileIsRefusedWithoutBlocking) {
  ASSERT_EQ(::mkfifo(journal_path().c_str(), 0644), 0);
  try {
    read_journal(journal_path());
    FAIL() << "a FIFO was read as a journal";
  } catch (const ResultsFileError& error) {
    EXPECT_NE(std::string(error.what()).find("results.journal: is a FIFO"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW(append_journal(journal_path(), {{Kind::run, run_block("r")}}), ResultsFileError);
  EXPECT_THROW(ResultsStore(dir_.string()).read(), ResultsFileError);
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

// What a run killed with -9 leaves: the points in the journal, no results.json yet. `convlab show`
// reads them, and the next run folds them in and keeps them.
TEST_F(Journal, AKilledRunsPointsAreShownAndKeptByTheNextRun) {
  testing::write_text(dir_ / "j.yaml", R"(name: j
images:
  - {type: generated, sizes: [8], channels: [1], seed: 1}
kernels:
  - {type: gaussian, size: 3}
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}
)");
  ASSERT_EQ(testing::run_convlab("run j.yaml --out out -q", dir_).exit_code, 0);
  const json done = json::parse(testing::read_text(dir_ / "out/results.json"));
  std::vector<JournalLine> lines{{Kind::experiment, done["experiment"]}, {Kind::run, done["run"]}};
  for (const auto& record : done["records"]) lines.push_back({Kind::record, record});
  fs::remove(dir_ / "out/results.json");
  append_journal((dir_ / "out/results.journal").string(), lines);

  const auto shown = testing::run_convlab("show out", dir_);
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_NE(shown.output.find("ok 3 "), std::string::npos) << shown.output;
  const auto resumed = testing::run_convlab("run j.yaml --out out", dir_);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("kept 3 "), std::string::npos) << resumed.output;
  EXPECT_FALSE(fs::exists(dir_ / "out/results.journal"));
  EXPECT_EQ(json::parse(testing::read_text(dir_ / "out/results.json"))["records"].size(), 3u);
}

TEST(ResultsNesting, CountsListsAndObjectsButNotBracketsInStrings) {
  EXPECT_FALSE(nests_deeper_than(R"({"a": [1, {"b": []}]})", 4));
  EXPECT_TRUE(nests_deeper_than(R"({"a": [1, {"b": []}]})", 3));
  EXPECT_FALSE(nests_deeper_than(R"({"a": "[[[[{{{{", "b": "\"[[[["})", 1));
  EXPECT_TRUE(nests_deeper_than(std::string(300, '[') + std::string(300, ']'), 256));
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
