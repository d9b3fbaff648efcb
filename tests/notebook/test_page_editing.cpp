// The served page as the place where an experiment is written and run (`convlab watch --serve`,
// docs/notebook.md "Writing and running in the page"), driven in headless Chromium through
// WebDriver: a kernel typed into its cell, saved with Ctrl-Enter, its compile error in its cell
// with the line marked, the kernel fixed and its verified points in the tables, a point measured
// again, a query cell placed in the discussion as a computed value and as a table, a file saved
// by another editor during unsaved edits shown as a conflict with both texts kept, a sweep
// stopped with its finished points kept, and the page without CodeMirror. Beside the browser,
// requests against the same server that lack the token, come from a foreign Origin, lack the
// CSRF token or name a path change nothing on disk. Screenshots go to CONVLAB_SCREENSHOTS.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include "notebook_test_support.hpp"

#ifndef CONVLAB_HAVE_HTTPLIB
TEST(PageEditing, DrivenThroughWebDriver) {
  GTEST_SKIP() << "cpp-httplib was not found when the tests were configured "
                  "(scripts/install-deps.sh build installs libcpp-httplib-dev)";
}
#else
#include <httplib.h>

#include "core/sha256.hpp"
#include "webdriver.hpp"

namespace convlab {
namespace {

using namespace notebook_test;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

bool wait_until(const std::function<bool()>& done, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

std::string config_text(const std::string& extra_implementation = "",
                        const std::string& sizes = "3, 5") {
  return "name: edited\n"
         "title: Written in the page\n"
         "description: A kernel written, run and discussed in the served page.\n"
         "images:\n"
         "  - {type: generated, sizes: [48], channels: [1], seed: 3}\n"
         "kernels:\n"
         "  - {type: gaussian, size: [" +
         sizes +
         "]}\n"
         "implementations:\n"
         "  sequential: {}\n" +
         extra_implementation +
         "measure: {warmup: 0, min_reps: 2, max_reps: 2, max_seconds: 0.05}\n"
         "figures:\n"
         "  - name: time-by-size\n"
         "    title: Median time against the kernel size\n"
         "    type: line\n"
         "    x: kernel.size\n"
         "    y: median_ms\n"
         "    series: implementation\n"
         "tables:\n"
         "  - name: time-ms\n"
         "    title: Median time [ms]\n"
         "    rows: implementation\n"
         "    columns: kernel.size\n"
         "    value: median_ms\n";
}

const char* const kMine = "  mine: {source: kernels/mine.c}\n";

// A CPU kernel as a user types it (the editor indents each line by itself, so the text carries
// none); `result` is what it returns.
std::string typed_kernel(const std::string& result) {
  return "#include <convlab/kernel.h>\n"
         "CONVLAB_CONTRACT(1);\n"
         "CONVLAB_CPU_ENTRY(const convlab_problem *p) {\n"
         "const int r = p->ksize / 2;\n"
         "for (int y = 0; y < p->height; ++y)\n"
         "for (int x = 0; x < p->width; ++x) {\n"
         "float sum = 0.f;\n"
         "for (int k = 0; k < p->ksize * p->ksize; ++k) {\n"
         "const int sy = convlab_border_index(y + k / p->ksize - r, p->height, p->border);\n"
         "const int sx = convlab_border_index(x + k % p->ksize - r, p->width, p->border);\n"
         "if (sy >= 0 && sx >= 0) sum += p->weights[k] * p->in[sy * p->in_pitch + sx];\n"
         "}\n"
         "convlab_store(p->out, (long long)y * p->width + x, p->output, sum);\n"
         "}\n"
         "return " +
         result + ";\n}\n";
}

const std::string kControl = "\xEE\x80\x89";  // WebDriver's Control key (U+E009)
const std::string kEnter = "\xEE\x80\x87";    // and Enter (U+E007)

// Every file under `folder` but the ones convlab writes (outputs, the kernel cache, logs), with
// its hash: what a refused request must leave as it was.
std::map<std::string, std::string> project_files(const fs::path& folder) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    const std::string relative = fs::relative(entry.path(), folder).generic_string();
    if (relative.rfind("outputs", 0) == 0 || relative.rfind("cache", 0) == 0 ||
        relative.rfind("watch.", 0) == 0)
      continue;
    files[relative] = entry.is_regular_file() ? sha256_hex(read_file(entry.path())) : "folder";
  }
  return files;
}

class PageEditing : public ::testing::Test {
 protected:
  void TearDown() override {
    if (pid_ > 0 && !fs::exists(dir() / "watch.status")) {
      ::kill(pid_, SIGINT);
      if (!wait_until([&] { return fs::exists(dir() / "watch.status"); }, 20)) {
        ::kill(pid_, SIGKILL);
        wait_until([&] { return fs::exists(dir() / "watch.status"); }, 10);
      }
    }
  }

  const fs::path& dir() const { return scratch_.path(); }
  std::string log() const {
    return fs::exists(dir() / "watch.log") ? read_file(dir() / "watch.log") : "";
  }
  size_t count(const std::string& what) const {
    const std::string text = log();
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }

  // Starts `convlab watch edited.yaml --serve 0` and reads the URL it prints.
  bool start_watching(const std::string& config, const std::string& environment = "") {
    write_file(dir() / "edited.yaml", config);
    const CommandRun started = run_in(
        dir(), "( " + environment + " CONVLAB_KERNEL_CACHE='" + (dir() / "cache").string() + "' '" +
                   CONVLAB_EXECUTABLE +
                   "' watch edited.yaml --serve 0 > watch.log 2>&1 & echo $! > watch.pid; wait $!;"
                   " echo \"exit $?\" > watch.status ) > /dev/null 2>&1 &");
    EXPECT_EQ(started.exit_code, 0) << started.output;
    if (!wait_until([&] { return count("waiting for") >= 1; }, 60)) {
      ADD_FAILURE() << "the watch did not start; its log:\n" << log();
      return false;
    }
    pid_ = std::stoi(read_file(dir() / "watch.pid"));
    scratch_.stop_at_end(pid_);
    const std::string text = log();
    const size_t at = text.find("http://127.0.0.1:");
    if (at == std::string::npos) {
      ADD_FAILURE() << "no URL in the log:\n" << text;
      return false;
    }
    url_ = text.substr(at, text.find('\n', at) - at);
    token_ = url_.substr(url_.find("token=") + 6);
    port_ = std::stoi(url_.substr(17, url_.find('/', 17) - 17));
    return true;
  }

  // Opens the URL and waits until the page's script took it over: `ready` is the class it sets on
  // <html> (editors-ready on an experiment's page, editing on the index).
  bool open_page(const std::string& ready = "editors-ready") {
    try {
      browser_ = Browser::start(1200, 1000);
    } catch (const BrowserUnavailable& error) {
      skipped_ = error.what();
      return false;
    }
    browser_->console_log();
    browser_->open(url_);
    if (!wait_until(
            [&] {
              return script("return document.documentElement.classList.contains(arguments[0]);",
                            json::array({ready}))
                  .get<bool>();
            },
            30)) {
      ADD_FAILURE() << "the page's editors did not start; log:\n" << log();
      return false;
    }
    return true;
  }

  json script(const std::string& body, const json& arguments = json::array()) {
    return browser_->execute(body, arguments);
  }
  bool page_says(const std::string& body, double seconds = 60) {
    return wait_until([&] { return script(body).get<bool>(); }, seconds);
  }
  json results() const { return json::parse(read_file(dir() / "outputs/edited/results.json")); }
  size_t records_of(const std::string& implementation) const {
    if (!fs::exists(dir() / "outputs/edited/results.json")) return 0;
    size_t n = 0;
    const json all = results();
    for (const auto& record : all["records"])
      if (record["implementation"] == implementation && record["status"] == "ok") ++n;
    return n;
  }

  // Focuses the editor of `key` and types `text` into it, as a user does.
  void type_into(const std::string& key, const std::string& text) {
    const std::string area = browser_->find("#edit-" + key + " .CodeMirror textarea");
    script("document.querySelector('#edit-' + arguments[0] + ' .CodeMirror').CodeMirror.focus();",
           json::array({key}));
    browser_->type(area, text);
  }
  void save_with_keys(const std::string& key) { type_into(key, kControl + kEnter); }
  void set_text(const std::string& key, const std::string& text) {
    script(
        "document.querySelector('#edit-' + arguments[0] + ' .CodeMirror').CodeMirror"
        ".setValue(arguments[1]);",
        json::array({key, text}));
  }
  void screenshot(const std::string& name) {
    fs::create_directories(CONVLAB_SCREENSHOTS);
    write_file(fs::path(CONVLAB_SCREENSHOTS) / name, browser_->screenshot_png());
  }
  void scroll_to(const std::string& css) {
    script("var e = document.querySelector(arguments[0]); if (e) e.scrollIntoView();",
           json::array({css}));
  }
  // `expected`: a failed request the test made on purpose (the browser logs every answer that is
  // not 2xx).
  void expect_no_console_error(const std::string& expected = "") {
    for (const LogEntry& entry : browser_->console_log()) {
      if (!expected.empty() && entry.message.find(expected) != std::string::npos) continue;
      EXPECT_NE(entry.level, "SEVERE") << entry.message;
      EXPECT_EQ(entry.message.find("Content Security Policy"), std::string::npos) << entry.message;
    }
  }

  // A POST to the watch's server, as a page or an attacker would send it.
  httplib::Result post(const std::string& name, const json& body, httplib::Headers headers) {
    httplib::Client client("127.0.0.1", port_);
    client.set_read_timeout(10, 0);
    return client.Post(("/_api/" + name).c_str(), headers, body.dump(), "application/json");
  }
  std::string csrf() {
    httplib::Client client("127.0.0.1", port_);
    auto reply = client.Get("/_api/session", {{"Authorization", "token " + token_}});
    return reply && reply->status == 200 ? json::parse(reply->body)["csrf"].get<std::string>() : "";
  }
  std::string origin() const { return "http://127.0.0.1:" + std::to_string(port_); }

  Scratch scratch_{"page-editing"};
  std::unique_ptr<Browser> browser_;
  std::string skipped_, url_, token_;
  int pid_ = -1, port_ = 0;
};

TEST_F(PageEditing, AKernelWrittenRunAndQueriedInThePage) {
  ASSERT_TRUE(start_watching(config_text()));
  if (!open_page()) GTEST_SKIP() << "no browser: " << skipped_;
  ASSERT_GT(records_of("sequential"), 0u) << log();
  // The config, and the discussion the page may write, have cells; CodeMirror highlights YAML.
  EXPECT_TRUE(script("return !!document.querySelector('#edit-config .CodeMirror .cm-atom, "
                     "#edit-config .CodeMirror .cm-meta, #edit-config .CodeMirror .cm-string');")
                  .get<bool>());
  EXPECT_TRUE(script("return !!document.getElementById('edit-discussion');").get<bool>());
  // The config as the run recorded it is folded below its editor: one text to edit on the page,
  // the other a click away.
  EXPECT_EQ(script("var c = document.getElementById('config');"
                   "return c.className + ' | ' + (c.querySelector('.code-block').offsetParent ="
                   "== null) + ' | ' + c.previousElementSibling.id;")
                .get<std::string>(),
            "cell cell-config recorded-folded | true | edit-config");
  // The discussion not written yet has its editor where the page will show it.
  EXPECT_EQ(script("return document.getElementById('edit-discussion').previousElementSibling.id;")
                .get<std::string>(),
            "description");
  EXPECT_TRUE(script("var c = document.getElementById('config');"
                     "c.querySelector('button.show-recorded').click();"
                     "var shown = c.querySelector('.code-block').offsetParent !== null;"
                     "c.querySelector('button.show-recorded').click();"
                     "return shown && c.classList.contains('recorded-folded');")
                  .get<bool>());
  // A CUDA source is highlighted as C++ with CUDA's own words.
  EXPECT_EQ(script("var box = document.createElement('div'); document.body.appendChild(box);"
                   "var cm = CodeMirror(box, {mode: 'text/x-cuda',"
                   " value: '__global__ void k() { int i = threadIdx.x; }'});"
                   "var kinds = [cm.getTokenTypeAt({line: 0, ch: 3}),"
                   " cm.getTokenTypeAt({line: 0, ch: 13}), cm.getTokenTypeAt({line: 0, ch: 33})];"
                   "box.parentNode.removeChild(box); return kinds.join(' ');")
                .get<std::string>(),
            "keyword type keyword");

  // The config names a kernel of its own: a cell for it appears, empty, as the file is not there.
  set_text("config", config_text(kMine));
  save_with_keys("config");
  ASSERT_TRUE(page_says("return !!document.getElementById('edit-source-1');")) << log();
  EXPECT_EQ(count("the page saved edited.yaml"), 1u) << log();
  // The file it names is not there yet: the config's error, in the config's cell, line 10 marked.
  EXPECT_TRUE(page_says(
      "var c = document.getElementById('edit-config');"
      "var e = c.querySelector('.edit-error');"
      "return !e.hidden && e.textContent.indexOf('edited.yaml:10:') >= 0 &&"
      " c.getAttribute('data-error-lines') === '10' &&"
      " c.querySelectorAll('.error-line').length === 1;"))
      << log();

  // A kernel typed into its cell, with a mistake; Ctrl-Enter saves and runs it.
  type_into("source-1", typed_kernel("undefined_name"));
  save_with_keys("source-1");
  ASSERT_TRUE(
      page_says("var c = document.getElementById('edit-source-1');"
                "var e = c.querySelector('.edit-error');"
                "return !e.hidden && e.textContent.indexOf('undefined_name') >= 0 &&"
                " c.getAttribute('data-error-lines').split(' ').indexOf('15') >= 0 &&"
                " c.querySelectorAll('.error-line').length > 0;"))
      << log();
  EXPECT_TRUE(script("return document.querySelector('#cell-error .cell-label').textContent;")
                  .get<std::string>() == "kernel compile error");
  EXPECT_EQ(read_file(dir() / "kernels/mine.c").find("return undefined_name;") != std::string::npos,
            true);
  EXPECT_EQ(records_of("mine"), 0u);
  scroll_to("#edit-source-1");
  screenshot("editing-compile-error.png");

  // Fixed: the error goes and the kernel's verified points fill its row of the table.
  script(
      "var cm = document.querySelector('#edit-source-1 .CodeMirror').CodeMirror;"
      "var at = cm.getSearchCursor ? null : null;"
      "var text = cm.getValue().replace('return undefined_name;', 'return 0;');"
      "cm.setValue(text);");
  save_with_keys("source-1");
  ASSERT_TRUE(
      page_says("var rows = document.querySelectorAll('#cell-table-1 tbody tr');"
                "return Array.prototype.some.call(rows, function (r) {"
                "  return r.cells[0].textContent.toLowerCase().indexOf('mine') >= 0 &&"
                "    r.querySelectorAll('td.num:not(.empty)').length === 2; });"))
      << script(
             "var t = document.getElementById('cell-table-1');"
             "return t ? t.outerHTML : document.querySelector('main').innerHTML.slice(0, 3000);")
             .get<std::string>();
  EXPECT_TRUE(
      page_says("return document.getElementById('cell-error').hidden &&"
                " document.querySelector('#edit-source-1 .edit-error').hidden;"));
  // The sweep's records are in results.json once it ends.
  EXPECT_TRUE(wait_until([&] { return records_of("mine") == 2; }, 60)) << log();
  EXPECT_TRUE(page_says("return document.querySelector('#run-controls button.stop').hidden;"));
  const json all = results();
  for (const auto& record : all["records"]) {
    if (record["implementation"] != "mine") continue;
    EXPECT_EQ(record["verification"]["verdict"], "ok") << record.dump();
  }
  EXPECT_TRUE(page_says(
      "var rows = document.querySelectorAll('#verification tbody tr');"
      "return Array.prototype.some.call(rows, function (r) {"
      "  return r.cells[0].textContent === 'mine' && r.cells[1].textContent === '2'; });"));

  // Measure again: the row of mine runs its two points once more; their records are the new run's.
  const auto runs_of_mine = [&] {
    std::set<std::string> runs;
    const json all = results();
    for (const auto& record : all["records"])
      if (record["implementation"] == "mine") runs.insert(record.value("run_id", ""));
    return runs;
  };
  const std::set<std::string> before = runs_of_mine();
  script(
      "var rows = document.querySelectorAll('#cell-table-1 tbody tr');"
      "Array.prototype.forEach.call(rows, function (r) {"
      "  if (r.cells[0].textContent.toLowerCase().indexOf('mine') >= 0)"
      "    r.querySelector('button.measure-again').click(); });");
  EXPECT_TRUE(wait_until(
      [&] {
        const auto now = runs_of_mine();
        return now.size() == 1 && !before.count(*now.begin());
      },
      60))
      << log();
  EXPECT_EQ(records_of("mine"), 2u);
  EXPECT_EQ(count("asked to measure 2 points again"), 1u) << log();

  // A point of the figure: a click pins its record, with a button that measures that one again.
  const size_t results_before = count("convlab: results in");
  // (The page may be made again under the pointer as the last sweep ends: then it is clicked again.
  // The last target is drawn over the others: an earlier one can lie under a point of another
  // series, and a click at its centre would land on that one.)
  bool pinned = false;
  std::string last_refusal;
  EXPECT_TRUE(wait_until(
      [&] {
        try {
          const auto targets = browser_->find_all("#cell-figure-1 .hover-target");
          if (targets.empty()) return false;
          browser_->click(targets.back());
          pinned = script("var t = document.querySelector('#cell-figure-1 .tooltip');"
                          "var b = t.querySelector('button.measure-again');"
                          "if (t.hidden || !t.classList.contains('pinned') || !b) return false;"
                          "b.click(); return true;")
                       .get<bool>();
          return pinned;
        } catch (const WebDriverError& error) {
          last_refusal = error.what();
          return false;
        }
      },
      30))
      << last_refusal;
  EXPECT_TRUE(wait_until([&] { return count("asked to measure 1 point again") == 1; }, 60))
      << log();
  // The query below and the discussion's value must read the same records: the sweep that measures
  // that point again ends first (otherwise its new record could land between the two).
  EXPECT_TRUE(wait_until([&] { return count("convlab: results in") > results_before; }, 60))
      << log();

  // A query cell: a value, then placed in the discussion as a computed value.
  script("document.querySelector('#queries button.add-query').click();");
  const std::string input = browser_->find("#queries .query-cell:last-child input");
  browser_->type(input,
                 "median_ms[implementation=mine,kernel.size=3] / "
                 "median_ms[implementation=sequential,kernel.size=3] | .2f" +
                     kEnter);
  ASSERT_TRUE(
      page_says("var v = document.querySelector('#queries .query-value');"
                "return !!v && /^[0-9]+\\.[0-9][0-9]$/.test(v.textContent);"))
      << script("return document.getElementById('queries').textContent;").dump();
  const std::string value =
      script("return document.querySelector('#queries .query-value').textContent;")
          .get<std::string>();
  scroll_to("#queries");
  screenshot("editing-query.png");
  script("document.querySelector('#queries .query-cell:last-child .place-query').click();");
  ASSERT_TRUE(wait_until(
      [&] {
        return fs::exists(dir() / "experiments/edited.md") &&
               read_file(dir() / "experiments/edited.md")
                       .find(
                           "{{ median_ms[implementation=mine,kernel.size=3] / "
                           "median_ms[implementation=sequential,kernel.size=3] | .2f }}") !=
                   std::string::npos;
      },
      30))
      << log();
  // The discussion shows the value, computed by the page's renderer from the same results.
  EXPECT_TRUE(
      page_says("var d = document.getElementById('discussion');"
                "return !!d && d.textContent.indexOf('" +
                value + "') >= 0;"))
      << log();

  // A comparison, placed as a table of its own.
  script("document.querySelector('#queries button.add-query').click();");
  browser_->type(browser_->find("#queries .query-cell:last-child input"),
                 "--best --by kernel.size" + kEnter);
  ASSERT_TRUE(
      page_says("var c = document.querySelector('#queries .query-cell:last-child');"
                "return c.querySelectorAll('tbody tr').length === 2;"));
  script("document.querySelector('#queries .query-cell:last-child .place-query').click();");
  EXPECT_TRUE(
      page_says("var q = document.getElementById('cell-query-1');"
                "return !!q && q.querySelectorAll('tbody tr').length === 2;"))
      << log();
  EXPECT_NE(read_file(dir() / "experiments/edited.md").find("{{query: --best --by kernel.size}}"),
            std::string::npos);
  // The discussion's editor and, below it, the discussion it made: the value and the table.
  EXPECT_EQ(script("return document.getElementById('edit-discussion').nextElementSibling.id;")
                .get<std::string>(),
            "discussion");
  scroll_to("#edit-discussion");
  screenshot("editing-page.png");

  // A value of the discussion that names no point: its error in the discussion's cell, its line
  // marked; the page keeps the table it showed.
  const std::string discussion = read_file(dir() / "experiments/edited.md");
  const std::string wrong = discussion + "\nIt takes {{ median_ms[implementation=mnie] }} ms.\n";
  const long wrong_line = std::count(wrong.begin(), wrong.end(), '\n');
  set_text("discussion", wrong);
  save_with_keys("discussion");
  EXPECT_TRUE(page_says(
      "var c = document.getElementById('edit-discussion');"
      "var e = c.querySelector('.edit-error');"
      "return !e.hidden && e.textContent.indexOf('edited.md:" +
      std::to_string(wrong_line) +
      ":') >= 0 && c.getAttribute('data-error-lines') === '" + std::to_string(wrong_line) +
      "' && c.querySelectorAll('.error-line').length === 1 &&"
      " !!document.getElementById('cell-query-1');"))
      << log();
  expect_no_console_error();
}

TEST_F(PageEditing, AFileSavedElsewhereDuringUnsavedEditsIsAConflictThatKeepsBoth) {
  ASSERT_TRUE(start_watching(config_text()));
  if (!open_page()) GTEST_SKIP() << "no browser: " << skipped_;
  set_text("config", config_text() + "# the page's edit\n");
  // Another editor saves the config meanwhile.
  const std::string theirs = config_text("", "3, 5, 7");
  write_file(dir() / "edited.yaml.new", theirs);
  fs::rename(dir() / "edited.yaml.new", dir() / "edited.yaml");
  ASSERT_TRUE(
      page_says("var c = document.getElementById('edit-config');"
                "return !c.querySelector('.conflict').hidden &&"
                " c.querySelector('.conflict-text').textContent.indexOf('size: [3, 5, 7]') >= 0;"))
      << log();
  // The one line of the disk's that the editor does not hold is marked, and counted.
  EXPECT_EQ(script("var c = document.getElementById('edit-config');"
                   "var marked = c.querySelectorAll('.conflict-text .differs');"
                   "return marked.length + ' ' + marked[0].textContent + ' | ' +"
                   " c.querySelector('.conflict-title').textContent;")
                .get<std::string>(),
            "1   - {type: gaussian, size: [3, 5, 7]} | edited.yaml changed on disk while this cell "
            "held unsaved edits. Neither version is lost: yours is in the editor, the disk's below "
            "(1 line not in the editor, marked).");
  // Both versions are there: the disk's in the box, the page's in the editor.
  EXPECT_NE(script("return document.querySelector('#edit-config .CodeMirror').CodeMirror"
                   ".getValue();")
                .get<std::string>()
                .find("# the page's edit"),
            std::string::npos);
  // The whole box in view, its marked line and the editor above it.
  script("document.querySelector('#edit-config .conflict').scrollIntoView(false);");
  screenshot("editing-conflict.png");
  // A save from the page now would overwrite what it did not see: refused until chosen.
  save_with_keys("config");
  EXPECT_TRUE(
      page_says("return document.querySelector('#edit-config .edit-status').textContent"
                " === 'conflict with the disk';"));
  EXPECT_EQ(read_file(dir() / "edited.yaml"), theirs);
  // Keeping the page's: saved over the disk's.
  script("document.querySelector('#edit-config button.keep-mine').click();");
  EXPECT_TRUE(wait_until(
      [&] {
        return read_file(dir() / "edited.yaml").find("# the page's edit") != std::string::npos;
      },
      20));
  expect_no_console_error(
      "/_api/save - Failed to load resource: the server responded with a "
      "status of 409 (Conflict)");
}

TEST_F(PageEditing, TheStopButtonEndsASweepAndKeepsItsFinishedPoints) {
  std::string config = config_text("", "3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25");
  config.replace(config.find("sizes: [48]"), 11, "sizes: [640]");
  config.replace(config.find("max_reps: 2"), 11, "max_reps: 9");
  config.replace(config.find("min_reps: 2"), 11, "min_reps: 9");
  ASSERT_TRUE(start_watching(config_text()));
  if (!open_page()) GTEST_SKIP() << "no browser: " << skipped_;
  set_text("config", config);
  save_with_keys("config");
  ASSERT_TRUE(
      page_says("var b = document.querySelector('#run-controls button.stop');"
                "return !b.hidden;",
                60))
      << log();
  // Points recorded by the sweep are in its journal until it ends.
  const auto journal_lines = [&] {
    const fs::path journal = dir() / "outputs/edited/results.journal";
    if (!fs::exists(journal)) return size_t{0};
    const std::string text = read_file(journal);
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  };
  ASSERT_TRUE(wait_until([&] { return journal_lines() >= 3; }, 120)) << log();
  script("document.querySelector('#run-controls button.stop').click();");
  ASSERT_TRUE(wait_until([&] { return count("stopped from the page") == 1; }, 120)) << log();
  const size_t kept = records_of("sequential");
  EXPECT_GE(kept, 3u);
  EXPECT_LT(kept, 12u) << "the sweep ran to its end";
  EXPECT_TRUE(page_says("return document.querySelector('#run-controls button.stop').hidden;"));
  EXPECT_EQ(count("the page asked to stop the sweep"), 1u);
}

TEST_F(PageEditing, WithoutCodeMirrorThePageEditsInATextBoxAndSaysWhy) {
  ASSERT_TRUE(start_watching(config_text(), "CONVLAB_CODEMIRROR_DIR=/nonexistent"));
  if (!open_page()) GTEST_SKIP() << "no browser: " << skipped_;
  EXPECT_FALSE(script("return !!document.querySelector('.CodeMirror');").get<bool>());
  EXPECT_NE(script("return document.querySelector('#edit-config .editor-missing').textContent;")
                .get<std::string>()
                .find("CodeMirror is not installed"),
            std::string::npos);
  const std::string area = browser_->find("#edit-config textarea.edit-text");
  script(
      "var a = document.querySelector('#edit-config textarea.edit-text');"
      "a.value = a.value.replace('Written in the page', 'Edited in a text box');");
  browser_->type(area, std::string("\xEE\x80\x88") + kEnter);  // Shift-Enter
  EXPECT_TRUE(
      page_says("return document.querySelector('h1').textContent === "
                "'Edited in a text box';"))
      << log();
  expect_no_console_error();
}

TEST_F(PageEditing, ANewExperimentFromTheIndexIsWrittenWatchedAndRun) {
  ASSERT_TRUE(start_watching(config_text()));
  // The watch's own index, served live: a new experiment is made from it.
  url_.replace(url_.find("edited.html"), 11, "index.html");
  if (!open_page("editing")) GTEST_SKIP() << "no browser: " << skipped_;
  script(
      "var form = document.getElementById('new-experiment'); form.open = true;"
      "form.querySelector('input.new-name').value = 'fresh';"
      "form.querySelector('button.create').click();");
  ASSERT_TRUE(
      page_says("return window.location.pathname === '/fresh.html' &&"
                " document.documentElement.classList.contains('editors-ready');",
                120))
      << log();
  // Written where the project keeps them, and followed by the watch.
  for (const char* file : {"configs/fresh.yaml", "experiments/fresh.md", "configs/kernels/fresh.c"})
    EXPECT_TRUE(fs::exists(dir() / file)) << file;
  EXPECT_NE(read_file(dir() / "configs/fresh.yaml").find("my_kernel: {source: kernels/fresh.c}"),
            std::string::npos);
  EXPECT_EQ(count("now watching configs/fresh.yaml"), 1u) << log();
  for (const char* key : {"config", "source-1", "discussion"})
    EXPECT_TRUE(
        script("return !!document.getElementById('edit-' + arguments[0]);", json::array({key}))
            .get<bool>())
        << key;
  // The skeleton verifies: its row of the table fills in, and the discussion's value is computed.
  EXPECT_TRUE(page_says(
      "var rows = document.querySelectorAll('#cell-table-1 tbody tr');"
      "return Array.prototype.some.call(rows, function (r) {"
      "  return r.cells[0].textContent.toLowerCase().indexOf('my kernel') >= 0 &&"
      "    r.querySelectorAll('td.num:not(.empty)').length === 3; }) &&"
      " /my kernel takes [0-9.]+\\s*ms/.test(document.querySelector('main').textContent);",
      120))
      << script(
             "var t = document.getElementById('cell-table-1');"
             "var d = document.getElementById('discussion');"
             "return (t ? t.textContent : 'no table') + ' | ' + (d ? d.textContent : 'none');")
             .get<std::string>();
  const fs::path results = dir() / "outputs/fresh/results.json";
  ASSERT_TRUE(wait_until([&] { return fs::exists(results); }, 60));
  size_t verified = 0;
  const json all = json::parse(read_file(results));
  for (const auto& record : all["records"])
    if (record["implementation"] == "my_kernel" && record["verification"]["verdict"] == "ok")
      ++verified;
  EXPECT_EQ(verified, 3u);
  script("window.scrollTo(0, 0);");
  screenshot("editing-new-experiment.png");
  // A name that is taken is refused, and nothing is overwritten.
  const std::string config = read_file(dir() / "configs/fresh.yaml");
  const auto again = post(
      "new", {{"name", "fresh"}, {"kernel", true}},
      {{"Authorization", "token " + token_}, {"Origin", origin()}, {"X-Convlab-CSRF", csrf()}});
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 409) << again->body;
  EXPECT_EQ(read_file(dir() / "configs/fresh.yaml"), config);
  expect_no_console_error();
}

// A kernel's header is the kernel too: it has a cell of its own, a save of it from the page runs
// the kernel's points again, and a save that does not compile keeps every earlier result.
TEST_F(PageEditing, AnIncludedHeaderIsACellAndABrokenSaveKeepsTheResults) {
  write_file(dir() / "kernels/mine_result.h", "#define MINE_RESULT 0\n");
  write_file(dir() / "kernels/mine.c",
             "#include \"mine_result.h\"\n" + typed_kernel("MINE_RESULT"));
  ASSERT_TRUE(start_watching(config_text(kMine)));
  ASSERT_TRUE(wait_until([&] { return records_of("mine") == 2; }, 120)) << log();
  const std::string csrf_token = csrf();
  const httplib::Headers page{
      {"Authorization", "token " + token_}, {"Origin", origin()}, {"X-Convlab-CSRF", csrf_token}};
  httplib::Client client("127.0.0.1", port_);
  const auto listed = client.Get("/_api/files", {{"Authorization", "token " + token_}});
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->status, 200) << listed->body;
  std::string header_key;
  const json listing = json::parse(listed->body);
  for (const json& file : listing["files"])
    if (fs::path(file["path"].get<std::string>()).filename() == "mine_result.h") {
      header_key = file["key"].get<std::string>();
      EXPECT_EQ(file["language"], "c");
      EXPECT_EQ(file["text"], "#define MINE_RESULT 0\n");
    }
  ASSERT_EQ(header_key, "source-2") << listed->body;

  // A header that does not compile: the error is shown, nothing runs, results.json is untouched.
  const std::string kept = read_file(dir() / "outputs/edited/results.json");
  const auto broken =
      post("save",
           {{"key", header_key},
            {"text", "#define MINE_RESULT undefined_name\n"},
            {"base", sha256_hex("#define MINE_RESULT 0\n")}},
           page);
  ASSERT_TRUE(broken);
  ASSERT_EQ(broken->status, 200) << broken->body;
  ASSERT_TRUE(wait_until([&] { return count("nothing run; the page keeps") >= 1; }, 60)) << log();
  EXPECT_NE(log().find("undefined_name"), std::string::npos) << log();
  EXPECT_EQ(count("the page saved kernels/mine_result.h ("), 1u) << log();
  EXPECT_EQ(read_file(dir() / "outputs/edited/results.json"), kept);

  // Fixed: the kernel's two points run again, with the header's new version, and verify.
  const std::string fixed = "#define MINE_RESULT 0 /* fixed */\n";
  const auto good = post("save",
                         {{"key", header_key},
                          {"text", fixed},
                          {"base", sha256_hex("#define MINE_RESULT undefined_name\n")}},
                         page);
  ASSERT_TRUE(good);
  ASSERT_EQ(good->status, 200) << good->body;
  const auto new_records = [&] {
    size_t n = 0;
    const json all = results();
    for (const auto& record : all["records"])
      if (record["implementation"] == "mine" && record["status"] == "ok" &&
          record["verification"]["verdict"] == "ok" &&
          record.dump().find(sha256_hex(fixed)) != std::string::npos)
        ++n;
    return n;
  };
  EXPECT_TRUE(wait_until([&] { return new_records() == 2; }, 120))
      << log() << "\n"
      << read_file(dir() / "outputs/edited/results.json");
}

TEST_F(PageEditing, RefusedRequestsChangeNothingOnDisk) {
  write_file(dir() / "kernels/mine.c", typed_kernel("0"));
  write_file(dir() / "victim.txt", "left alone\n");
  // A config may name a source outside the project (this one does not load: it is missing).
  const fs::path outside = dir().parent_path() / (dir().filename().string() + "-outside.c");
  ASSERT_TRUE(start_watching(config_text(std::string(kMine) + "  theirs: {source: ../" +
                                         outside.filename().string() + "}\n")));
  const auto before = project_files(dir());
  const std::string session_csrf = csrf();
  ASSERT_FALSE(session_csrf.empty());
  const std::string base = sha256_hex(read_file(dir() / "edited.yaml"));
  const json save{{"key", "config"}, {"text", "name: overwritten\n"}, {"base", base}};
  const httplib::Headers page{
      {"Authorization", "token " + token_}, {"Origin", origin()}, {"X-Convlab-CSRF", session_csrf}};
  struct Case {
    std::string what;
    std::string name;
    json body;
    httplib::Headers headers;
    int status;
  };
  const std::vector<Case> cases = {
      {"no token", "save", save, {{"Origin", origin()}, {"X-Convlab-CSRF", session_csrf}}, 403},
      {"a foreign Origin",
       "save",
       save,
       {{"Authorization", "token " + token_},
        {"Origin", "http://evil.example"},
        {"X-Convlab-CSRF", session_csrf}},
       403},
      {"no CSRF token",
       "save",
       save,
       {{"Authorization", "token " + token_}, {"Origin", origin()}},
       403},
      {"another path as the key",
       "save",
       {{"key", "victim.txt"}, {"text", "written"}, {"base", sha256_hex("left alone\n")}},
       page,
       404},
      {"an absolute path as the key",
       "save",
       {{"key", (dir() / "victim.txt").string()}, {"text", "written"}, {"base", ""}},
       page,
       404},
      {"a path out of the folder",
       "save",
       {{"key", "../../victim.txt"}, {"text", "written"}, {"base", ""}},
       page,
       404},
      {"the config's path rather than its key",
       "save",
       {{"key", "edited.yaml"}, {"text", "written"}, {"base", base}},
       page,
       404},
      {"a stale base", "save", {{"key", "config"}, {"text", "written"}, {"base", "0"}}, page, 409},
      {"a text over the size limit",
       "save",
       {{"key", "config"}, {"text", std::string((1 << 20) + 1, '#')}, {"base", base}},
       page,
       413},
      {"a source the config names outside the project",
       "save",
       {{"key", "source-2"}, {"text", "written"}, {"base", ""}},
       page,
       403},
      {"a new experiment named with a path",
       "new",
       {{"name", "../victim"}, {"kernel", true}},
       page,
       400},
  };
  for (const Case& c : cases) {
    const auto reply = post(c.name, c.body, c.headers);
    ASSERT_TRUE(reply) << c.what;
    EXPECT_EQ(reply->status, c.status) << c.what << ": " << reply->body;
  }
  // A GET changes nothing either: actions are POSTs.
  httplib::Client client("127.0.0.1", port_);
  const auto get = client.Get("/_api/save", {{"Authorization", "token " + token_}});
  ASSERT_TRUE(get);
  EXPECT_EQ(get->status, 405);
  EXPECT_EQ(project_files(dir()), before);
  EXPECT_EQ(read_file(dir() / "victim.txt"), "left alone\n");
  EXPECT_FALSE(fs::exists(outside));
  fs::remove(outside);
  EXPECT_EQ(count("the page saved"), 0u) << log();

  // The same save with every credential: written, with its terminal line.
  const std::string fixed = config_text(kMine) + "# saved from the page\n";
  const std::string base_now = sha256_hex(read_file(dir() / "edited.yaml"));
  const auto good = post("save", {{"key", "config"}, {"text", fixed}, {"base", base_now}}, page);
  ASSERT_TRUE(good);
  EXPECT_EQ(good->status, 200) << good->body;
  EXPECT_EQ(read_file(dir() / "edited.yaml"), fixed);
  EXPECT_TRUE(wait_until([&] { return count("the page saved edited.yaml (") == 1; }, 10)) << log();
}

}  // namespace
}  // namespace convlab
#endif
