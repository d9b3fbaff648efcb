// A command reads its config file once: `convlab run` once, `convlab notebook` once per page and
// `convlab watch` once per save (test_watch.cpp), however many stages look at it (the checks, the
// plan, the page's cells, its freshness, the kernel sources it names, the derived columns, the
// gallery). The reads are counted by the kernel (testing::FileOpens), so a second read anywhere,
// through whichever function, fails these tests. Every read goes through read_config
// (config/yaml_load.hpp); no other file of src/ calls the read beneath it.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// A few points of a few milliseconds, with what makes a page look at its config in every way: a
// figure, a derived column and saved outputs for the gallery.
const char* const kConfig = R"yaml(name: reads
title: Config reads
description: Each command reads this file once.
images:
  - {type: generated, sizes: [48], channels: [1], seed: 3}
kernels:
  - {type: gaussian, size: [3, 5]}
implementations:
  sequential: {}
measure: {warmup: 0, min_reps: 2, max_reps: 2, max_seconds: 0.05}
save_outputs: true
derive:
  of_best: "median_ms / min(median_ms[])"
figures:
  - name: time_by_size
    type: line
    x: kernel.size
    y: median_ms
    series: implementation
)yaml";

class ConfigReads : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "reads.yaml", kConfig);
  }
  // Runs convlab with `arguments` in the test's folder; the opens of reads.yaml it made.
  std::size_t opens_of(const std::string& arguments) {
    testing::FileOpens opens(dir_ / "reads.yaml");
    const auto result = testing::run_convlab(arguments, dir_);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    return opens.take();
  }
};

TEST_F(ConfigReads, ARunReadsItsConfigOnce) {
  EXPECT_EQ(opens_of("run reads.yaml"), 1u);
  EXPECT_EQ(opens_of("run reads.yaml --table"), 1u) << "a run that keeps every point";
}

TEST_F(ConfigReads, ANotebookPageReadsItsConfigOnce) {
  ASSERT_EQ(opens_of("run reads.yaml --quiet"), 1u);
  EXPECT_EQ(opens_of("notebook outputs/reads --out notebook --quiet"), 1u);
  EXPECT_EQ(opens_of("notebook outputs/reads --out notebook --quiet"), 1u)
      << "a page that is current, looked at again";
  testing::write_text(dir_ / "reads.yaml",
                      std::regex_replace(kConfig, std::regex("size: \\[3, 5\\]"), "size: [3, 7]"));
  EXPECT_EQ(opens_of("notebook outputs/reads --out notebook --quiet"), 1u)
      << "a page whose config changed since the run";
}

// Every read of a config file is read_config's: no other file of src/ calls read_config_file.
TEST(ConfigReadsInSource, OnlyReadConfigReadsAConfigFile) {
  const fs::path src = CONVLAB_SOURCE_TREE "/src";
  const std::regex call(R"(\bread_config_file\s*\()");
  std::vector<std::string> callers;
  for (const auto& entry : fs::recursive_directory_iterator(src)) {
    if (!entry.is_regular_file()) continue;
    const std::string relative = fs::relative(entry.path(), src).generic_string();
    if (relative == "config/yaml_load.hpp" || relative == "config/yaml_load.cpp") continue;
    if (std::regex_search(testing::read_text(entry.path()), call)) callers.push_back(relative);
  }
  EXPECT_TRUE(callers.empty()) << "read a config file through read_config: "
                               << ::testing::PrintToString(callers);
}

}  // namespace
}  // namespace convlab
