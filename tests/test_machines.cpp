// Results of two machines in one file: every record says which machine measured it, speedups and
// efficiencies relate records of one machine only, export puts machines in separate labelled
// panels and columns, compare refuses to compare across machines, and run says when the file
// already holds another machine's records.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kTwoMachineConfig = R"(name: machines
images:
  - {type: generated, sizes: [9, 12], channels: [1], seed: 5}
kernels:
  - {type: gaussian, size: 3}
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 1, max_reps: 2, max_seconds: 0.01}
figures:
  - {name: time, type: bars, x: image.name, y: median_ms, series: configuration}
tables:
  - {name: time, rows: image.name, columns: configuration, value: median_ms}
)";
constexpr size_t kPoints = 2 * 3;

// Makes every record and run block of `doc` look measured by another machine, with other keys
// (as another machine's run would have written them).
void move_to_other_machine(json& doc) {
  for (auto& run : doc["runs"]) {
    run["host"]["cpu_model"] = "Other CPU 9000";
    run["host"]["hostname"] = "elsewhere";
    run["host"]["host_id"] = "0123456789abcdef";
    run["id"] = "other-" + run["id"].get<std::string>();
  }
  doc["run"] = doc["runs"].back();
  for (auto& record : doc["records"]) {
    record["machine"] = {{"cpu_model", "Other CPU 9000"},
                         {"hostname", "elsewhere"},
                         {"host_id", "0123456789abcdef"}};
    record["key"] = "other-" + record["key"].get<std::string>();
    record["run_id"] = "other-" + record["run_id"].get<std::string>();
  }
}

class Machines : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "machines.yaml", kTwoMachineConfig);
  }
  json results() const {
    return json::parse(testing::read_text(dir_ / "outputs/machines/results.json"));
  }
  // A file with another machine's records, then this machine's run of the same config.
  testing::CommandResult run_on_two_machines() {
    EXPECT_EQ(testing::run_convlab("run machines.yaml", dir_).exit_code, 0);
    json doc = results();
    move_to_other_machine(doc);
    testing::write_text(dir_ / "outputs/machines/results.json", doc.dump(1));
    return testing::run_convlab("run machines.yaml", dir_);
  }
};

TEST_F(Machines, EveryRecordCarriesItsMachine) {
  ASSERT_EQ(testing::run_convlab("run machines.yaml", dir_).exit_code, 0);
  const json doc = results();
  for (const auto& record : doc["records"]) {
    const json& machine = record["machine"];
    EXPECT_EQ(machine["cpu_model"], doc["run"]["host"]["cpu_model"]);
    EXPECT_EQ(machine["hostname"], doc["run"]["host"]["hostname"]);
    EXPECT_EQ(machine["host_id"], doc["run"]["host"]["host_id"]);
    EXPECT_FALSE(machine.contains("gpu")) << "a CPU point has no GPU: " << machine;
  }
}

TEST_F(Machines, RunKeepsTheOtherMachinesRecordsAndSaysSo) {
  const auto result = run_on_two_machines();
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("already holds 6 records of Other CPU 9000 (elsewhere)"),
            std::string::npos)
      << result.output;
  const json doc = results();
  ASSERT_EQ(doc["records"].size(), 2 * kPoints) << "a machine's records replaced another's";
  size_t other = 0;
  for (const auto& record : doc["records"]) other += record["machine"]["hostname"] == "elsewhere";
  EXPECT_EQ(other, kPoints);
}

TEST_F(Machines, SpeedupsAndEfficienciesRelateRecordsOfOneMachine) {
  ASSERT_EQ(run_on_two_machines().exit_code, 0);
  const json doc = results();
  std::map<std::string, const json*> by_key;
  for (const auto& record : doc["records"]) by_key[record["key"]] = &record;
  size_t with_speedup = 0;
  for (const auto& record : doc["records"]) {
    const json& derived = record["derived"];
    if (!derived.contains("baseline_key")) continue;
    ++with_speedup;
    const json& baseline = *by_key.at(derived["baseline_key"]);
    EXPECT_EQ(baseline["machine"], record["machine"])
        << record["implementation"] << " on " << record["machine"]["hostname"]
        << " compared with a baseline of " << baseline["machine"]["hostname"];
    EXPECT_EQ(baseline["image"]["name"], record["image"]["name"]);
  }
  EXPECT_EQ(with_speedup, 2 * kPoints) << "every record of both machines has its own baseline";
  // Efficiency of 2 threads: against 1 thread of the same machine (both speedups differ by
  // machine, so a mix would show up as a ratio of the other machine's times).
  for (const auto& record : doc["records"]) {
    if (record["implementation"] != "openmp" || record["params"]["threads"] != 2) continue;
    for (const auto& single : doc["records"])
      if (single["implementation"] == "openmp" && single["params"]["threads"] == 1 &&
          single["image"]["name"] == record["image"]["name"] &&
          single["machine"] == record["machine"]) {
        const double expected = single["timing"]["stats"]["median"].get<double>() /
                                record["timing"]["stats"]["median"].get<double>();
        EXPECT_DOUBLE_EQ(record["derived"]["speedup_vs_threads1"].get<double>(), expected);
      }
  }
}

TEST_F(Machines, ExportPutsMachinesInLabelledPanelsAndColumns) {
  ASSERT_EQ(run_on_two_machines().exit_code, 0);
  const auto result = testing::run_convlab("export outputs/machines --out exported", dir_);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string host = results()["run"]["host"]["cpu_model"];
  // One panel per machine, titled with it.
  ASSERT_TRUE(fs::exists(dir_ / "exported/data/time--panel1.tsv")) << result.output;
  ASSERT_TRUE(fs::exists(dir_ / "exported/data/time--panel2.tsv")) << result.output;
  EXPECT_FALSE(fs::exists(dir_ / "exported/data/time--panel3.tsv"));
  const std::string script = testing::read_text(dir_ / "exported/plots/time.gp");
  EXPECT_NE(script.find("Other CPU 9000 (elsewhere)"), std::string::npos) << script;
  EXPECT_NE(script.find(host), std::string::npos) << script;
  // The table's columns lead with the machine.
  const std::string table = testing::read_text(dir_ / "exported/tables/time.tsv");
  const std::string header = table.substr(0, table.find('\n'));
  EXPECT_NE(header.find("Other CPU 9000 (elsewhere), Sequential"), std::string::npos) << header;
  EXPECT_NE(header.find(host), std::string::npos) << header;
}

TEST_F(Machines, RecordsWithoutMachinesTakeItFromTheirRunBlock) {
  ASSERT_EQ(run_on_two_machines().exit_code, 0);
  // As files written before machines were recorded: no machine, no host id.
  json doc = results();
  for (auto& record : doc["records"]) record.erase("machine");
  for (auto& run : doc["runs"]) run["host"].erase("host_id");
  doc["run"] = doc["runs"].back();
  testing::write_text(dir_ / "old.json", doc.dump(1));
  const auto result = testing::run_convlab("export old.json --out exported", dir_);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string script = testing::read_text(dir_ / "exported/plots/time.gp");
  EXPECT_NE(script.find("Other CPU 9000 (elsewhere)"), std::string::npos) << script;
  EXPECT_TRUE(fs::exists(dir_ / "exported/data/time--panel2.tsv"));
}

TEST_F(Machines, CompareRefusesToCompareTwoMachines) {
  ASSERT_EQ(testing::run_convlab("run machines.yaml --out a", dir_).exit_code, 0);
  json doc = json::parse(testing::read_text(dir_ / "a/results.json"));
  move_to_other_machine(doc);
  fs::create_directories(dir_ / "b");
  testing::write_text(dir_ / "b/results.json", doc.dump(1));
  const auto result = testing::run_convlab("compare a b", dir_);
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("measured on one machine"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("B: Other CPU 9000 (elsewhere)"), std::string::npos)
      << result.output;
  // The same file compares with itself.
  EXPECT_EQ(testing::run_convlab("compare a a", dir_).exit_code, 0);
}

}  // namespace
}  // namespace convlab
