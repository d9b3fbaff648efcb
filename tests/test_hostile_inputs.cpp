// Inputs made to hang or exhaust convlab: each must be refused (exit 2, a message naming the
// path) within 10 s and 1 GiB of address space, the bounds docs/config.md promises. The corpus in
// tests/data/bad covers what a config file can hold; these cover what needs the file system
// (FIFOs, devices, oversized files) or the bounds themselves.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
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

}  // namespace
}  // namespace convlab
