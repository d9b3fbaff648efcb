// Behaviour pinned: tests/data/behaviour/behaviour.yaml is run and every field of its results that
// does not depend on time or on the machine is compared with tests/data/behaviour/expected.json,
// written from the results of an earlier build. A change to what convlab records (a field renamed,
// a verification count, a derived relation, a skip reason, the order of the points) fails here.
//
// Left out, because they differ between runs or machines: timing samples and statistics (the
// repetition and warm-up counts stay), throughputs and speedups (which of them exist stays), the
// record key and run id (build and host), the machine, and the run block's host, build, git,
// conditions, argv and times (its resolved config and measure block stay). The baseline a record
// is compared with is kept as the baseline's point id. Verification errors of float outputs may
// differ in the last bits where a compiler contracts multiply-adds differently, so max_abs_error
// is compared within 1e-4.
//
// To write expected.json again after an intended change: run the config with the convlab to take
// as the reference (convlab run behaviour.yaml --out DIR), then run this test with
// CONVLAB_EXPECTED_FROM=DIR/results.json; it writes the file and reports itself skipped.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

const std::string kExpectedPath = CONVLAB_SOURCE_TREE "/tests/data/behaviour/expected.json";

json keys_of(const json& object) {
  json keys = json::array();
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  return keys;
}

json normalised_record(json record, const std::map<std::string, std::string>& point_of_key) {
  for (const char* field : {"key", "run_id", "machine", "gpu_clocks"}) record.erase(field);
  if (record["timing"].is_object()) {
    const json& timing = record["timing"];
    record["timing"] = {{"repetitions", timing["repetitions"]},
                        {"warmup", timing["warmup"]},
                        {"samples", timing["samples_ms"].size()},
                        {"fields", keys_of(timing)}};
  }
  json& derived = record["derived"];
  json kept = {{"fields", keys_of(derived)}};
  for (const char* field : {"pixels", "macs", "bytes"})
    if (derived.contains(field)) kept[field] = derived[field];
  if (derived.contains("baseline_key")) {
    const auto found = point_of_key.find(derived["baseline_key"].get<std::string>());
    kept["baseline_point"] = found == point_of_key.end() ? "absent" : found->second;
  }
  derived = kept;
  return record;
}

json normalised(const json& results) {
  std::map<std::string, std::string> point_of_key;
  for (const auto& record : results["records"])
    point_of_key[record["key"].get<std::string>()] = record["point_id"].get<std::string>();
  json records = json::array();
  for (const auto& record : results["records"])
    records.push_back(normalised_record(record, point_of_key));
  const json& run = results["run"];
  return {{"schema_version", results["schema_version"]},
          {"experiment", results["experiment"]},
          {"run",
           {{"fields", keys_of(run)},
            {"resolved_config", run["config"]["resolved"]},
            {"measure", run["measure"]}}},
          {"runs", results["runs"].size()},
          {"gallery", results["gallery"]},
          {"records", records}};
}

// Differences between `expected` and `actual` at `path`, one a line.
void compare(const json& expected, const json& actual, const std::string& path,
             std::string& differences) {
  if (path.size() > 14 && path.compare(path.size() - 14, 14, ".max_abs_error") == 0 &&
      expected.is_number() && actual.is_number()) {
    if (std::abs(expected.get<double>() - actual.get<double>()) > 1e-4)
      differences += path + ": expected " + expected.dump() + ", got " + actual.dump() + "\n";
    return;
  }
  if (expected.is_object() && actual.is_object()) {
    for (const auto& [key, value] : expected.items())
      if (!actual.contains(key))
        differences += path + "." + key + ": missing\n";
      else
        compare(value, actual[key], path + "." + key, differences);
    for (const auto& [key, value] : actual.items())
      if (!expected.contains(key)) differences += path + "." + key + ": not expected\n";
    return;
  }
  if (expected.is_array() && actual.is_array() && expected.size() == actual.size()) {
    for (size_t i = 0; i < expected.size(); ++i)
      compare(expected[i], actual[i], path + "[" + std::to_string(i) + "]", differences);
    return;
  }
  if (expected != actual)
    differences += path + ": expected " + expected.dump().substr(0, 200) + ", got " +
                   actual.dump().substr(0, 200) + "\n";
}

// One record a line, so that a change reads as a change of lines.
std::string expected_text(const json& document) {
  std::string text = "{\n";
  bool first = true;
  for (const auto& [key, value] : document.items()) {
    text += std::string(first ? "" : ",\n") + json(key).dump() + ": ";
    first = false;
    if (key != "records") {
      text += value.dump();
      continue;
    }
    text += "[\n";
    for (size_t i = 0; i < value.size(); ++i)
      text += "  " + value[i].dump() + (i + 1 < value.size() ? ",\n" : "\n");
    text += "]";
  }
  return text + "\n}\n";
}

TEST(Behaviour, EveryFieldButTimesAndMachineMatchesTheCommittedResults) {
  if (const char* source = std::getenv("CONVLAB_EXPECTED_FROM")) {
    testing::write_text(kExpectedPath,
                        expected_text(normalised(json::parse(testing::read_text(source)))));
    GTEST_SKIP() << "wrote " << kExpectedPath << " from " << source;
  }
  const auto dir = testing::fresh_directory("behaviour");
  const auto result = testing::run_convlab(
      "run '" CONVLAB_SOURCE_TREE "/tests/data/behaviour/behaviour.yaml' --out out -q", dir);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const json actual = normalised(json::parse(testing::read_text(dir / "out/results.json")));
  const json expected = json::parse(testing::read_text(kExpectedPath));
  ASSERT_EQ(actual["records"].size(), expected["records"].size());
  std::string differences;
  compare(expected, actual, "results", differences);
  EXPECT_TRUE(differences.empty()) << differences.substr(0, 4000);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace convlab
