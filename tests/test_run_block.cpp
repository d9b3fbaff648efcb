// The run block is typed: what a run writes reads back to the same JSON, fields of other versions
// included, and blocks of versions that recorded less stay as they were.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "store/run_block.hpp"

namespace convlab {
namespace {

using nlohmann::json;

json fixture_runs() {
  std::ifstream in(std::string(CONVLAB_SOURCE_TREE) +
                   "/tests/fixtures/report/fixture-demo/results.json");
  return json::parse(in).at("runs");
}

TEST(RunBlock, EveryFixtureRunReadsBackToTheSameJson) {
  const json runs = fixture_runs();
  ASSERT_FALSE(runs.empty());
  for (const json& run : runs) EXPECT_EQ(to_json(run_block_from_json(run)), run);
}

TEST(RunBlock, RecordedFactsAreTypedMembers) {
  json written = fixture_runs().at(0);
  written["conditions"] = {{"load_average", {0.5, 0.25, 0.125}},
                           {"cpu_governor", nullptr},
                           {"cpu_governor_note", "no cpufreq governor"}};
  const RunBlock run = run_block_from_json(written);
  ASSERT_TRUE(run.argv && run.git && run.conditions && run.measure);
  EXPECT_EQ(run.argv->at(1), "run");
  EXPECT_TRUE(run.git->commit.has_value());
  ASSERT_TRUE(run.conditions->load_average.has_value());
  EXPECT_EQ(run.conditions->load_average->size(), 3u);
  EXPECT_FALSE(run.conditions->cpu_governor.has_value());
  EXPECT_EQ(run.measure->defaults.max_reps, 5);
  EXPECT_TRUE(run.measure->defaults.l2_flush);
  EXPECT_EQ(to_json(run), written);
}

TEST(RunBlock, FieldsOfOtherVersionsAndAbsentFactsRoundTrip) {
  json run = fixture_runs().at(0);
  run["scheduler"] = {{"queue", "long"}};
  run["git"]["source"] = "CONVLAB_SOURCE_COMMIT";
  EXPECT_EQ(to_json(run_block_from_json(run)), run);
  for (const char* key : {"argv", "git", "conditions", "measure"}) run.erase(key);
  EXPECT_EQ(to_json(run_block_from_json(run)), run);
}

TEST(RunBlock, FieldsOfOtherVersionsInsideTheTypedBlocksAreKept) {
  json written = fixture_runs().at(0);
  written["git"]["branch"] = "main";                      // a field this version does not know
  written["conditions"]["load_average"] = "unavailable";  // a value of another type
  written["measure"]["per_implementation"]["sequential"] = {{"warmup", 1}, {"pin", "core0"}};
  const RunBlock run = run_block_from_json(written);
  EXPECT_FALSE(run.conditions->load_average.has_value());
  const json again = to_json(run);
  EXPECT_EQ(again.at("git").at("branch"), "main");
  EXPECT_EQ(again.at("conditions").at("load_average"), "unavailable");
  EXPECT_EQ(again.at("measure").at("per_implementation").at("sequential").at("pin"), "core0");
  EXPECT_EQ(again.at("git").at("commit"), written.at("git").at("commit"));
}

TEST(RunBlock, PerImplementationMeasureSettingsAreKept) {
  RunBlock run;
  MeasureSpec quick;
  quick.max_reps = 3;
  quick.max_seconds = 0.25;
  run.measure = RunMeasure{MeasureSpec{}, {{"sequential", quick}}};
  const RunBlock back = run_block_from_json(to_json(run));
  ASSERT_TRUE(back.measure.has_value());
  EXPECT_EQ(back.measure->per_implementation.at("sequential").max_reps, 3);
  EXPECT_EQ(back.measure->per_implementation.at("sequential").max_seconds, 0.25);
  EXPECT_EQ(to_json(back), to_json(run));
}

}  // namespace
}  // namespace convlab
