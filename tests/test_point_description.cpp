// PointDescription (src/plan/point_description.hpp): what a point is, typed. Its JSON reads back
// to the same description, its field table says what to_json() writes, and the digests and point
// ids it gives the points of a committed experiment are those its results.json recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "plan/point_description.hpp"
#include "run/point_executor.hpp"
#include "store/record.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

const std::string kTree = CONVLAB_SOURCE_TREE;

PointDescription searched_point() {
  PointDescription point;
  point.implementation = "mine";
  point.family = "cuda";
  point.params = {{"block", {16, 8}}, {"TILE", 32}, {"SCHEDULE", "static"}};
  point.image = {"noise-64x48", 64, 48, 3};
  point.kernel = {"gaussian5", "gaussian", 5, true};
  point.border = "reflect";
  point.output = "f32";
  point.search = DescribedSearch{"random", 7};
  point.source_version = std::string(64, 'a');
  return point;
}

TEST(PointDescription, ItsJsonReadsBackToTheSameDescription) {
  const PointDescription point = searched_point();
  const json written = point.to_json();
  EXPECT_FALSE(written.contains("source")) << written.dump();  // the id covers the version
  EXPECT_EQ(point_description_from_json(written, point.source_version), point);
  EXPECT_NE(point_description_from_json(written), point);  // another version is another point
  PointDescription plain = point;
  plain.search.reset();
  EXPECT_EQ(point_description_from_json(plain.to_json(), plain.source_version), plain);
  EXPECT_EQ(plain.to_json().count("search"), 0u);
  EXPECT_EQ(point.digest(), point_digest(written));
  EXPECT_NE(point.digest(), plain.digest());
  EXPECT_EQ(point.label(),
            "mine SCHEDULE=static TILE=32 block=16x8 | noise-64x48 | gaussian5 | reflect | f32");
}

TEST(PointDescription, BadJsonIsRefusedNamingTheField) {
  json written = searched_point().to_json();
  written["image"].erase("width");
  try {
    point_description_from_json(written);
    FAIL() << "accepted a description without image.width";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("width"), std::string::npos) << error.what();
  }
}

TEST(PointDescription, TheFieldTableSaysWhatToJsonWrites) {
  const json written = searched_point().to_json();
  std::vector<std::string> rows;
  for (const PointField& field : point_description_fields()) {
    rows.push_back(field.path);
    const json::json_pointer at("/" + std::regex_replace(field.path, std::regex("\\."), "/"));
    if (std::string(field.path).rfind("source", 0) == 0) {
      EXPECT_FALSE(written.contains(at)) << field.path;
      continue;
    }
    ASSERT_TRUE(written.contains(at)) << field.path << " missing from " << written.dump();
    const json& value = written[at];
    switch (field.kind) {
      case PointFieldKind::object:
        EXPECT_TRUE(value.is_object()) << field.path;
        break;
      case PointFieldKind::string:
        EXPECT_TRUE(value.is_string()) << field.path;
        break;
      case PointFieldKind::number:
        EXPECT_TRUE(value.is_number()) << field.path;
        break;
      case PointFieldKind::boolean:
        EXPECT_TRUE(value.is_boolean()) << field.path;
        break;
    }
  }
  // Every value to_json() writes has its row (the params' own keys are free-form).
  std::vector<std::string> paths;
  searched_point().add_field_paths(paths);
  for (const std::string& path : paths) {
    if (path.rfind("params.", 0) == 0) continue;
    EXPECT_NE(std::find(rows.begin(), rows.end(), path), rows.end()) << path;
  }
  // add_field_paths names what a point filter finds, in the order of the JSON's keys.
  std::vector<std::string> from_json;
  add_field_paths_of(written, "", from_json);
  EXPECT_EQ(paths, from_json);
  for (const std::string& path : paths) EXPECT_TRUE(searched_point().filter_value(path)) << path;
  EXPECT_EQ(searched_point().filter_value("params.block.y")->number, 8);
  EXPECT_FALSE(searched_point().filter_value("params.nothing"));
}

// A record of the committed experiment own_kernels_overhead_cpu (a user's kernel beside the
// openmp rung, measured on the GPU host): the description it makes, hashed as the convlab that
// measured it hashed it (sha256 of the sorted, compact JSON).
TEST(PointDescription, ACommittedRecordKeepsItsDigest) {
  const json file =
      json::parse(testing::read_text(kTree + "/outputs/own_kernels_overhead_cpu/results.json"));
  std::map<std::string, std::string> digest_of_key;
  for (const json& record : file["records"])
    digest_of_key[record["key"]] = record_from_json(record).description().digest();
  // Computed from the file as described above when this test was written.
  const json& first = file["records"][0];
  const Record record = record_from_json(first);
  EXPECT_EQ(record.implementation, "openmp");
  EXPECT_EQ(digest_of_key.at(first["key"]), "35e5ace0430d02b3") << first.dump();
  const PointDescription mine = record_from_json(file["records"][2]).description();
  EXPECT_EQ(mine.source_version,
            "75d2a0c11ade08bfaf87c08e8d62ce6e181ecd40c5c6b6516cea38f333708144");
  EXPECT_EQ(mine.digest(), "a3016e1b093ec792");
}

// A run turns each point into JSON once, with the plan: what the point's id is hashed from, and
// the digest that shard, worker and hand-out files name it by.
TEST(PointDescription, ThePlanCarriesEachPointsJsonAndDigest) {
  const Config config = load_config(kTree + "/configs/own_kernels_overhead_cpu.yaml");
  const std::vector<Point> plan = expand_plan(config);
  ASSERT_FALSE(plan.empty());
  for (const Point& point : plan) {
    EXPECT_EQ(point.described, point.description.to_json()) << point.description.label();
    EXPECT_EQ(point.digest, point.description.digest()) << point.description.label();
  }
}

// The committed experiment's config, expanded and identified here, names its points with the ids
// and digests its results.json recorded: a user's kernel (whose source is unchanged since) and a
// built-in alike.
TEST(PointDescription, TheCommittedPlanHasTheRecordedIdsAndDigests) {
  const Config config = load_config(kTree + "/configs/own_kernels_overhead_cpu.yaml");
  const std::vector<Point> plan = expand_plan(config);
  const json file =
      json::parse(testing::read_text(kTree + "/outputs/own_kernels_overhead_cpu/results.json"));
  std::map<std::string, std::string> id_of_digest;
  for (const json& record : file["records"])
    id_of_digest[record_from_json(record).description().digest()] = record["point_id"];
  ASSERT_EQ(id_of_digest.size(), plan.size());
  const auto dir = testing::fresh_directory("point_description_ids");
  PointExecutor executor(config, plan, dir.string(), (dir / "results.json").string(), 0);
  for (size_t i = 0; i < plan.size(); ++i) {
    const IdentifiedPoint point = executor.identify(i);
    ASSERT_TRUE(id_of_digest.count(point.digest)) << point.label;
    EXPECT_EQ(point.id, id_of_digest.at(point.digest)) << point.label;
  }
}

}  // namespace
}  // namespace convlab
