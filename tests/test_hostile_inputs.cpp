// Inputs made to hang or exhaust convlab: each must be refused (exit 2, a message naming the
// path) within 10 s and 1 GiB of address space, the bounds docs/config.md promises. The corpus in
// tests/data/bad covers what a config file can hold; these cover what needs the file system
// (FIFOs, devices, oversized files) or the bounds themselves.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

const char* kValidTail = R"(kernels:
  - {type: gaussian, size: 3}
implementations:
  sequential: {}
)";

// Runs convlab under the bounds: `timeout` turns a hang into exit 124.
testing::CommandResult bounded(const std::string& arguments, const fs::path& dir) {
  return testing::run_shell("ulimit -v 1048576; timeout 10 \"$CONVLAB\" " + arguments, dir);
}

class HostileInput : public testing::DirectoryTest {
 protected:
  void expect_refused(const testing::CommandResult& result, const std::string& needle) const {
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_NE(result.output.find(needle), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(dir_ / "outputs")) << "a refused config created outputs/";
  }
};

TEST_F(HostileInput, ConfigPathsThatAreNotFilesAreRefusedBeforeReading) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo.yaml").c_str(), 0644), 0);
  fs::create_directories(dir_ / "folder.yaml");
  expect_refused(bounded("validate /dev/zero", dir_), "/dev/zero: is a character device");
  expect_refused(bounded("run /dev/zero", dir_), "/dev/zero: is a character device");
  expect_refused(bounded("validate fifo.yaml", dir_), "fifo.yaml: is a FIFO");
  expect_refused(bounded("run fifo.yaml", dir_), "fifo.yaml: is a FIFO");
  expect_refused(bounded("validate folder.yaml", dir_), "folder.yaml: is a directory");
  expect_refused(bounded("validate missing.yaml", dir_), "missing.yaml: cannot read");
}

TEST_F(HostileInput, OversizedConfigFileIsRefusedWithoutParsing) {
  std::ofstream big(dir_ / "big.yaml");
  big << "name: big\nimages: [";
  for (int i = 0; i < 400000; ++i) big << "1, ";
  big << "1]\n" << kValidTail;
  big.close();
  ASSERT_GT(fs::file_size(dir_ / "big.yaml"), 1u << 20);
  expect_refused(bounded("validate big.yaml", dir_),
                 "big.yaml: the config file is larger than 1 MiB");
}

TEST_F(HostileInput, AliasBombOfABillionLeavesIsRefusedInBoundedTime) {
  // Nine levels of ten aliases on ten leaves: 10^9 values once expanded.
  std::string text = "name: bomb\nimages:\n  - {type: generated, sizes: [16]}\n";
  text += kValidTail;
  text += "baseline:\n  implementation: sequential\n  params:\n";
  text += "    l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level <= 8; ++level) {
    const std::string previous = "*l" + std::to_string(level - 1);
    text += "    l" + std::to_string(level) + ": &l" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) text += (i ? ", " : "") + previous;
    text += "]\n";
  }
  testing::write_text(dir_ / "bomb.yaml", text);
  expect_refused(bounded("validate bomb.yaml", dir_), "bomb.yaml:");
  expect_refused(bounded("run bomb.yaml", dir_), "with its aliases expanded");
}

TEST_F(HostileInput, GlobMatchingAFifoIsRefusedInsteadOfBlocking) {
  fs::create_directories(dir_ / "photos");
  ASSERT_EQ(::mkfifo((dir_ / "photos/pipe.png").c_str(), 0644), 0);
  testing::write_text(
      dir_ / "fifo-glob.yaml",
      std::string("name: fifo\nimages:\n  - {type: files, glob: 'photos/*.png'}\n") + kValidTail);
  expect_refused(bounded("validate fifo-glob.yaml", dir_),
                 "images[0].glob: 'photos/pipe.png' is a FIFO");
}

TEST_F(HostileInput, ImageDimensionsAreCheckedFromTheHeaderBeforeDecoding) {
  // The header says 32000x32000; decoding it as RGB would take 3 GB, more than ulimit allows, and
  // fail with another message. The budget (which honours ulimit -v) refuses it from the header.
  testing::write_text(dir_ / "header.yaml",
                      std::string("name: header\nimages:\n  - {type: files, glob: '") +
                          CONVLAB_TEST_DATA + "/bomb-32000x32000.png'}\n" + kValidTail);
  const auto result = bounded("validate header.yaml", dir_);
  expect_refused(result, "bomb-32000x32000.png: 32000x32000x3 needs about");
  EXPECT_NE(result.output.find("header.yaml:3:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("only 1024 MiB are available"), std::string::npos) << result.output;
}

// --- strings, results files and shards beyond their bounds
// ----------------------------------------

const char* kSmallRun = R"(name: small
images:
  - {type: generated, sizes: [8], channels: [1], seed: 1}
kernels:
  - {type: gaussian, size: 3}
  - {type: box, size: 3}
implementations:
  sequential: {}
measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}
figures:
  - {name: time, type: bars, x: kernel.name, y: median_ms, series: implementation}
)";

TEST_F(HostileInput, ALongStringInAConfigIsRefusedByKey) {
  testing::write_text(dir_ / "title.yaml", "name: long\ntitle: " + std::string(5000, 't') + "\n" +
                                               "images:\n  - {type: generated, sizes: [16]}\n" +
                                               kValidTail);
  expect_refused(bounded("validate title.yaml", dir_),
                 "title.yaml:2:8: title: a value of 5000 bytes, longer than the 4096 a config "
                 "allows");
  // An explicit key ("? "): yaml-cpp refuses implicit keys longer than 1024 characters itself.
  testing::write_text(dir_ / "key.yaml", "name: long\n? " + std::string(5000, 'k') + "\n: 1\n");
  const auto key = bounded("validate key.yaml", dir_);
  expect_refused(key, "key.yaml:2:3: a key of 5000 bytes, longer than the 4096");
  EXPECT_LT(key.output.size(), 600u) << "the message quotes more than the key: " << key.output;
  testing::write_text(dir_ / "label.yaml",
                      std::string(kSmallRun) +
                          "  - {name: f, x: kernel.name, y: median_ms, x_label: \"" +
                          std::string(70000, 'x') + "\"}\n");
  expect_refused(bounded("validate label.yaml", dir_), "figures[1].x_label: a value of 70000");
}

class HostileResults : public HostileInput {
 protected:
  void SetUp() override {
    HostileInput::SetUp();
    testing::write_text(dir_ / "small.yaml", kSmallRun);
    const auto ran = bounded("run small.yaml --out out -q", dir_);
    ASSERT_EQ(ran.exit_code, 0) << ran.output;
    results_ = nlohmann::json::parse(testing::read_text(dir_ / "out/results.json"));
  }
  void write_results(const nlohmann::json& results) const {
    testing::write_text(dir_ / "out/results.json", results.dump(1));
  }
  // Every reader of results.json refuses it with `needle`, exit 2, and writes nothing.
  void expect_every_reader_refuses(const std::string& needle) const {
    for (const std::string command :
         {"show out", "show out --best", "export out --format csv", "export out",
          "notebook out --out notebook", "compare out out"}) {
      const auto result = bounded(command, dir_);
      EXPECT_EQ(result.exit_code, 2) << command << ": " << result.output;
      EXPECT_NE(result.output.find(needle), std::string::npos) << command << ": " << result.output;
      EXPECT_EQ(result.output.find("bad_alloc"), std::string::npos) << result.output;
    }
    EXPECT_FALSE(fs::exists(dir_ / "notebook/small.html"));
  }
  nlohmann::json results_;
};

TEST_F(HostileResults, ALongStringIsRefusedByKey) {
  results_["records"][1]["kernel"]["name"] = std::string(5000, 'k');
  write_results(results_);
  expect_every_reader_refuses(
      "out/results.json: records[1].kernel.name: a string of 5000 bytes, longer than the 4096 a "
      "results file allows");
}

// The text of a user's kernel source is kept whole with its run: up to the 1 MiB a source may
// have, not the 4 KiB of other strings.
TEST_F(HostileResults, AKernelSourceTextMayBeAsLongAsASourceAndNoLonger) {
  results_["run"]["config"]["sources"] = {
      {{"path", "k.c"}, {"sha256", "0"}, {"text", std::string(20000, 'x')}}};
  write_results(results_);
  const auto shown = bounded("show out", dir_);
  EXPECT_EQ(shown.exit_code, 0) << shown.output;
  results_["run"]["config"]["sources"][0]["text"] = std::string((1 << 20) + 1, 'x');
  write_results(results_);
  expect_every_reader_refuses(
      "out/results.json: run.config.sources[0].text: a string of 1048577 bytes, longer than the "
      "1048576 a results file allows");
}

TEST_F(HostileResults, NegativeAndNonFiniteTimesAreRefusedByKey) {
  results_["records"][0]["timing"]["stats"]["median"] = -1.0;
  write_results(results_);
  expect_every_reader_refuses(
      "out/results.json: records[0].timing.stats.median: a time must be a finite number of "
      "milliseconds, not negative; got a number (-1.0)");
  results_["records"][0]["timing"]["stats"]["median"] = 0.5;
  write_results(results_);
  std::string text = testing::read_text(dir_ / "out/results.json");
  const std::size_t samples = text.find("\"samples_ms\": [");
  ASSERT_NE(samples, std::string::npos);
  text.insert(samples + 15, "1e999, ");
  testing::write_text(dir_ / "out/results.json", text);
  const auto shown = bounded("show out", dir_);
  EXPECT_EQ(shown.exit_code, 2) << shown.output;
  EXPECT_NE(shown.output.find("out/results.json: "), std::string::npos) << shown.output;
}

TEST_F(HostileResults, APointTwiceOnOneMachineIsAnErrorNamingBothRecords) {
  nlohmann::json twice = results_["records"][0];
  twice["timing"]["stats"]["median"] = 99.0;
  results_["records"].push_back(twice);
  write_results(results_);
  expect_every_reader_refuses("out/results.json: records[0] and records[" +
                              std::to_string(results_["records"].size() - 1) + "]: point_id " +
                              twice["point_id"].get<std::string>().substr(0, 16) +
                              " twice, measured on the same machine");
}

// A results file larger than the bound is refused by name before a byte is read (a sparse file:
// the test writes nothing to disk), and one that would need more memory than ulimit -v leaves.
TEST_F(HostileResults, AResultsFileBeyondTheMemoryBoundIsRefusedByNameUpFront) {
  fs::resize_file(dir_ / "out/results.json", std::uintmax_t(1400) << 20);
  expect_every_reader_refuses(
      "out/results.json: 1400 MiB, larger than the 1024 MiB a results file may be");
  fs::resize_file(dir_ / "out/results.json", std::uintmax_t(200) << 20);
  expect_every_reader_refuses("out/results.json: 200 MiB; reading it needs about 1200 MiB");
}

// A shard file of white space is refused once a megabyte of it has been read (the parser would
// keep all of it), and a large one up front, by its size.
TEST_F(HostileResults, AShardOfWhitespaceIsRefusedByNameInBoundedMemory) {
  for (int shard = 0; shard < 2; ++shard)
    ASSERT_EQ(
        bounded("run small.yaml --out sharded -q --shard " + std::to_string(shard) + "/2", dir_)
            .exit_code,
        0);
  const fs::path shard = dir_ / "sharded/shards/shard-1-of-2.json";
  {
    std::ofstream spaces(shard, std::ios::binary | std::ios::trunc);
    const std::string block(1 << 20, ' ');
    for (int i = 0; i < 60; ++i) spaces << block;
  }
  const auto merged = bounded("merge sharded", dir_);
  EXPECT_EQ(merged.exit_code, 2) << merged.output;
  EXPECT_NE(merged.output.find("sharded/shards/shard-1-of-2.json: holds more than 1048576 bytes "
                               "of white space in a row (at byte 1048577)"),
            std::string::npos)
      << merged.output;
  EXPECT_NE(merged.output.find("merged 1 of 2 shard files"), std::string::npos) << merged.output;
  fs::resize_file(shard, std::uintmax_t(300) << 20);
  const auto large = bounded("merge sharded", dir_);
  EXPECT_EQ(large.exit_code, 2) << large.output;
  EXPECT_NE(large.output.find("sharded/shards/shard-1-of-2.json: 300 MiB; reading it needs"),
            std::string::npos)
      << large.output;
}

// A journal line of white space is skipped before the parser would keep it, and named.
TEST_F(HostileResults, AJournalLineOfWhiteSpaceIsSkippedByLineNumber) {
  std::ofstream(dir_ / "out/results.journal", std::ios::app)
      << "{\"record\": " << std::string(2 << 20, ' ') << "{}}\n";
  const auto shown = bounded("show out", dir_);
  EXPECT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_NE(shown.output.find("out/results.journal: line 1: skipped (holds more than 1048576 "
                              "bytes of white space in a row (at byte 1048587))"),
            std::string::npos)
      << shown.output.substr(0, 2000);
}

// `convlab slurm` asks for no more shards than the plan has problem groups.
TEST_F(HostileResults, MoreSlurmShardsThanProblemGroupsAreRefused) {
  const auto refused = bounded("slurm small.yaml --shards 1000000 --out slurmed", dir_);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("--shards 1000000: the plan has 2 problem groups"),
            std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("so at most 2 shards"), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(dir_ / "slurmed/slurm"));
  EXPECT_EQ(bounded("slurm small.yaml --shards 2 --out slurmed", dir_).exit_code, 0);
}

}  // namespace
}  // namespace convlab
