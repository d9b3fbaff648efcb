// A discussion that places figures and tables and computes values, in a real browser (headless
// Chromium through WebDriver): the cells stand where the prose places them, the placed figure is
// drawn and answers a hover, computed values and a derived column show the numbers the results
// give. Skipped, with the reason, where Chromium cannot be started.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "browser_suite.hpp"
#include "core/number_text.hpp"
#include "notebook_test_support.hpp"

#ifndef CONVLAB_HAVE_HTTPLIB
TEST(PlacementInBrowser, DrivenThroughWebDriver) {
  GTEST_SKIP() << "cpp-httplib was not found when the tests were configured "
                  "(scripts/install-deps.sh build installs libcpp-httplib-dev)";
}
#else
#include "webdriver.hpp"

namespace convlab {
namespace {

using namespace notebook_test;
using nlohmann::json;

const char* const kDiscussion =
    "# Threads\n"
    "\n"
    "T(1) / (2 T(2)) = {{ median_ms[implementation=openmp,params.threads=1,image.width=1024,"
    "kernel.size=7] / (2 * median_ms[implementation=openmp,params.threads=2,image.width=1024,"
    "kernel.size=7]) | .3f }} on the large image.\n"
    "\n"
    "{{figure: efficiency}}\n"
    "\n"
    "The derived column says {{ derive.eff2[implementation=openmp,params.threads=2,"
    "image.width=1024,kernel.size=7] | .3f }}; {{ count(median_ms[implementation=openmp]) }} "
    "OpenMP points, and the shared-memory kernel is {{ geomean(speedup[implementation=cuda_shared])"
    " | x }} faster than the baseline.\n"
    "{{table: eff-table}}\n";

const char* const kDerive =
    "derive:\n"
    "  eff2: \"median_ms[params.threads=1] / (params.threads * median_ms)\"\n";

const char* const kTable =
    "  - name: eff-table\n"
    "    title: Efficiency from a derived column\n"
    "    rows: image.size\n"
    "    columns: params.threads\n"
    "    value: derive.eff2\n"
    "    where: \"implementation=openmp,kernel.size=7\"\n";

// The fixture as the experiment "placed", with the discussion above, a derived column and a
// table of it.
void add_placed_fixture(const fs::path& root) {
  add_fixture(root, "placed");
  std::string config = read_file(root / "configs" / "placed.yaml");
  config += kDerive;
  config.insert(config.find("tables:\n") + 8, kTable);
  write_file(root / "configs" / "placed.yaml", config);
  write_file(root / "experiments" / "placed.md", kDiscussion);
}

// The fixture's OpenMP median at `threads` on the 1024x1024 image with the 7x7 Gaussian.
double openmp_median(const json& results, int threads) {
  for (const auto& record : results["records"])
    if (record["implementation"] == "openmp" && record["params"]["threads"] == threads &&
        record["image"]["width"] == 1024 && record["kernel"]["size"] == 7)
      return record["timing"]["stats"]["median"].get<double>();
  return NAN;
}

struct PlacedFixtures {
  static constexpr const char* kScratch = "notebook-placement";
  static void add(const fs::path& root) { add_placed_fixture(root); }
};

class PlacementInBrowser : public BrowserSuite<PlacedFixtures> {
 protected:
  void SetUp() override {
    BrowserSuite::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    browser_->console_log();
    browser_->open("file://" + (scratch_->path() / "outputs/notebook/placed.html").string());
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

  static json results() {
    return json::parse(read_file(scratch_->path() / "outputs/placed/results.json"));
  }
};

TEST_F(PlacementInBrowser, CellsStandWhereTheDiscussionPlacesThem) {
  const json ids = browser_->execute(
      "return Array.from(document.querySelectorAll('section.cell')).map(function (s) {"
      " return s.id; });");
  std::vector<std::string> order;
  for (const auto& id : ids) order.push_back(id.get<std::string>());
  ASSERT_GE(order.size(), 6u);
  const std::vector<std::string> leading = {"description",  "discussion",   "cell-figure-1",
                                            "discussion-2", "cell-table-1", "config"};
  EXPECT_EQ(std::vector<std::string>(order.begin(), order.begin() + 6), leading);
  // The placed figure is the efficiency figure, drawn, and below the first paragraph on screen.
  const double figure_top =
      browser_
          ->execute(
              "var svg = document.querySelector('#cell-figure-1 svg');"
              "var r = svg.getBoundingClientRect(); return r.height > 50 ? r.top : -1;")
          .get<double>();
  const double prose_top =
      browser_
          ->execute("return document.querySelector('#discussion p').getBoundingClientRect().top;")
          .get<double>();
  EXPECT_GT(figure_top, prose_top);
  EXPECT_NE(browser_->execute("return document.querySelector('#cell-figure-1').textContent;")
                .get<std::string>()
                .find("OpenMP parallel efficiency"),
            std::string::npos);
  // Hovering a point of the placed figure shows its record.
  const auto targets = browser_->find_all("#cell-figure-1 .hover-target");
  ASSERT_FALSE(targets.empty());
  browser_->hover(targets.front());
  const json tip = browser_->execute(R"(
    var tip = arguments[0].ownerSVGElement.parentNode.querySelector('.tooltip');
    return {hidden: tip.hidden, text: tip.textContent};)",
                                     json::array({browser_->element_argument(targets.front())}));
  EXPECT_FALSE(tip["hidden"].get<bool>());
  EXPECT_NE(tip["text"].get<std::string>().find("Implementationopenmp"), std::string::npos)
      << tip.dump();
  for (const LogEntry& entry : browser_->console_log())
    EXPECT_NE(entry.level, "SEVERE") << entry.message;
}

TEST_F(PlacementInBrowser, ComputedValuesShowTheResultsNumbers) {
  const json data = results();
  const double one = openmp_median(data, 1), two = openmp_median(data, 2);
  double product = 1, count = 0;
  for (const auto& record : data["records"])
    if (record["implementation"] == "cuda_shared" && record["status"] == "ok") {
      product *= record["derived"]["speedup"].get<double>();
      ++count;
    }
  const json values = browser_->execute(
      "return Array.from(document.querySelectorAll('#discussion .value, #discussion-2 .value'))"
      ".map(function (v) { return [v.textContent, v.getAttribute('title')]; });");
  ASSERT_EQ(values.size(), 4u) << values.dump();
  EXPECT_EQ(values[0][0], format_fixed(one / (2 * two), 3));
  EXPECT_EQ(values[1][0], format_fixed(one / (2 * two), 3));  // the derived column agrees
  EXPECT_EQ(values[2][0], "12");
  EXPECT_EQ(values[3][0], format_number(std::pow(product, 1 / count), 3) + "x");
  // Hovering a value names its expression and its full value.
  EXPECT_NE(values[0][1].get<std::string>().find(" | .3f}}"), std::string::npos) << values[0][1];
  EXPECT_NE(values[0][1].get<std::string>().find("= 0."), std::string::npos) << values[0][1];
  // The table of the derived column: the 1024 row, 2 threads.
  const std::string table =
      browser_->execute("return document.querySelector('#cell-table-1').textContent;")
          .get<std::string>();
  EXPECT_NE(table.find("Efficiency from a derived column"), std::string::npos) << table;
  EXPECT_NE(table.find(format_number(one / (2 * two), 3)), std::string::npos) << table;
}

}  // namespace
}  // namespace convlab
#endif
