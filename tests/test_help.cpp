// Every command's --help: exit 0, a usage line first, lines that fit 100 columns, no tabs or
// trailing blanks, and every option the usage names explained on a line of its own.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace convlab {
namespace {

const std::vector<std::string> kCommands = {"",      "run",     "validate", "list",    "schema",
                                            "show",  "gallery", "export",   "compare", "version",
                                            "watch", "report",  "history"};

class Help : public ::testing::TestWithParam<std::string> {};

TEST_P(Help, FitsAHundredColumnsAndExplainsEveryOption) {
  const std::string command = GetParam();
  const auto result = testing::run_shell("\"$CONVLAB\" " + command + " --help 2>/dev/null");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::istringstream lines(result.output);
  std::string line, usage;
  std::set<std::string> explained;
  bool in_usage = true;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (number == 1) {
      EXPECT_EQ(line.rfind("usage: convlab", 0), 0u) << "first line: " << line;
    }
    EXPECT_LE(line.size(), 100u) << "line " << number << " is too wide: " << line;
    EXPECT_EQ(line.find('\t'), std::string::npos) << "line " << number << ": " << line;
    EXPECT_TRUE(line.empty() || line.back() != ' ') << "line " << number << " ends in a blank";
    // A quote glued to a word ("and\"same") is text that lost its space.
    EXPECT_FALSE(std::regex_search(line, std::regex("[a-z]\"[a-z]"))) << line;
    if (line.empty()) in_usage = false;
    if (in_usage) usage += line + "\n";
    std::smatch option;
    if (std::regex_search(line, option, std::regex("^  (--[a-z-]+)"))) explained.insert(option[1]);
  }
  const std::regex named("\\[(--[a-z-]+)");
  for (auto it = std::sregex_iterator(usage.begin(), usage.end(), named);
       it != std::sregex_iterator(); ++it)
    EXPECT_TRUE(explained.count((*it)[1])) << (*it)[1] << " is in the usage but not explained:\n"
                                           << result.output;
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, Help, ::testing::ValuesIn(kCommands), [](const auto& info) {
  return info.param.empty() ? std::string("convlab") : info.param;
});

}  // namespace
}  // namespace convlab
