// A page with a figure gnuplot could not draw and a table of every implementation against one, in
// a real browser (headless Chromium through WebDriver): the error stands where the figure would
// be, visible and announced, the other figures are drawn, and the --vs table sorts and filters
// like any table. Screenshots of both go to CONVLAB_SCREENSHOTS. Skipped, with the reason, where
// Chromium cannot be started.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "notebook_test_support.hpp"

#ifndef CONVLAB_HAVE_HTTPLIB
TEST(FailuresInBrowser, DrivenThroughWebDriver) {
  GTEST_SKIP() << "cpp-httplib was not found when the tests were configured "
                  "(scripts/install-deps.sh build installs libcpp-httplib-dev)";
}
#else
#include "webdriver.hpp"

namespace convlab {
namespace {

using namespace notebook_test;
using nlohmann::json;

// The fixture with a figure gnuplot cannot draw (a logarithmic axis over errors that are all 0)
// and a table against openmp, both placed by the discussion.
void add_failures_fixture(const fs::path& root) {
  add_fixture(root, "failures");
  std::string config = read_file(root / "configs/failures.yaml");
  config.insert(config.find("figures:\n") + 9,
                "  - name: zero-on-log\n"
                "    title: The largest error of the baseline on a logarithmic axis\n"
                "    x: image.size\n"
                "    y: max_abs_error\n"
                "    where: implementation=sequential,kernel.size=3\n"
                "    log: y\n");
  config.insert(config.find("tables:\n") + 8,
                "  - name: against-openmp\n"
                "    title: Every implementation against OpenMP\n"
                "    vs: openmp\n");
  write_file(root / "configs/failures.yaml", config);
  write_file(root / "experiments/failures.md",
             "How do the others fare against OpenMP?\n\n{{table: against-openmp}}\n\n"
             "The errors on a logarithmic axis:\n\n{{figure: zero-on-log}}\n");
}

class FailuresInBrowser : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = new Scratch("notebook-failures");
    add_failures_fixture(scratch_->path());
    build_ = convlab(scratch_->path(), "notebook");
    try {
      browser_ = Browser::start().release();
    } catch (const BrowserUnavailable& error) {
      unavailable_ = error.what();
    }
  }
  static void TearDownTestSuite() {
    delete browser_;
    browser_ = nullptr;
    delete scratch_;
    scratch_ = nullptr;
  }
  void SetUp() override {
    // Written, with one figure not drawn: status 1.
    ASSERT_EQ(build_.exit_code, 1) << build_.output;
    if (!browser_) GTEST_SKIP() << "no browser: " << unavailable_;
    browser_->console_log();
    browser_->open("file://" + (scratch_->path() / "outputs/notebook/failures.html").string());
    for (int attempt = 0; attempt < 50; ++attempt) {
      if (browser_
              ->execute("return document.readyState === 'complete' && "
                        "document.documentElement.classList.contains('scripted');")
              .get<bool>())
        return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL() << "the notebook's script did not run";
  }

  static void save(const std::string& name, const std::string& png) {
    fs::create_directories(CONVLAB_SCREENSHOTS);
    write_file(fs::path(CONVLAB_SCREENSHOTS) / (name + ".png"), png);
  }

  static inline Scratch* scratch_ = nullptr;
  static inline CommandRun build_;
  static inline Browser* browser_ = nullptr;
  static inline std::string unavailable_;
};

TEST_F(FailuresInBrowser, TheErrorStandsWhereTheFigureWouldBe) {
  const json error = browser_->execute(R"(
    var alert = document.querySelector('.figure-error[role=alert]');
    if (!alert) return null;
    var box = alert.getBoundingClientRect();
    var cell = alert.closest('section.cell');
    return {text: alert.textContent, height: box.height, width: box.width, cell: cell.id,
            classes: cell.className,
            caption: alert.parentNode.querySelector('figcaption').textContent};)");
  ASSERT_FALSE(error.is_null());
  EXPECT_GT(error["height"].get<double>(), 20);
  EXPECT_GT(error["width"].get<double>(), 300);
  EXPECT_NE(error["classes"].get<std::string>().find("cell-error"), std::string::npos);
  const std::string text = error["text"];
  EXPECT_NE(text.find("gnuplot failed on figure zero-on-log"), std::string::npos) << text;
  EXPECT_NE(text.find("\"zero-on-log.gp\" line "), std::string::npos) << text;
  EXPECT_NE(text.find("all points y value undefined"), std::string::npos) << text;
  EXPECT_NE(error["caption"].get<std::string>().find(
                "The largest error of the baseline on a logarithmic axis."),
            std::string::npos);
  // It stands where the discussion placed the figure: after its paragraph.
  const json order = browser_->execute(
      "return Array.from(document.querySelectorAll('section.cell')).map(function (s) {"
      " return s.id; });");
  std::vector<std::string> ids;
  for (const auto& id : order) ids.push_back(id.get<std::string>());
  ASSERT_GE(ids.size(), 5u);
  EXPECT_EQ(std::vector<std::string>(ids.begin(), ids.begin() + 5),
            (std::vector<std::string>{"description", "discussion", "cell-table-1", "discussion-2",
                                      error["cell"].get<std::string>()}));
  // The other figures are drawn.
  const int drawn =
      browser_
          ->execute("return document.querySelectorAll('section.cell-figure svg.plot-svg').length;")
          .get<int>();
  EXPECT_EQ(drawn, 5);
  save("figure-error-cell",
       browser_->element_screenshot_png(browser_->find("#" + error["cell"].get<std::string>())));
  for (const LogEntry& entry : browser_->console_log())
    EXPECT_NE(entry.level, "SEVERE") << entry.message;
}

TEST_F(FailuresInBrowser, TheTableAgainstOpenmpSortsAndFilters) {
  const std::string table = browser_->find("#table-against-openmp table");
  const auto header = [&] {
    return browser_
        ->execute(
            "return Array.from(arguments[0].querySelectorAll('thead th')).map("
            "function (th) { return th.textContent; });",
            json::array({browser_->element_argument(table)}))
        .get<std::vector<std::string>>();
  };
  EXPECT_EQ(header(), (std::vector<std::string>{"Image, Kernel", "openmp median", "sequential",
                                                "cuda_global", "cuda_shared"}));
  const auto column = [&](int index) {
    return browser_
        ->execute(
            "var column = arguments[1];"
            "return Array.from(arguments[0].querySelectorAll('tbody tr')).filter("
            "function (tr) { return !tr.hidden && tr.style.display !== 'none'; }).map("
            "function (tr) { return tr.children[column].textContent; });",
            json::array({browser_->element_argument(table), index}))
        .get<std::vector<std::string>>();
  };
  const auto cuda = column(4);
  ASSERT_EQ(cuda.size(), 4u);
  for (const std::string& cell : cuda)
    EXPECT_NE(cell.find("x, faster (p = "), std::string::npos) << cell;
  // Sorting by the cuda_shared column orders its rows by the ratio.
  browser_->click(browser_->find("#table-against-openmp thead th:nth-child(5) button"));
  const auto sorted = column(4);
  std::vector<double> ratios;
  for (const std::string& cell : sorted) ratios.push_back(std::stod(cell));
  EXPECT_TRUE(std::is_sorted(ratios.begin(), ratios.end()) ||
              std::is_sorted(ratios.rbegin(), ratios.rend()))
      << json(sorted).dump();
  // Filtering keeps the rows of one kernel.
  browser_->type(browser_->find("#table-against-openmp .table-filter"), "gaussian7");
  EXPECT_EQ(column(0).size(), 2u);
  save("versus-table", browser_->element_screenshot_png(browser_->find("#table-against-openmp")));
}

}  // namespace
}  // namespace convlab
#endif
