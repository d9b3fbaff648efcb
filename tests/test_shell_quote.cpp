// core/shell_quote.hpp: every command line convlab prints or writes quotes its words with it, so
// each hostile word must come back from a real shell as exactly one word, unchanged, and run
// nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/shell_quote.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string>& hostile_words() {
  static const std::vector<std::string> words = {
      "plain",
      "",
      "two words",
      "it's",
      "''",
      "'\\''",
      "$(touch ran-1)",
      "`touch ran-2`",
      "a;touch ran-3;b",
      "x && touch ran-4",
      "line\ntouch ran-5",
      "$HOME ${HOME} $((1+1))",
      "\"double\" \\backslash\\",
      "*.yaml ? [a-z]",
      "~root",
      "-n",
      "tab\there",
      "a|b>c<d&e",
      "!history",
      "#comment",
      "ünïcödé ×",
  };
  return words;
}

class ShellQuote : public testing::DirectoryTest {};

// printf prints each word it gets between < and >: the shell must hand over each quoted word
// whole and as written.
TEST_F(ShellQuote, EveryWordComesBackFromTheShellAsItWas) {
  for (const auto quote : {shell_quoted, shell_word}) {
    std::string script = "printf '<%s>\\n'";
    std::string expected;
    for (const auto& word : hostile_words()) {
      script += " " + quote(word);
      expected += "<" + word + ">\n";
    }
    testing::write_text(dir_ / "words.sh", script + "\n");
    const auto printed = testing::run_shell("sh words.sh", dir_);
    EXPECT_EQ(printed.exit_code, 0) << printed.output;
    EXPECT_EQ(printed.output, expected) << script;
    for (const auto& entry : fs::directory_iterator(dir_))
      EXPECT_NE(entry.path().filename().string().rfind("ran-", 0), 0u) << entry.path();
  }
}

TEST(ShellWord, PlainWordsStayAsTheyAreForPeopleToRead) {
  EXPECT_EQ(shell_word("configs/quick.yaml"), "configs/quick.yaml");
  EXPECT_EQ(shell_word("kernel.size<=5"), "'kernel.size<=5'");
  EXPECT_EQ(shell_word("out dir"), "'out dir'");
  EXPECT_EQ(shell_word(""), "''");
  EXPECT_EQ(shell_quoted("plain"), "'plain'");
  EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
}

}  // namespace
}  // namespace convlab
