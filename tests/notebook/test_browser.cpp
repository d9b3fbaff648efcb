// The notebook in a real browser: headless Chromium driven through WebDriver. The fixture
// experiment and a hostile variant are built with `convlab notebook`; the pages must load with no
// console error, no Content-Security-Policy violation and no request outside the notebook folder;
// a column header sorts its table; hovering a point of every figure shows the record drawn
// there; a key entry hides its series. Screenshots of every page go to the build folder
// (CONVLAB_SCREENSHOTS). Skipped, with the reason, where Chromium cannot be started.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "browser_suite.hpp"
#include "core/number_text.hpp"
#include "notebook_test_support.hpp"

#ifndef CONVLAB_HAVE_HTTPLIB
TEST(BrowserTest, DrivenThroughWebDriver) {
  GTEST_SKIP() << "cpp-httplib was not found when the tests were configured "
                  "(scripts/install-deps.sh build installs libcpp-httplib-dev)";
}
#else
#include "webdriver.hpp"

namespace convlab {
namespace {

using namespace notebook_test;
using nlohmann::json;

struct DemoAndHostileFixtures {
  static constexpr const char* kScratch = "notebook-browser";
  static void add(const fs::path& root) {
    add_fixture(root);
    add_hostile_fixture(root);
  }
};

class BrowserTest : public BrowserSuite<DemoAndHostileFixtures> {
 protected:
  static fs::path notebook() { return scratch_->path() / "outputs" / "notebook"; }
  static std::string url(const std::string& page) {
    return "file://" + (notebook() / page).string();
  }

  // Opens a page and waits until its script has run.
  void open(const std::string& page) {
    browser_->console_log();
    browser_->requested_urls();
    browser_->open(url(page));
    for (int attempt = 0; attempt < 50; ++attempt) {
      if (browser_
              ->execute("return document.readyState === 'complete' && "
                        "document.documentElement.classList.contains('scripted');")
              .get<bool>())
        return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL() << page << ": the notebook's script did not run";
  }

  static void save_screenshot(const std::string& name, const std::string& png) {
    fs::create_directories(CONVLAB_SCREENSHOTS);
    write_file(fs::path(CONVLAB_SCREENSHOTS) / (name + ".png"), png);
  }
};

TEST_F(BrowserTest, PagesLoadWithNoErrorNoPolicyViolationAndNoNetwork) {
  const std::string folder = "file://" + notebook().string() + "/";
  for (const char* page : {"index.html", "fixture-demo.html", "hostile.html"}) {
    SCOPED_TRACE(page);
    open(page);
    // Pictures load lazily: scroll through the page so that every one is asked for.
    browser_->execute("window.scrollTo(0, document.body.scrollHeight);");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (const LogEntry& entry : browser_->console_log()) {
      EXPECT_NE(entry.level, "SEVERE") << entry.message;
      EXPECT_EQ(entry.message.find("Content Security Policy"), std::string::npos) << entry.message;
      EXPECT_EQ(entry.message.find("Refused"), std::string::npos) << entry.message;
    }
    const auto urls = browser_->requested_urls();
    EXPECT_GE(urls.size(), 3u);  // the page, its style and its script at least
    for (const std::string& requested : urls)
      EXPECT_EQ(requested.rfind(folder, 0), 0u) << "a request outside the notebook: " << requested;
    // Every picture and style sheet loaded, none broken.
    EXPECT_EQ(browser_->execute("return Array.from(document.images).filter(function (i) {"
                                " return !(i.complete && i.naturalWidth > 0); }).length;"),
              0);
    save_screenshot(fs::path(page).stem().string(), browser_->page_screenshot_png());
  }
  // KaTeX typeset the discussion's math.
  open("fixture-demo.html");
  EXPECT_GT(
      browser_->execute("return document.querySelectorAll('.math .katex').length;").get<int>(), 0);
  // Hostile text is text: nothing ran, no picture of the attacker's, the words are on the page.
  open("hostile.html");
  const std::string text = browser_->execute("return document.body.innerText;").get<std::string>();
  EXPECT_NE(text.find("<script>alert(1)</script>"), std::string::npos);
  EXPECT_NE(text.find("\"><img src=x onerror=alert(2)>"), std::string::npos);
  EXPECT_NE(text.find("<style>body { display: none }</style>"), std::string::npos);
  EXPECT_EQ(browser_->execute("return document.querySelectorAll('img[src=\"x\"], "
                              "main script:not([type]), main style').length;"),
            0);
  // Kernel names head the panels of a figure, in SVG text.
  const std::string figure_text =
      browser_->execute("return document.querySelector('#figure-time-vs-size svg').textContent;")
          .get<std::string>();
  EXPECT_NE(figure_text.find("gaussian7<script>alert(1)</script> \"><img src=x"), std::string::npos)
      << figure_text;
}

TEST_F(BrowserTest, ClickingAColumnHeaderReordersTheTableAndTheFilterKeepsMatchingRows) {
  open("fixture-demo.html");
  const auto column = [&](int index) {
    return browser_->execute(
        "var column = arguments[0];"
        "return Array.from(document.querySelectorAll('#table-1 tbody tr')).map(function (row) {"
        " return row.cells[column].getAttribute('data-sort'); });",
        json::array({index}));
  };
  const json before = column(1);
  ASSERT_GE(before.size(), 4u);
  const auto numbers = [](const json& keys) {
    std::vector<double> values;
    for (const auto& key : keys)
      if (!key.get<std::string>().empty()) values.push_back(std::stod(key.get<std::string>()));
    return values;
  };
  const auto original = numbers(before);
  ASSERT_FALSE(std::is_sorted(original.begin(), original.end()))
      << "the fixture's first column is sorted already, so sorting could not be seen";
  const std::string header = browser_->find("#table-1 thead th:nth-child(2) button.sort");
  browser_->click(header);
  const auto ascending = numbers(column(1));
  EXPECT_TRUE(std::is_sorted(ascending.begin(), ascending.end()));
  EXPECT_EQ(ascending.size(), original.size());
  EXPECT_EQ(browser_->execute("return document.querySelector('#table-1 thead th:nth-child(2)')"
                              ".getAttribute('aria-sort');"),
            "ascending");
  save_screenshot("table-sorted",
                  browser_->element_screenshot_png(browser_->find("#cell-table-1")));
  browser_->click(header);
  auto descending = numbers(column(1));
  EXPECT_TRUE(std::is_sorted(descending.rbegin(), descending.rend()));
  // The row label column sorts back to the declared order.
  browser_->click(browser_->find("#table-1 thead th:nth-child(1) button.sort"));
  EXPECT_EQ(numbers(column(0)),
            numbers(browser_->execute("return Array.from(document.querySelectorAll("
                                      "'#table-1 tbody th')).map(function (c, i) {"
                                      " return String(i); });")));

  browser_->type(browser_->find("input.table-filter[data-table='table-1']"), "OpenMP");
  const json shown = browser_->execute(
      "return Array.from(document.querySelectorAll('#table-1 tbody tr')).filter(function (row) {"
      " return !row.hidden; }).map(function (row) { return row.cells[0].textContent; });");
  EXPECT_EQ(shown.size(), 3u) << shown.dump();
  for (const auto& label : shown)
    EXPECT_NE(label.get<std::string>().find("OpenMP"), std::string::npos) << label;
}

// The record a tooltip describes, found in the fixture's results by what the tooltip says.
struct TooltipRecord {
  std::string implementation, image, kernel, median;
};

TEST_F(BrowserTest, HoveringAPointShowsTheRecordDrawnThereInEveryFigure) {
  open("fixture-demo.html");
  const json records =
      json::parse(read_file(fixtures() / "fixture-demo" / "results.json"))["records"];
  const auto figures = browser_->find_all("figure.plot");
  ASSERT_EQ(figures.size(), 5u);
  size_t hovered = 0;
  for (size_t f = 0; f < figures.size(); ++f) {
    const std::string figure_id =
        browser_
            ->execute("return arguments[0].id;",
                      json::array({browser_->element_argument(figures[f])}))
            .get<std::string>();
    SCOPED_TRACE(figure_id);
    const auto targets = browser_->find_all("#" + figure_id + " .hover-target");
    ASSERT_FALSE(targets.empty());
    // Every point of small figures, a spread of the others; points drawn on top of another are
    // named as such in the tooltip, so only points with a centre of their own are taken.
    const size_t step = std::max<size_t>(1, targets.size() / 6);
    for (size_t t = 0; t < targets.size(); t += step) {
      const json target = browser_->element_argument(targets[t]);
      const bool shared = browser_
                              ->execute(R"(
        var a = arguments[0];
        return Array.from(a.ownerSVGElement.querySelectorAll('.hover-target')).some(function (b) {
          return b !== a && Math.abs(b.getAttribute('cx') - a.getAttribute('cx')) < 1 &&
                 Math.abs(b.getAttribute('cy') - a.getAttribute('cy')) < 1; });)",
                                        json::array({target}))
                              .get<bool>();
      if (shared) continue;
      // Where gnuplot drew the point: a marker (line), a bar's top or a stack segment (bars,
      // stacked), a cell (heatmap) of the same series, in the SVG's own coordinates.
      const json drawn = browser_->execute(R"(
        var target = arguments[0], svg = target.ownerSVGElement;
        var x = Number(target.getAttribute('cx')), y = Number(target.getAttribute('cy'));
        var series = target.getAttribute('data-series');
        var groups = Array.from(svg.querySelectorAll('g.series')).filter(function (g) {
          return series === null || g.getAttribute('data-series') === series; });
        if (series === null) groups = [svg];
        var best = 1e9;
        groups.forEach(function (g) {
          g.querySelectorAll('use').forEach(function (use) {
            var m = /translate\(([-0-9.]+),([-0-9.]+)\)/.exec(use.getAttribute('transform') || '');
            if (m) best = Math.min(best, Math.hypot(Number(m[1]) - x, Number(m[2]) - y));
          });
          g.querySelectorAll('polygon, rect').forEach(function (shape) {
            var b = shape.getBBox();
            if (b.width < 1 || b.height < 0.5) return;
            if (x >= b.x - 0.5 && x <= b.x + b.width + 0.5 && y >= b.y - 1.5 &&
                y <= b.y + b.height + 1.5) best = Math.min(best, 0);
          });
        });
        return best;)",
                                           json::array({target}));
      EXPECT_LT(drawn.get<double>(), 1.5) << "point " << t << " lies on nothing its series drew";

      browser_->hover(targets[t]);
      const json tip = browser_->execute(R"(
        var tip = arguments[0].ownerSVGElement.parentNode.querySelector('.tooltip');
        var rows = {};
        var terms = tip.querySelectorAll('dt');
        terms.forEach(function (dt) { rows[dt.textContent] = dt.nextElementSibling.textContent; });
        var title = tip.querySelector('.tip-title');
        return {hidden: tip.hidden, title: title ? title.textContent : '', rows: rows};)",
                                         json::array({target}));
      ASSERT_FALSE(tip["hidden"].get<bool>()) << "no tooltip for point " << t;
      const json& rows = tip["rows"];
      ASSERT_TRUE(rows.contains("Implementation") && rows.contains("Image") &&
                  rows.contains("Kernel") && rows.contains("Median"))
          << rows.dump();
      // The tooltip names exactly one record of the results, and quotes its median.
      size_t matching = 0;
      for (const auto& record : records) {
        if (record.value("status", "") != "ok") continue;
        const std::string image = rows["Image"].get<std::string>();
        const std::string kernel = rows["Kernel"].get<std::string>();
        const std::string params = rows["Parameters"].get<std::string>();
        if (record["implementation"] != rows["Implementation"]) continue;
        if (image.rfind(record["image"]["name"].get<std::string>() + " (", 0) != 0) continue;
        if (kernel.rfind(record["kernel"]["name"].get<std::string>() + " (", 0) != 0) continue;
        bool same_params = true;
        for (auto it = record["params"].begin(); it != record["params"].end(); ++it) {
          std::string value = it->is_array() ? std::to_string((*it)[0].get<int>()) + "x" +
                                                   std::to_string((*it)[1].get<int>())
                              : it->is_string() ? it->get<std::string>()
                                                : it->dump();
          same_params &= params.find(it.key() + " " + value) != std::string::npos;
        }
        if (!same_params) continue;
        ++matching;
        const double median = record["timing"]["stats"]["median"].get<double>();
        EXPECT_EQ(rows["Median"].get<std::string>().rfind(format_number(median, 3) + " ms", 0), 0u)
            << rows.dump();
        // Where the figure plots the median, the point's value is that median.
        if (figure_id == "figure-time-vs-size" || figure_id == "figure-block-heatmap") {
          const std::string value_label = "Median time [ms]";
          ASSERT_TRUE(rows.contains(value_label)) << rows.dump();
          EXPECT_EQ(rows[value_label], format_number(median, 4));
        }
      }
      EXPECT_EQ(matching, 1u) << rows.dump();
      // The heading is the series the key names.
      const json series_label = browser_->execute(R"(
        var s = arguments[0].getAttribute('data-series');
        if (s === null) return null;
        var key = Array.from(arguments[0].ownerSVGElement.querySelectorAll('.key-entry'))
            .filter(function (k) { return k.getAttribute('data-series') === s; })[0];
        return key ? key.getAttribute('aria-label').replace('Show or hide ', '') : null;)",
                                                  json::array({target}));
      if (!series_label.is_null()) {
        EXPECT_EQ(tip["title"].get<std::string>().rfind(series_label.get<std::string>(), 0), 0u)
            << tip["title"] << " vs " << series_label;
      }
      ++hovered;
    }
    browser_->hover(targets[targets.size() / 2]);
    save_screenshot("hover-" + figure_id,
                    browser_->element_screenshot_png(browser_->find("#" + figure_id)));
  }
  EXPECT_GE(hovered, 20u);
}

TEST_F(BrowserTest, ClickingAKeyEntryHidesItsSeriesAndAgainShowsIt) {
  open("fixture-demo.html");
  for (const char* figure : {"figure-time-vs-size", "figure-speedup-bars", "figure-transfers"}) {
    SCOPED_TRACE(figure);
    const auto keys = browser_->find_all(std::string("#") + figure + " .key-entry");
    ASSERT_GE(keys.size(), 2u);
    const std::string key = keys[1];
    const json state = json::array({browser_->element_argument(key)});
    const std::string visible_script = R"(
      var key = arguments[0], svg = key.ownerSVGElement, s = key.getAttribute('data-series');
      var count = function (same) {
        return Array.from(svg.querySelectorAll('g.series, .hover-target')).filter(function (n) {
          return (n.getAttribute('data-series') === s) === same &&
                 getComputedStyle(n).display !== 'none'; }).length; };
      return {mine: count(true), others: count(false), pressed: key.getAttribute('aria-pressed')};)";
    const json before = browser_->execute(visible_script, state);
    ASSERT_GT(before["mine"].get<int>(), 0);
    browser_->click(key);
    const json hidden = browser_->execute(visible_script, state);
    EXPECT_EQ(hidden["mine"], 0) << "the series is still drawn";
    EXPECT_EQ(hidden["others"], before["others"]) << "another series was hidden too";
    EXPECT_EQ(hidden["pressed"], "false");
    save_screenshot(std::string("key-off-") + figure,
                    browser_->element_screenshot_png(browser_->find(std::string("#") + figure)));
    browser_->click(key);
    EXPECT_EQ(browser_->execute(visible_script, state), before);
  }
}

}  // namespace
}  // namespace convlab
#endif
