// `convlab watch CONFIG --serve 0` in a real browser (headless Chromium through WebDriver): the
// page opened from the printed URL follows the server's events. A saved config with a new kernel
// size makes the new point's figure data appear in the open page; the time from the save to the
// updated page is printed (with the measured time of the new points, which it includes). A title
// edit runs no point and shows the new title; a broken config shows the error cell above the old
// figures. A user's kernel source the config names is followed too: a saved source shows its new
// text, one that does not compile the compiler's lines in the error cell. A screenshot half-way
// through a sweep goes to CONVLAB_SCREENSHOTS. Skipped, with the reason, where Chromium cannot be
// started.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <regex>
#include <thread>

#include "core/number_text.hpp"
#include "notebook_test_support.hpp"

#ifndef CONVLAB_HAVE_HTTPLIB
TEST(LiveBrowserTest, DrivenThroughWebDriver) {
  GTEST_SKIP() << "cpp-httplib was not found when the tests were configured "
                  "(scripts/install-deps.sh build installs libcpp-httplib-dev)";
}
#else
#include "webdriver.hpp"

namespace convlab {
namespace {

using namespace notebook_test;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string live_config(const std::string& title, const std::vector<int>& sizes,
                        const std::string& image_sizes = "48") {
  std::string list;
  for (int size : sizes) list += (list.empty() ? "" : ", ") + std::to_string(size);
  return "name: live\ntitle: " + title +
         "\n"
         "description: Median time of a Gaussian blur against its size, measured while the "
         "config is edited.\n"
         "images:\n"
         "  - {type: generated, sizes: [" +
         image_sizes +
         "], channels: [1], seed: 3}\n"
         "kernels:\n"
         "  - {type: gaussian, size: [" +
         list +
         "]}\n"
         "implementations:\n"
         "  sequential: {}\n"
         "  cpu_separable: {}\n"
         "measure: {warmup: 0, min_reps: 2, max_reps: 2, max_seconds: 0.05}\n"
         "figures:\n"
         "  - name: time_by_size\n"
         "    title: Median time against kernel size\n"
         "    type: line\n"
         "    x: kernel.size\n"
         "    y: median_ms\n"
         "    series: implementation\n"
         "    log: y\n";
}

// A file saved the way editors save: a new file renamed over the old one.
void save(const fs::path& path, const std::string& text) {
  write_file(path.string() + ".new", text);
  fs::rename(path.string() + ".new", path);
}

bool wait_until(const std::function<bool()>& done, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Each thread of a process with the kernel function it waits in, to tell a deadlock from a
// busy thread.
std::string thread_states(int pid) {
  std::string text;
  const fs::path tasks = fs::path("/proc") / std::to_string(pid) / "task";
  std::error_code error;
  for (const auto& task : fs::directory_iterator(tasks, error)) {
    std::ifstream stat(task.path() / "stat"), wchan(task.path() / "wchan");
    std::string stat_line, wait_channel;
    std::getline(stat, stat_line);
    std::getline(wchan, wait_channel);
    text += "  " + stat_line.substr(0, 60) + " wchan " + wait_channel + "\n";
  }
  return text;
}

class LiveBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      browser_ = Browser::start();
    } catch (const BrowserUnavailable& error) {
      GTEST_SKIP() << "no browser: " << error.what();
    }
  }
  void TearDown() override {
    if (pid_ > 0 && !fs::exists(dir() / "watch.status")) {
      // A watch in the middle of a point stops at its end; one that does not stop in time is
      // killed, so that no test leaves a process behind.
      ::kill(pid_, SIGINT);
      const auto stopped = [&] { return fs::exists(dir() / "watch.status"); };
      if (!wait_until(stopped, 20)) {
        std::cerr << "warning: the watch (pid " << pid_
                  << ") did not stop on SIGINT within 20 s; it is killed. Its threads:\n"
                  << thread_states(pid_) << "its log:\n"
                  << log();
        ::kill(pid_, SIGKILL);
        EXPECT_TRUE(wait_until(stopped, 10)) << "the watch outlived SIGKILL";
      }
    }
  }

  const fs::path& dir() const { return scratch_.path(); }
  std::string log() const {
    return fs::exists(dir() / "watch.log") ? read_file(dir() / "watch.log") : "";
  }
  size_t waits() const {
    const std::string text = log();
    size_t n = 0;
    for (size_t at = text.find("waiting for"); at != std::string::npos;
         at = text.find("waiting for", at + 1))
      ++n;
    return n;
  }

  // Starts the watch on live.yaml and opens the URL it prints; false (with a failure) if either
  // does not come. Users' kernels are compiled into a kernel cache of the test's own.
  bool start_watching(const std::string& config) {
    write_file(dir() / "live.yaml", config);
    const CommandRun started = run_in(
        dir(), "( CONVLAB_KERNEL_CACHE='" + (dir() / "cache").string() + "' '" +
                   CONVLAB_EXECUTABLE +
                   "' watch live.yaml --serve 0 > watch.log 2>&1 & echo $! > watch.pid; wait $!;"
                   " echo \"exit $?\" > watch.status ) > /dev/null 2>&1 &");
    EXPECT_EQ(started.exit_code, 0) << started.output;
    if (!wait_until([&] { return waits() >= 1; }, 60)) {
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
    const std::string url = text.substr(at, text.find('\n', at) - at);
    // The token is in that line only.
    const std::string token = url.substr(url.find("token=") + 6);
    EXPECT_EQ(text.find(token), text.rfind(token)) << text;
    browser_->console_log();
    browser_->open(url);
    if (!wait_until(
            [&] {
              return browser_
                  ->execute("return document.documentElement.classList.contains('live');")
                  .get<bool>();
            },
            30)) {
      ADD_FAILURE() << "the page did not connect to the live channel";
      return false;
    }
    return true;
  }

  // The x values of the figure's data as the page holds it now.
  std::vector<std::string> figure_xs() {
    const json xs = browser_->execute(
        "var s = document.querySelector('script.figure-data');"
        "if (!s) return [];"
        "return JSON.parse(s.textContent).points.map(function (p) { return p.x; });");
    return xs.get<std::vector<std::string> >();
  }
  bool figure_has_x(int size) {
    const auto xs = figure_xs();
    return std::find(xs.begin(), xs.end(), std::to_string(size)) != xs.end();
  }
  size_t records() const {
    return json::parse(read_file(dir() / "outputs/live/results.json"))["records"].size();
  }
  // The measured time of the records of kernel size `size`, in seconds.
  double measured_seconds(int size) const {
    double seconds = 0;
    const json results = json::parse(read_file(dir() / "outputs/live/results.json"));
    for (const auto& record : results["records"])
      if (record["kernel"]["size"] == size)
        seconds += record["timing"]["total_seconds"].get<double>();
    return seconds;
  }
  void expect_no_policy_violation() {
    for (const LogEntry& entry : browser_->console_log()) {
      EXPECT_EQ(entry.message.find("Content Security Policy"), std::string::npos) << entry.message;
      EXPECT_EQ(entry.message.find("Refused"), std::string::npos) << entry.message;
    }
  }

  Scratch scratch_{"live-browser"};
  std::unique_ptr<Browser> browser_;
  int pid_ = -1;
};

TEST_F(LiveBrowserTest, ASavedConfigUpdatesTheOpenPage) {
  std::vector<int> sizes{3};
  ASSERT_TRUE(start_watching(live_config("Live sweep", sizes)));
  ASSERT_TRUE(figure_has_x(3));
  const size_t first_records = records();

  // A new kernel size: its points run and their figure data appear in the open page.
  std::vector<double> latencies, point_times;
  for (int size : {5, 7, 9, 11, 13}) {
    sizes.push_back(size);
    const auto saved = Clock::now();
    save(dir() / "live.yaml", live_config("Live sweep", sizes));
    ASSERT_TRUE(wait_until([&] { return figure_has_x(size); }, 30))
        << "kernel size " << size << " did not appear in the page; log:\n"
        << log();
    latencies.push_back(std::chrono::duration<double>(Clock::now() - saved).count());
    wait_until([&] { return waits() >= sizes.size(); }, 30);
    point_times.push_back(measured_seconds(size));
  }
  EXPECT_EQ(records(), first_records * sizes.size());
  for (size_t i = 0; i < latencies.size(); ++i)
    std::cout << "save -> updated page: " << static_cast<int>(latencies[i] * 1000 + 0.5)
              << " ms, of which the 2 new points measured "
              << format_number(point_times[i] * 1000, 3) << " ms\n";
  std::vector<double> sorted = latencies;
  std::sort(sorted.begin(), sorted.end());
  std::cout << "save -> updated page over " << sorted.size() << " saves: median "
            << static_cast<int>(sorted[sorted.size() / 2] * 1000 + 0.5) << " ms, max "
            << static_cast<int>(sorted.back() * 1000 + 0.5) << " ms\n";
  // The changed cells are marked.
  EXPECT_GT(
      browser_->execute("return document.querySelectorAll('.cell.changed').length;").get<int>(), 0);

  // The title alone: no point runs, the page shows the new title.
  const size_t before = records();
  const size_t waited = waits();
  save(dir() / "live.yaml", live_config("Renamed sweep", sizes));
  EXPECT_TRUE(wait_until(
      [&] {
        return browser_->execute("return document.querySelector('h1').textContent;")
                   .get<std::string>() == "Renamed sweep";
      },
      30));
  wait_until([&] { return waits() > waited; }, 30);
  EXPECT_EQ(records(), before);

  // A broken config: the error cell, and the figures stay.
  std::string broken = live_config("Renamed sweep", sizes);
  broken.replace(broken.find("size: [3"), 9, "size: [4");
  save(dir() / "live.yaml", broken);
  EXPECT_TRUE(wait_until(
      [&] {
        return browser_
            ->execute(
                "var c = document.getElementById('cell-error');"
                "return !!c && !c.hidden && c.textContent.indexOf('live.yaml:') >= 0;")
            .get<bool>();
      },
      30))
      << log();
  EXPECT_TRUE(figure_has_x(13));
  expect_no_policy_violation();

  // Fixed again: the error goes.
  save(dir() / "live.yaml", live_config("Renamed sweep", sizes));
  EXPECT_TRUE(wait_until(
      [&] {
        return browser_->execute("return document.getElementById('cell-error').hidden;")
            .get<bool>();
      },
      30));
}

// The straightforward loops as a user's CPU kernel; `note` goes into a comment.
std::string own_kernel(const std::string& note) {
  return "/* " + note + " */\n#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n" + R"(
CONVLAB_CPU_ENTRY(const convlab_problem* p) {
  const int r = p->ksize / 2;
  for (int y = 0; y < p->height; ++y)
    for (int x = 0; x < p->width * p->channels; ++x) {
      float sum = 0.f;
      for (int k = 0; k < p->ksize * p->ksize; ++k) {
        const int sy = convlab_border_index(y + k / p->ksize - r, p->height, p->border);
        const int sx = convlab_border_index(x + k % p->ksize - r, p->width, p->border);
        if (sy >= 0 && sx >= 0) sum += p->weights[k] * p->in[sy * p->in_pitch + sx];
      }
      convlab_store(p->out, (long long)y * p->width + x, p->output, sum);
    }
  return 0;
}
)";
}

TEST_F(LiveBrowserTest, ASavedKernelSourceUpdatesTheOpenPageAndACompileErrorShows) {
  write_file(dir() / "kernels" / "mine.c", own_kernel("first version"));
  std::string config = live_config("Own kernel", {3});
  config.replace(config.find("  cpu_separable: {}\n"), 20, "  mine: {source: kernels/mine.c}\n");
  ASSERT_TRUE(start_watching(config));
  const auto page_has = [&](const std::string& text) {
    return browser_
        ->execute(
            "var c = document.getElementById('cell-source-1');"
            "return !!c && c.textContent.indexOf(arguments[0]) >= 0;",
            json::array({text}))
        .get<bool>();
  };
  ASSERT_TRUE(page_has("first version")) << log();

  save(dir() / "kernels" / "mine.c", own_kernel("second version"));
  EXPECT_TRUE(wait_until([&] { return page_has("second version"); }, 30)) << log();

  std::string broken = own_kernel("broken");
  broken.replace(broken.find("return 0;"), 9, "return undefined_name;");
  save(dir() / "kernels" / "mine.c", broken);
  EXPECT_TRUE(wait_until(
      [&] {
        return browser_
            ->execute(
                "var c = document.getElementById('cell-error');"
                "return !!c && !c.hidden && c.textContent.indexOf('undefined_name') >= 0 &&"
                " c.querySelector('.cell-label').textContent === 'kernel compile error';")
            .get<bool>();
      },
      30))
      << log();
  EXPECT_TRUE(figure_has_x(3)) << "the last good results stay";
  EXPECT_TRUE(page_has("second version")) << "the source the last good results ran";
  expect_no_policy_violation();

  save(dir() / "kernels" / "mine.c", own_kernel("fixed"));
  EXPECT_TRUE(wait_until(
      [&] {
        return browser_->execute("return document.getElementById('cell-error').hidden;")
                   .get<bool>() &&
               page_has("fixed");
      },
      30))
      << log();
}

// A sweep of a few seconds: the page shows its progress line and fills in while it runs. The
// screenshot taken half-way is the one docs/notebook.md shows.
TEST_F(LiveBrowserTest, APageHalfWayThroughASweepShowsItsProgress) {
  ASSERT_TRUE(start_watching(live_config("Gaussian blur, live", {3}, "512")));
  std::vector<int> sizes{3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25};
  save(dir() / "live.yaml", live_config("Gaussian blur, live", sizes, "512"));
  std::string line;
  const std::regex running("sweep running: point ([0-9]+) of 24");
  const bool half_way = wait_until(
      [&] {
        line = browser_
                   ->execute(
                       "var p = document.getElementById('live-progress');"
                       "return p && !p.hidden ? p.textContent : '';")
                   .get<std::string>();
        std::smatch point;
        if (!std::regex_search(line, point, running)) return false;
        const int at = std::stoi(point[1]);
        return at >= 10 && at <= 18;
      },
      120);
  ASSERT_TRUE(half_way) << "last progress line: '" << line << "'; log:\n" << log();
  EXPECT_NE(line.find("ETA"), std::string::npos) << line;
  // Tall enough for the progress line and the figure filling in below the config and the run.
  browser_->resize(1100, 1850);
  browser_->execute("window.scrollTo(0, 0);");
  fs::create_directories(CONVLAB_SCREENSHOTS);
  write_file(fs::path(CONVLAB_SCREENSHOTS) / "live-half-way.png", browser_->screenshot_png());
  EXPECT_GT(figure_xs().size(), 2u);
  expect_no_policy_violation();
}

}  // namespace
}  // namespace convlab
#endif
