// One figure never takes the others with it. Hostile titles (a wrapped panel title whose line
// starts with a quote, backslashes, both quotes, backquotes, @, braces, system(...), UTF-8) are
// drawn as text; a figure gnuplot cannot draw (a broken declaration: a logarithmic axis over
// values that are all zero) becomes an error cell naming the declaration and gnuplot's line, while
// every other figure and page is made and the exit status and message name what failed.
#include <gtest/gtest.h>

#include <regex>

#include "notebook_test_support.hpp"

namespace convlab {
namespace {

using namespace notebook_test;

// Every kernel name of an experiment's records replaced by `name` plus its size: the figures'
// panels (one per kernel) are titled with it.
void rename_kernels(const fs::path& results_path, const std::string& name) {
  auto results = nlohmann::json::parse(read_file(results_path));
  for (auto& record : results["records"])
    record["kernel"]["name"] = name + " " + std::to_string(record["kernel"]["size"].get<int>());
  write_file(results_path, results.dump(1));
}

// A figure of `name` that gnuplot cannot draw: the largest error of the exact sequential points
// (every one 0) on a logarithmic y axis ("all points y value undefined!").
void add_broken_figure(const fs::path& root, const std::string& name) {
  const fs::path config_path = root / "configs" / (name + ".yaml");
  std::string config = read_file(config_path);
  const std::size_t figures = config.find("figures:\n");
  ASSERT_NE(figures, std::string::npos);
  config.insert(figures + 9,
                "  - name: zero-on-log\n"
                "    title: The largest error of the baseline on a logarithmic axis\n"
                "    x: image.size\n"
                "    y: max_abs_error\n"
                "    where: implementation=sequential,kernel.size=3\n"
                "    log: y\n");
  write_file(config_path, config);
}

std::vector<std::string> commands_that_ran(const fs::path& root) {
  std::vector<std::string> ran;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.path().filename().string().rfind("ran-", 0) == 0)
      ran.push_back(entry.path().filename().string());
  return ran;
}

class FailingFigures : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed";
    scratch_ = std::make_unique<Scratch>("failing-figures");
    add_fixture(root(), "other");
  }
  const fs::path& root() const { return scratch_->path(); }
  fs::path notebook() const { return root() / "notebook"; }
  CommandRun make_notebook() const {
    return run_in(
        root(), "ulimit -v 4194304; timeout 120 '" CONVLAB_EXECUTABLE "' notebook --out notebook");
  }
  std::unique_ptr<Scratch> scratch_;
};

TEST_F(FailingFigures, HostilePanelTitlesAreDrawnAsTextAndEveryPageIsMade) {
  add_fixture(root(), "titles");
  // Two panels side by side wrap a title longer than 48 characters at its commas: the second line
  // starts with a quote.
  rename_kernels(root() / "outputs/titles/results.json",
                 "Gaussian kernel of the author, 'quoted' first, \"double\", back\\slash\\, "
                 "`touch ran-1`, @macro {braces} system(\"touch ran-2\"), UTF-8 \xC3\xA9 "
                 "\xE6\x97\xA5\xE6\x9C\xAC");
  write_file(root() / "experiments/titles.md", "A discussion without values.\n");
  const CommandRun made = make_notebook();
  EXPECT_EQ(made.exit_code, 0) << made.output;
  EXPECT_EQ(commands_that_ran(root()), std::vector<std::string>{});
  for (const char* page : {"index.html", "titles.html", "other.html"})
    EXPECT_TRUE(fs::exists(notebook() / page)) << page << "\n" << made.output;
  // The figure with the hostile panel titles is drawn, its titles as text.
  const std::string svg = read_file(notebook() / "figures/titles/time-vs-size.svg");
  ASSERT_FALSE(svg.empty()) << made.output;
  // Every line of the wrapped title, as text: the one starting with a quote too.
  for (const char* line : {"<text>Gaussian kernel of the author</text>",
                           "<text>&#39;quoted&#39; first</text>", "<text>&quot;double&quot;</text>",
                           "<text>back\\slash\\</text>", "<text>`touch ran-1`</text>",
                           "<text>@macro {braces} system(&quot;touch ran-2&quot;)</text>",
                           "<text>UTF-8 \xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC 3</text>"})
    EXPECT_NE(svg.find(line), std::string::npos) << line << "\n" << svg.substr(0, 3000);
  EXPECT_EQ(read_file(notebook() / "titles.html").find("figure not drawn"), std::string::npos);
}

TEST_F(FailingFigures, AFigureGnuplotCannotDrawCostsOnlyThatFigure) {
  add_fixture(root(), "broken");
  add_broken_figure(root(), "broken");
  const CommandRun made = make_notebook();
  // Written, but not all drawn: status 1, the figure named with gnuplot's line.
  EXPECT_EQ(made.exit_code, 1) << made.output;
  EXPECT_NE(made.output.find("broken: figure 'zero-on-log': gnuplot stopped at \"zero-on-log.gp\" "
                             "line "),
            std::string::npos)
      << made.output;
  EXPECT_NE(made.output.find("all points y value undefined"), std::string::npos) << made.output;
  EXPECT_NE(made.output.find("1 figure could not be drawn"), std::string::npos) << made.output;
  // Every page is made, and every other figure of the broken experiment is drawn.
  for (const char* file :
       {"index.html", "broken.html", "other.html", "figures/broken/time-vs-size.svg",
        "figures/broken/efficiency.svg", "figures/other/time-vs-size.svg"})
    EXPECT_TRUE(fs::exists(notebook() / file)) << file;
  EXPECT_FALSE(fs::exists(notebook() / "figures/broken/zero-on-log.svg"));
  // The error stands where the figure would be: its caption, the declaration and gnuplot's line.
  const std::string page = read_file(notebook() / "broken.html");
  const std::size_t error = page.find("<div class=\"figure-error\" role=\"alert\">");
  ASSERT_NE(error, std::string::npos);
  EXPECT_NE(page.find("gnuplot failed on figure <code>zero-on-log</code>", error),
            std::string::npos);
  EXPECT_NE(page.find("&quot;zero-on-log.gp&quot; line ", error), std::string::npos);
  EXPECT_NE(page.find("The largest error of the baseline on a logarithmic axis.", error),
            std::string::npos);
  EXPECT_EQ(read_file(notebook() / "other.html").find("figure-error"), std::string::npos);
  // Made again, the page says so again: a page with a failed figure is never taken as current.
  const CommandRun again = make_notebook();
  EXPECT_EQ(again.exit_code, 1) << again.output;
  EXPECT_NE(again.output.find("figure 'zero-on-log'"), std::string::npos) << again.output;
}

// An experiment whose results do not load costs its own page: the others are made, and the
// message and the status say which did not.
TEST_F(FailingFigures, AnExperimentThatDoesNotLoadCostsOnlyItsPage) {
  add_fixture(root(), "unreadable");
  write_file(root() / "outputs/unreadable/results.json", "{ not json");
  const CommandRun made = make_notebook();
  EXPECT_EQ(made.exit_code, 2) << made.output;
  EXPECT_NE(made.output.find("outputs/unreadable/results.json"), std::string::npos) << made.output;
  EXPECT_NE(made.output.find("1 experiment could not be read"), std::string::npos) << made.output;
  EXPECT_TRUE(fs::exists(notebook() / "other.html"));
  EXPECT_TRUE(fs::exists(notebook() / "index.html"));
}

}  // namespace
}  // namespace convlab
