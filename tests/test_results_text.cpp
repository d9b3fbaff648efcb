// results.json is written a record at a time (write_results_text), so that a merge of 100,000
// records never holds the whole document; the text must be exactly the document's dump.
#include <gtest/gtest.h>

#include <string>

#include "results/results_file.hpp"

namespace convlab {
namespace {

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
    EXPECT_EQ(written(results), to_json(results).dump(1) + "\n") << name;
  }
  ResultsFile empty;
  EXPECT_EQ(written(empty), to_json(empty).dump(1) + "\n");
  ResultsFile part = read_results(std::string(CONVLAB_SOURCE_TREE) +
                                  "/outputs/block_sweep/results.json");
  part.part = PartBlock{};
  part.part->shard = ShardIndex{1, 3};
  part.part->points = {"0123456789abcdef"};
  EXPECT_EQ(written(part), to_json(part).dump(1) + "\n");
}

}  // namespace
}  // namespace convlab
