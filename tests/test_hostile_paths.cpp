// Paths no results file can hold, or no message should repeat: a config path that is not UTF-8
// is refused before anything runs, naming the byte, and nothing is measured and lost; a path of
// 128 KB gives messages of a line's worth, in every command that names it.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

class HostilePaths : public testing::DirectoryTest {
 protected:
  void write_tiny(const fs::path& path) {
    testing::write_text(path,
                        "name: tiny\n"
                        "images:\n  - {type: generated, sizes: [16], channels: 1, seed: 1}\n"
                        "kernels:\n  - {type: box, size: 3}\n"
                        "implementations:\n  sequential: {}\n"
                        "measure: {warmup: 0, min_reps: 2, max_reps: 2, max_seconds: 0.05}\n");
  }
};

TEST_F(HostilePaths, AConfigPathThatIsNotUtf8IsRefusedBeforeAnythingRuns) {
  const std::string name =
      "c\xff"
      "x.yaml";
  write_tiny(dir_ / name);
  const auto ran = testing::run_shell("\"$CONVLAB\" run \"$(printf 'c\\377x.yaml')\"", dir_);
  EXPECT_EQ(ran.exit_code, 2) << ran.output;
  EXPECT_NE(ran.output.find("is not UTF-8 text (byte 0xFF at 2)"), std::string::npos) << ran.output;
  EXPECT_EQ(ran.output.find("json.exception"), std::string::npos) << ran.output;
  // Nothing was measured: no results folder, no journal.
  EXPECT_FALSE(fs::exists(dir_ / "outputs")) << ran.output;
  // validate reads the file and says the same of its path.
  const auto validated =
      testing::run_shell("\"$CONVLAB\" validate \"$(printf 'c\\377x.yaml')\"", dir_);
  EXPECT_EQ(validated.exit_code, 2) << validated.output;
  EXPECT_NE(validated.output.find("the path is not UTF-8 text (byte 0xFF at 2)"), std::string::npos)
      << validated.output;
  // A config whose text is not UTF-8 (an image path in it) is refused at its line.
  testing::write_text(dir_ / "latin1.yaml",
                      "name: latin\nimages:\n  - {type: file, path: \"caf\xe9.png\"}\n");
  const auto latin = testing::run_convlab("run latin1.yaml", dir_);
  EXPECT_EQ(latin.exit_code, 2) << latin.output;
  EXPECT_NE(latin.output.find("latin1.yaml:3:28: not UTF-8 text (byte 0xE9 at 48)"),
            std::string::npos)
      << latin.output;
}

// A path of about 128 KB (the most one argument can hold): each command's message is a line's
// worth, its start and its end.
TEST_F(HostilePaths, ALongPathGivesAMessageOfALinesWorth) {
  std::string path;
  while (path.size() < 130000) path += "a/";
  path += "x.yaml";
  testing::write_text(dir_ / "path.txt", path);
  for (const char* command : {"validate", "run", "show", "notebook", "export", "merge", "gallery",
                              "search", "report", "compare"}) {
    const std::string arguments = std::string(command) == "compare"
                                      ? " \"$(cat path.txt)\" \"$(cat path.txt)\""
                                      : " \"$(cat path.txt)\"";
    const auto ran = testing::run_shell("\"$CONVLAB\" " + std::string(command) + arguments, dir_);
    EXPECT_NE(ran.exit_code, 0) << command;
    EXPECT_LT(ran.output.size(), 2000u) << command << ": " << ran.output.substr(0, 400);
    EXPECT_NE(ran.output.find("x.yaml"), std::string::npos)
        << command << ": " << ran.output.substr(0, 400);
  }
}

}  // namespace
}  // namespace convlab
