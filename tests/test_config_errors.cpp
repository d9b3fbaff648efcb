// Every file in tests/data/bad/ is a config with one mistake. `convlab run` must refuse it with
// exit code 2 and one message naming the file, a line number and each `# expect:` text, and
// must create no results.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> bad_configs() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(fs::path(CONVLAB_TEST_DATA) / "bad"))
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

class BadConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(BadConfig, IsRefusedWithExitTwoAndAMessageNamingTheKey) {
  const fs::path dir = testing::fresh_directory("bad-" + GetParam());
  std::string text =
      testing::read_text(fs::path(CONVLAB_TEST_DATA) / "bad" / (GetParam() + ".yaml"));
  text = std::regex_replace(text, std::regex("@DATA@"), CONVLAB_TEST_DATA);
  testing::write_text(dir / "config.yaml", text);

  std::vector<std::string> expected;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("# expect: ", 0) == 0) expected.push_back(line.substr(10));
  ASSERT_FALSE(expected.empty()) << "corpus file without '# expect:' lines";

  for (const char* command : {"run", "validate"}) {
    const auto result = testing::run_convlab(std::string(command) + " config.yaml", dir);
    EXPECT_EQ(result.exit_code, 2) << command << ": " << result.output;
    EXPECT_TRUE(std::regex_search(result.output, std::regex("config\\.yaml:[0-9]+:[0-9]+: ")))
        << command << " message lacks file:line:column: " << result.output;
    for (const auto& needle : expected)
      EXPECT_NE(result.output.find(needle), std::string::npos)
          << command << " message lacks '" << needle << "': " << result.output;
    EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1)
        << "expected exactly one line: " << result.output;
  }
  EXPECT_FALSE(fs::exists(dir / "outputs")) << "a refused config created outputs/";
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadConfig, ::testing::ValuesIn(bad_configs()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace convlab
