// results.json is written a record at a time (write_results_text), so that a merge of 100,000
// records never holds the whole document; the text must be exactly the document's dump.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "store/results_file.hpp"

namespace convlab {
namespace {

// Where two long texts first differ ("same" when they do not): a plain EXPECT_EQ would print a
// diff of megabytes.
std::string first_difference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  if (i == a.size() && i == b.size()) return "same";
  const size_t from = i > 80 ? i - 80 : 0;
  return "differ at " + std::to_string(i) + ":\n" + a.substr(from, 160) + "\n---\n" +
         b.substr(from, 160);
}

std::string written(const ResultsFile& results) {
  std::string text;
  write_results_text(results, [&](const std::string& piece) { text += piece; });
  return text;
}

TEST(ResultsText, IsTheDumpOfTheWholeDocument) {
  for (const char* name : {"block_sweep", "tile_sweep", "gallery", "thread_scaling"}) {
    const ResultsFile results =
        read_results(std::string(CONVLAB_SOURCE_TREE) + "/outputs/" + name + "/results.json");
    ASSERT_FALSE(results.records.empty()) << name;
    EXPECT_EQ(first_difference(written(results), to_json(results).dump(1) + "\n"), "same") << name;
  }
  ResultsFile empty;
  EXPECT_EQ(first_difference(written(empty), to_json(empty).dump(1) + "\n"), "same");
  ResultsFile part =
      read_results(std::string(CONVLAB_SOURCE_TREE) + "/outputs/block_sweep/results.json");
  part.part = PartBlock{};
  part.part->shard = ShardIndex{1, 3};
  part.part->points = {"0123456789abcdef"};
  EXPECT_EQ(first_difference(written(part), to_json(part).dump(1) + "\n"), "same");
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Records are taken one at a time while the file is parsed: what is read and written again is
// the file as it was.
TEST(ResultsText, ReadingAndWritingAFileGivesItBack) {
  for (const char* name : {"block_sweep", "thread_scaling", "cpu_vs_opencv_16core"}) {
    const std::string path =
        std::string(CONVLAB_SOURCE_TREE) + "/outputs/" + name + "/results.json";
    EXPECT_EQ(first_difference(written(read_results(path)), file_text(path)), "same") << name;
  }
}

TEST(ResultsText, RecordProblemsAreNamedAfterTheSchemaVersionIsKnown) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("convlab-results-text-" + std::to_string(::getpid()) + ".json"))
                               .string();
  const auto refused = [&](const std::string& text) {
    std::ofstream(path) << text;
    try {
      read_results(path);
    } catch (const ResultsFileError& error) {
      return std::string(error.what());
    }
    return std::string("read");
  };
  const std::string good =
      R"({"key": "k", "run_id": "r", "implementation": "sequential", "family": "cpu",
          "params": {}, "image": {"name": "i", "width": 1, "height": 1, "channels": 1},
          "kernel": {"name": "k", "size": 1}, "border": "zero", "output": "u8",
          "status": "ok"})";
  EXPECT_NE(
      refused(R"({"records": [{"key": 1}], "schema_version": 2})").find("schema_version is not 1"),
      std::string::npos);
  EXPECT_NE(refused(R"({"records": [)" + good + ", " + good + R"(, 7], "schema_version": 1})")
                .find(path + ": records[2]: expected an object, got a number (7)"),
            std::string::npos);
  EXPECT_NE(refused(R"({"records": [)" + good + R"(, {"run_id": "r"}], "schema_version": 1})")
                .find(path + ": records[1].key: missing"),
            std::string::npos);
  EXPECT_NE(refused(R"({"records": "many", "schema_version": 1})")
                .find(path + ": records: expected a list, got a string"),
            std::string::npos);
  EXPECT_NE(refused(R"({"runs": [{"id": "a"}, {"started": "x"}], "schema_version": 1})")
                .find(path + ": runs[1].id: missing"),
            std::string::npos);
  EXPECT_EQ(refused(R"({"records": [)" + good + R"(], "schema_version": 1})"), "read");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace convlab
