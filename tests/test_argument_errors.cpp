// Every file in tests/data/bad_arguments/ is a command line with one mistake (an .args file: the
// arguments after `convlab`, `# env: NAME=VALUE` lines for its environment and `# expect:` lines
// for its message). convlab must refuse it with exit status 2 and a message holding each expected
// text, within 10 s and 1 GiB, and must write nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

const char* kConfig = R"(name: arguments
images:
  - {type: generated, sizes: [16], channels: 1}
kernels:
  - {type: gaussian, size: 3}
implementations:
  sequential: {}
  cuda_global: {}
)";

std::vector<std::string> bad_arguments() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(fs::path(CONVLAB_TEST_DATA) / "bad_arguments"))
    if (entry.path().extension() == ".args") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::set<std::string> everything_in(const fs::path& dir) {
  std::set<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    paths.insert(fs::relative(entry.path(), dir).string());
  return paths;
}

class BadArguments : public ::testing::TestWithParam<std::string> {};

TEST_P(BadArguments, AreRefusedWithExitTwoAndAMessageAndWriteNothing) {
  const fs::path dir = testing::fresh_directory("bad-arguments-" + GetParam());
  testing::write_text(dir / "config.yaml", kConfig);
  const std::string text =
      testing::read_text(fs::path(CONVLAB_TEST_DATA) / "bad_arguments" / (GetParam() + ".args"));
  std::vector<std::string> expected;
  std::string environment, command;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# expect: ", 0) == 0)
      expected.push_back(line.substr(10));
    else if (line.rfind("# env: ", 0) == 0)
      environment += line.substr(7) + " ";
    else if (!line.empty() && line[0] != '#')
      command = line;
  }
  ASSERT_FALSE(expected.empty()) << "corpus file without '# expect:' lines";
  ASSERT_FALSE(command.empty()) << "corpus file without a command line";
  const std::set<std::string> before = everything_in(dir);
  const auto result = testing::run_shell(
      "ulimit -v 1048576; " + environment + "timeout 10 \"$CONVLAB\" " + command, dir);
  EXPECT_EQ(result.exit_code, 2) << command << ": " << result.output;
  for (const auto& needle : expected)
    EXPECT_NE(result.output.find(needle), std::string::npos)
        << "message lacks '" << needle << "': " << result.output;
  EXPECT_EQ(everything_in(dir), before) << "a refused command wrote files";
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadArguments, ::testing::ValuesIn(bad_arguments()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace convlab
