// Every string from data reaches a gnuplot script through one quoting (figures/plot_style.hpp).
// Here gnuplot itself reads the quoted strings back: each hostile text must come out exactly as it
// went in (after plot_text), and none may end the string, continue the command or run anything.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "figures/figure_types.hpp"
#include "figures/plot_style.hpp"
#include "report_test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using report_test::read_file;
using report_test::ScratchDirectory;
using report_test::write_file;

bool have_gnuplot() {
  return std::system("command -v gnuplot >/dev/null 2>&1") == 0;
}

// Texts an attacker (or an unlucky title) puts where a string goes. "ran-N" appears in the scratch
// folder only if gnuplot ran command N.
const std::vector<std::string>& hostile_texts() {
  static const std::vector<std::string> texts = {
      "'starts with a quote",
      "''two quotes first",
      "'''",
      "'",
      "ends with a quote'",
      "a 'quoted' word, and \"double\" ones",
      "back\\slash \\n \\\\ \\140 \\",
      "\\",
      "\"",
      "a `touch ran-1` command",
      "`touch ran-2`",
      "@macro @ {braces} } { ~ ^ _ $x #not-a-comment ; print 'x'",
      "system(\"touch ran-3\")",
      "value=system('touch ran-4')",
      "UTF-8: é ü ß × ≥ µ 日本語 🚀",
      "semicolon; set output 'ran-5'",
      "",
  };
  return texts;
}

// gnuplot's own reading of `expressions`, one printed line each.
std::vector<std::string> printed_by_gnuplot(const fs::path& folder,
                                            const std::vector<std::string>& expressions) {
  std::string script = "set encoding utf8\nset print \"printed.txt\"\n";
  for (const std::string& expression : expressions) script += "print " + expression + "\n";
  write_file(folder / "quoting.gp", script);
  const std::string command =
      "cd '" + folder.string() + "' && LC_ALL=C.UTF-8 gnuplot quoting.gp > gnuplot.log 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << read_file(folder / "gnuplot.log") << script;
  std::vector<std::string> lines;
  const std::string printed = read_file(folder / "printed.txt");
  size_t start = 0;
  for (size_t end = printed.find('\n'); end != std::string::npos;
       start = end + 1, end = printed.find('\n', start))
    lines.push_back(printed.substr(start, end - start));
  return lines;
}

std::vector<std::string> files_named_ran(const fs::path& folder) {
  std::vector<std::string> ran;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().filename().string().rfind("ran-", 0) == 0)
      ran.push_back(entry.path().filename().string());
  return ran;
}

TEST(GnuplotQuoting, HostileTextsReadBackAsWrittenAndRunNothing) {
  if (!have_gnuplot()) GTEST_SKIP() << "gnuplot is not installed (scripts/install-deps.sh report)";
  ScratchDirectory scratch("gnuplot-quoting");
  std::vector<std::string> expressions;
  for (const std::string& text : hostile_texts()) {
    const std::string quoted_text = quoted(text);
    // One line of script whatever the text: a newline would end the command.
    EXPECT_EQ(quoted_text.find('\n'), std::string::npos) << quoted_text;
    expressions.push_back(quoted_text);
  }
  const std::vector<std::string> printed = printed_by_gnuplot(scratch.path(), expressions);
  ASSERT_EQ(printed.size(), hostile_texts().size());
  for (size_t i = 0; i < printed.size(); ++i)
    EXPECT_EQ(printed[i], plot_text(hostile_texts()[i])) << expressions[i];
  EXPECT_EQ(files_named_ran(scratch.path()), std::vector<std::string>{});
}

// A title of several lines (a wrapped panel title) is one string with newlines in it; a line that
// starts with a quote was '''...' before, which gnuplot cannot read.
TEST(GnuplotQuoting, LinesJoinedIntoOneStringKeepEveryLine) {
  if (!have_gnuplot()) GTEST_SKIP() << "gnuplot is not installed (scripts/install-deps.sh report)";
  ScratchDirectory scratch("gnuplot-lines");
  const std::vector<std::string> lines = {"'quoted' first", "\"double\" and `touch ran-6`",
                                          "back\\slash\\", "'"};
  const std::vector<std::string> printed =
      printed_by_gnuplot(scratch.path(), {quoted_lines(lines)});
  EXPECT_EQ(printed, lines);
  EXPECT_EQ(files_named_ran(scratch.path()), std::vector<std::string>{});
}

// A control character from a results file is no part of a script line: plot_text makes it a
// space, and quoted() writes any that reach it in octal.
TEST(GnuplotQuoting, ControlCharactersNeverEndTheLine) {
  const std::string text = std::string("a\nb\rc") + '\0' + "d\x1b[31m\x7f";
  EXPECT_EQ(quoted(text).find_first_of(std::string("\n\r\x1b\x7f", 4)), std::string::npos);
  EXPECT_EQ(quoted_lines({text}).find_first_of(std::string("\n\r\x1b\x7f\0", 5)),
            std::string::npos);
  EXPECT_EQ(quoted_lines({"tab\there"}), "\"tab\\011here\"");
}

// The wrapped title of a panel (a machine's long label) whose second line starts with a quote.
TEST(GnuplotQuoting, APanelTitleWrappedBeforeAQuoteIsOneString) {
  FigureData figure;
  figure.panels.resize(2);
  const std::string title =
      "A machine with a long label that wraps, 'quoted part' after the comma, \"and more\"";
  const std::string quoted_title = panel_title(figure, title);
  EXPECT_GT(panel_title_lines(figure, title), 1u);
  EXPECT_EQ(quoted_title.front(), '"');
  EXPECT_EQ(quoted_title.back(), '"');
  EXPECT_NE(quoted_title.find("\\n'quoted part'"), std::string::npos) << quoted_title;
  if (!have_gnuplot()) GTEST_SKIP() << "gnuplot is not installed (scripts/install-deps.sh report)";
  ScratchDirectory scratch("gnuplot-panel-title");
  const std::vector<std::string> printed = printed_by_gnuplot(scratch.path(), {quoted_title});
  ASSERT_GE(printed.size(), 2u);
  EXPECT_EQ(printed[1].rfind("'quoted part'", 0), 0u) << printed[1];
}

}  // namespace
}  // namespace convlab
