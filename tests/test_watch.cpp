// convlab watch: on every save the config is checked, exactly its points not measured yet are run
// (a title edit runs none, a new kernel size runs only its points), the page is made again with
// the changed cells marked, a bad config shows as an error cell above the last good results, the
// idle process uses no CPU, and SIGINT mid-sweep keeps every finished point. The kernel sources a
// config names are watched too: a saved source runs its implementation's points only, one that
// does not compile shows the compiler's lines in the error cell, and the watched sources follow
// the config.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "core/sha256.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// A handful of points of a few milliseconds each.
std::string tiny_config(const std::string& title, const std::string& sizes) {
  return "name: tiny\ntitle: " + title +
         "\n"
         "images:\n"
         "  - {type: generated, sizes: [48], channels: [1], seed: 3}\n"
         "kernels:\n"
         "  - {type: gaussian, size: [" +
         sizes +
         "]}\n"
         "implementations:\n"
         "  sequential: {}\n"
         "measure: {warmup: 0, min_reps: 2, max_reps: 2, max_seconds: 0.05}\n"
         "figures:\n"
         "  - name: time_by_size\n"
         "    type: line\n"
         "    x: kernel.size\n"
         "    y: median_ms\n"
         "    series: implementation\n";
}

// A convlab watch running in the background of a test, its output in watch.log. Its exit status
// is written apart and renamed into watch.status, so that the file exists only once it is whole.
class WatchProcess {
 public:
  // `environment`: assignments before the command, e.g. "CONVLAB_KERNEL_CACHE=cache".
  WatchProcess(const fs::path& dir, const std::string& arguments,
               const std::string& environment = "")
      : dir_(dir) {
    const auto started = testing::run_shell(
        "( " + environment + " \"$CONVLAB\" watch " + arguments +
            " > watch.log 2>&1 & echo $! > watch.pid; wait $!;"
            " echo \"exit $?\" > watch.status.part; mv watch.status.part watch.status )"
            " > /dev/null 2>&1 &",
        dir_);
    EXPECT_EQ(started.exit_code, 0) << started.output;
    wait_until([&] { return fs::exists(dir_ / "watch.pid") && fs::file_size(dir_ / "watch.pid"); },
               10, "the watch started");
    pid_ = std::stoi(testing::read_text(dir_ / "watch.pid"));
  }
  // Killed, and waited for, so that nothing writes into the test's folder any more.
  ~WatchProcess() {
    if (pid_ <= 0 || stopped()) return;
    ::kill(pid_, SIGKILL);
    wait_until([&] { return stopped(); }, 10, "the watch to be killed");
  }

  pid_t pid() const { return pid_; }
  std::string log() const {
    return fs::exists(dir_ / "watch.log") ? testing::read_text(dir_ / "watch.log") : "";
  }
  // How many times it has said it waits for a save: one per save dealt with, and one at start.
  size_t waits() const { return count(log(), "convlab watch: waiting for "); }
  bool stopped() const { return fs::exists(dir_ / "watch.status"); }
  std::string status() const { return testing::read_text(dir_ / "watch.status"); }

  void wait_for_waits(size_t n, double seconds = 60) const {
    wait_until([&] { return waits() >= n; }, seconds,
               "the watch to deal with save " + std::to_string(n - 1));
  }

  void wait_until(const std::function<bool()>& done, double seconds,
                  const std::string& what) const {
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    while (!done()) {
      if (Clock::now() > deadline) {
        ADD_FAILURE() << "timed out waiting for " << what << "; watch.log:\n" << log();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  static size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }

 private:
  fs::path dir_;
  pid_t pid_ = -1;
};

// A file saved the way editors save: a new file renamed over the old one.
void save_by_rename(const fs::path& path, const std::string& text) {
  testing::write_text(path.string() + ".new", text);
  fs::rename(path.string() + ".new", path);
}

class Watch : public testing::DirectoryTest {
 protected:
  json results() const {
    return json::parse(testing::read_text(dir_ / "outputs/tiny/results.json"));
  }
  std::string page() const { return testing::read_text(dir_ / "outputs/notebook/tiny.html"); }
  // The "kept N · ran M" line of the latest run summary in the log.
  static std::string last_counts(const std::string& log) {
    const size_t at = log.rfind("kept ");
    return at == std::string::npos ? "" : log.substr(at, log.find('\n', at) - at);
  }
};

TEST_F(Watch, ATitleOrFigureEditRunsNoPointAndANewKernelSizeRunsOnlyItsPoints) {
  testing::write_text(dir_ / "tiny.yaml", tiny_config("First title", "3"));
  WatchProcess watch(dir_, "tiny.yaml");
  watch.wait_for_waits(1);
  const size_t first = results()["records"].size();
  ASSERT_GT(first, 0u) << watch.log();
  EXPECT_NE(page().find("First title"), std::string::npos);
  // The page's link to the index leads to one naming it.
  EXPECT_NE(testing::read_text(dir_ / "outputs/notebook/index.html").find("href=\"tiny.html\""),
            std::string::npos);

  save_by_rename(dir_ / "tiny.yaml", tiny_config("Second title", "3"));
  watch.wait_for_waits(2);
  EXPECT_EQ(results()["records"].size(), first) << watch.log();
  EXPECT_EQ(last_counts(watch.log()).rfind("kept " + std::to_string(first) + " \u00b7 ran 0", 0),
            0u)
      << watch.log();
  EXPECT_NE(page().find("Second title"), std::string::npos);
  EXPECT_EQ(page().find("First title"), std::string::npos);

  // Written in place (no rename), as some editors do.
  testing::write_text(dir_ / "tiny.yaml", tiny_config("Second title", "3, 5"));
  watch.wait_for_waits(3);
  const json records = results()["records"];
  ASSERT_EQ(records.size(), 2 * first) << watch.log();
  EXPECT_EQ(last_counts(watch.log())
                .rfind("kept " + std::to_string(first) + " \u00b7 ran " + std::to_string(first), 0),
            0u)
      << watch.log();
  size_t of_five = 0;
  for (const auto& record : records) of_five += record["kernel"]["size"] == 5;
  EXPECT_EQ(of_five, first);
  // The cells whose content changed with the new points are marked, the config's among them.
  EXPECT_NE(page().find("class=\"cell cell-config changed\""), std::string::npos);
  EXPECT_NE(page().find("class=\"cell cell-figure changed\""), std::string::npos);
  EXPECT_NE(page().find("changed-badge"), std::string::npos);

  // A figure declaration alone: no point runs either.
  std::string retitled = tiny_config("Second title", "3, 5");
  retitled.replace(retitled.find("    type: line"), 0, "    title: Time by kernel size\n");
  save_by_rename(dir_ / "tiny.yaml", retitled);
  watch.wait_for_waits(4);
  EXPECT_EQ(results()["records"].size(), 2 * first) << watch.log();
  EXPECT_EQ(
      last_counts(watch.log()).rfind("kept " + std::to_string(2 * first) + " \u00b7 ran 0", 0), 0u)
      << watch.log();
  EXPECT_NE(page().find("Time by kernel size"), std::string::npos);
  EXPECT_FALSE(watch.stopped()) << watch.log();
}

// A save reads the config once, however often the page is made while its points run: the check,
// the plan, the sources it names, the page's cells and its freshness take that one read (counted
// by the kernel, as in test_config_reads.cpp).
TEST_F(Watch, ASaveReadsTheConfigOnce) {
  testing::write_text(dir_ / "tiny.yaml", tiny_config("First title", "3"));
  testing::FileOpens opens(dir_ / "tiny.yaml");
  WatchProcess watch(dir_, "tiny.yaml");
  watch.wait_for_waits(1);
  EXPECT_EQ(opens.take(), 1u) << "the first save, at start";
  save_by_rename(dir_ / "tiny.yaml", tiny_config("Second title", "3"));
  watch.wait_for_waits(2);
  EXPECT_EQ(opens.take(), 1u) << "a title edit, which runs no point";
  save_by_rename(dir_ / "tiny.yaml", tiny_config("Second title", "3, 5"));
  watch.wait_for_waits(3);
  EXPECT_EQ(opens.take(), 1u) << "a new kernel size: its points run, the page made after each";
  save_by_rename(dir_ / "tiny.yaml", "name: tiny\nimages: [\n");
  watch.wait_for_waits(4);
  EXPECT_EQ(opens.take(), 1u) << "a config that does not load";
}

TEST_F(Watch, ABrokenConfigShowsAnErrorCellAboveTheLastGoodResults) {
  testing::write_text(dir_ / "tiny.yaml", tiny_config("Good", "3"));
  WatchProcess watch(dir_, "tiny.yaml");
  watch.wait_for_waits(1);
  const size_t records = results()["records"].size();
  ASSERT_NE(page().find("cell-figure"), std::string::npos);

  std::string broken = tiny_config("Good", "3");
  broken.replace(broken.find("size: [3]"), 9, "size: [4]");  // an even size
  save_by_rename(dir_ / "tiny.yaml", broken);
  watch.wait_for_waits(2);
  const std::string log = watch.log();
  std::smatch where;
  ASSERT_TRUE(std::regex_search(log, where,
                                std::regex("tiny\\.yaml:([0-9]+):([0-9]+): kernels\\[0\\]\\.size")))
      << log;
  EXPECT_EQ(where[1], "6");
  const std::string shown = page();
  const size_t error =
      shown.find("<section class=\"cell cell-error\" id=\"cell-error\" role=\"alert\">");
  ASSERT_NE(error, std::string::npos) << shown;
  EXPECT_NE(shown.find("tiny.yaml:6:", error), std::string::npos);
  EXPECT_LT(error, shown.find("cell-figure")) << "the error is at the top, the figure still below";
  EXPECT_EQ(results()["records"].size(), records);
  // The file is there, only invalid: the page shows it as written, not a dump of the run's copy.
  EXPECT_EQ(shown.find("not on disk any more"), std::string::npos);
  EXPECT_EQ(shown.find("The config file is gone"), std::string::npos);
  EXPECT_NE(shown.find("tiny.yaml does not load"), std::string::npos);
  EXPECT_NE(std::regex_replace(shown, std::regex("<[^>]*>"), "").find("size: [4]"),
            std::string::npos)
      << "the config cell shows the file as saved";
  EXPECT_EQ(shown.find("\"resolved\""), std::string::npos);
  EXPECT_EQ(shown.find("{\n  &quot;"), std::string::npos);

  save_by_rename(dir_ / "tiny.yaml", tiny_config("Good again", "3"));
  watch.wait_for_waits(3);
  EXPECT_EQ(page().find("role=\"alert\"><div class=\"cell-label\">config error"),
            std::string::npos);
  EXPECT_NE(page().find("Good again"), std::string::npos);
}

TEST_F(Watch, AConfigInvalidFromTheFirstSaveHasAPageWithItsError) {
  std::string broken = tiny_config("Never good", "3");
  broken.replace(broken.find("size: [3]"), 9, "size: [4]");
  testing::write_text(dir_ / "tiny.yaml", broken);
  {
    WatchProcess watch(dir_, "tiny.yaml");
    watch.wait_for_waits(1);
    ASSERT_TRUE(fs::exists(dir_ / "outputs/notebook/tiny.html")) << watch.log();
    const std::string shown = page();
    EXPECT_NE(shown.find("<section class=\"cell cell-error\" id=\"cell-error\" role=\"alert\">"),
              std::string::npos)
        << shown;
    EXPECT_NE(shown.find("tiny.yaml:6:"), std::string::npos);
    EXPECT_NE(shown.find("id=\"config\""), std::string::npos) << "the config as written";
    EXPECT_EQ(shown.find("not on disk any more"), std::string::npos);
    EXPECT_TRUE(fs::exists(dir_ / "outputs/notebook/index.html"));
    EXPECT_FALSE(fs::exists(dir_ / "outputs/tiny/results.json"));
  }
  // The first watch is gone: the second writes the same log, pid and status files.
  for (const char* file : {"watch.log", "watch.pid", "watch.status"}) fs::remove(dir_ / file);
  // Served, the announced page is that page, not a 404.
  WatchProcess watch(dir_, "tiny.yaml --serve --notebook served");
  watch.wait_for_waits(1);
  const std::string log = watch.log();
  std::smatch url;
  ASSERT_TRUE(std::regex_search(log, url,
                                std::regex("http://127\\.0\\.0\\.1:([0-9]+)/([a-z]+\\.html)"
                                           "\\?token=([0-9a-f]+)")))
      << log;
  EXPECT_EQ(url[2], "tiny.html");
  const auto read =
      testing::run_shell("timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + url[1].str() +
                             "; printf \"GET /" + url[2].str() + "?token=" + url[3].str() +
                             " HTTP/1.1\\r\\nHost: 127.0.0.1:" + url[1].str() +
                             "\\r\\nConnection: close\\r\\n\\r\\n\" >&3; cat <&3'",
                         dir_);
  EXPECT_NE(read.output.find("200 OK"), std::string::npos) << read.output;
  EXPECT_NE(read.output.find("config error"), std::string::npos) << read.output;
  EXPECT_NE(read.output.find("tiny.yaml:6:"), std::string::npos) << read.output;
  // Fixed, it runs and the page shows the results without the error.
  save_by_rename(dir_ / "tiny.yaml", tiny_config("Good at last", "3"));
  watch.wait_for_waits(2);
  const std::string fixed = testing::read_text(dir_ / "served/tiny.html");
  EXPECT_EQ(fixed.find("role=\"alert\"><div class=\"cell-label\">config error"), std::string::npos);
  EXPECT_NE(fixed.find("Good at last"), std::string::npos);
  EXPECT_NE(fixed.find("cell-figure"), std::string::npos);
}

// A watched config swapped for a link (to any file of the machine) is refused, naming the link:
// nothing of the link's target shows in the terminal, the page, the served page or /_events, and
// `validate` refuses the link the same way.
TEST_F(Watch, AConfigSwappedForALinkIsRefusedByNameAndNothingOfItsTargetShows) {
  testing::write_text(dir_ / "secret.txt", "SECRET_KEY: hunter2-do-not-show\nother: line\n");
  testing::write_text(dir_ / "tiny.yaml", tiny_config("Good", "3"));
  WatchProcess watch(dir_, "tiny.yaml --serve");
  watch.wait_for_waits(1);
  fs::create_symlink("secret.txt", dir_ / "tiny.yaml.new");
  fs::rename(dir_ / "tiny.yaml.new", dir_ / "tiny.yaml");  // as an editor saves
  watch.wait_for_waits(2);
  const std::string refusal = "tiny.yaml: is a symbolic link";
  const std::string log = watch.log();
  EXPECT_NE(log.find(refusal), std::string::npos) << log;
  EXPECT_NE(page().find(refusal), std::string::npos);
  std::smatch url;
  ASSERT_TRUE(std::regex_search(log, url,
                                std::regex("http://127\\.0\\.0\\.1:([0-9]+)/[a-z]+\\.html"
                                           "\\?token=([0-9a-f]+)")))
      << log;
  // The served page and the live channel, read over bash's /dev/tcp for two seconds.
  std::string served;
  for (const std::string path : {"/tiny.html", "/_events"}) {
    const auto read = testing::run_shell(
        "timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + url[1].str() + "; printf \"GET " + path +
            "?token=" + url[2].str() + " HTTP/1.1\\r\\nHost: 127.0.0.1:" + url[1].str() +
            "\\r\\n\\r\\n\" >&3; cat <&3'",
        dir_);
    served += read.output;
  }
  EXPECT_NE(served.find("200 OK"), std::string::npos) << served;
  EXPECT_NE(served.find("is a symbolic link"), std::string::npos) << served;
  const auto validated = testing::run_convlab("validate tiny.yaml", dir_);
  EXPECT_EQ(validated.exit_code, 2);
  EXPECT_NE(validated.output.find(refusal), std::string::npos) << validated.output;
  for (const std::string& shown : {log, page(), served, validated.output}) {
    EXPECT_EQ(shown.find("SECRET"), std::string::npos) << shown;
    EXPECT_EQ(shown.find("hunter2"), std::string::npos) << shown;
  }
}

// Waiting for a save blocks in poll() with no timeout: over 2 s idle the process is given
// (practically) no CPU time. The bound, 5 clock ticks (50 ms at 100 Hz), leaves room for a
// loaded machine's accounting; a poll every few milliseconds would use far more.
TEST_F(Watch, WaitingForASaveUsesNoCpu) {
  testing::write_text(dir_ / "tiny.yaml", tiny_config("Idle", "3"));
  WatchProcess watch(dir_, "tiny.yaml");
  watch.wait_for_waits(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the last page write settles
  const auto cpu_ticks = [&] {
    std::istringstream stat(testing::read_text("/proc/" + std::to_string(watch.pid()) + "/stat"));
    std::string field;
    long long total = 0;
    // utime and stime are fields 14 and 15; the name (field 2) has no spaces here.
    for (int i = 1; i <= 15 && stat >> field; ++i)
      if (i >= 14) total += std::stoll(field);
    return total;
  };
  const long long before = cpu_ticks();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const long long used = cpu_ticks() - before;
  std::cout << "convlab watch idle: " << used << " clock ticks of CPU in 2 s\n";
  EXPECT_LT(used, 5);

  // The live page is made static again by `convlab notebook`.
  EXPECT_NE(page().find("connect-src"), std::string::npos);
  const auto made = testing::run_convlab("notebook outputs/tiny --quiet", dir_);
  ASSERT_EQ(made.exit_code, 0) << made.output;
  EXPECT_EQ(page().find("connect-src"), std::string::npos);
  EXPECT_EQ(page().find("cell-error"), std::string::npos);
}

// Ctrl-C during a sweep stops it as it stops `convlab run`: exit 130, a line saying what was
// kept, and every finished point in results.json.
TEST_F(Watch, SigintMidSweepKeepsEveryFinishedPoint) {
  const std::string sizes = "3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25";
  std::string longer = tiny_config("Long", sizes);
  longer.replace(longer.find("sizes: [48]"), 11, "sizes: [256, 320, 384, 448]");
  longer.erase(longer.find("figures:"));  // its cells would hold several images' points
  testing::write_text(dir_ / "tiny.yaml", longer);
  WatchProcess watch(dir_, "tiny.yaml");
  watch.wait_until(
      [&] {
        const fs::path journal = dir_ / "outputs/tiny/results.journal";
        return fs::exists(journal) &&
               testing::read_text(journal).find("\"run_id\"") != std::string::npos;
      },
      60, "the first point of the sweep");
  ::kill(watch.pid(), SIGINT);
  watch.wait_until([&] { return watch.stopped(); }, 30, "the watch to stop");
  EXPECT_EQ(watch.status(), "exit 130\n") << watch.log();
  std::smatch match;
  const std::string log = watch.log();
  ASSERT_TRUE(
      std::regex_search(log, match,
                        std::regex("interrupted: ([0-9]+) of 48 points done; results kept in "
                                   "outputs/tiny/results.json")))
      << log;
  const size_t done = std::stoul(match[1]);
  EXPECT_GE(done, 1u);
  EXPECT_LT(done, 48u) << "the sweep ended before the signal: make it longer";
  const json doc = results();
  EXPECT_EQ(doc["records"].size(), done);
  EXPECT_TRUE(doc["run"]["interrupted"].is_string());
}

// A save during a sweep stops it (its finished points kept) and the new config starts at once:
// in the end every point of the new config has exactly one record.
TEST_F(Watch, ASaveDuringASweepTakesTheNewConfigAndKeepsWhatFinished) {
  const std::string sizes = "3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25";
  std::string longer = tiny_config("Long", sizes);
  longer.replace(longer.find("sizes: [48]"), 11, "sizes: [256, 320]");
  longer.erase(longer.find("figures:"));
  testing::write_text(dir_ / "tiny.yaml", longer);
  WatchProcess watch(dir_, "tiny.yaml");
  watch.wait_until(
      [&] {
        const fs::path journal = dir_ / "outputs/tiny/results.journal";
        return fs::exists(journal) &&
               testing::read_text(journal).find("\"run_id\"") != std::string::npos;
      },
      60, "the first point of the sweep");
  std::string renamed = longer;
  renamed.replace(renamed.find("title: Long"), 11, "title: Renamed");
  save_by_rename(dir_ / "tiny.yaml", renamed);
  watch.wait_for_waits(1, 120);
  const std::string log = watch.log();
  EXPECT_NE(log.find("saved during the sweep: its finished points are kept"), std::string::npos)
      << "the sweep ended before the save: make it longer\n"
      << log;
  const json records = results()["records"];
  EXPECT_EQ(records.size(), 24u) << log;
  std::set<std::string> keys;
  for (const auto& record : records) keys.insert(record["key"].get<std::string>());
  EXPECT_EQ(keys.size(), records.size()) << "a point measured twice";
  EXPECT_NE(page().find("Renamed"), std::string::npos);
}

// A user's own CPU kernel, the straightforward loops; `note` goes into a comment, so that saving
// another note changes the source and nothing else.
std::string own_kernel(const std::string& note) {
  return "/* " + note + " */\n#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n" + R"(
CONVLAB_CPU_ENTRY(const convlab_problem* p) {
  const int r = p->ksize / 2;
  for (int y = 0; y < p->height; ++y)
    for (int x = 0; x < p->width; ++x)
      for (int c = 0; c < p->channels; ++c) {
        float sum = 0.f;
        for (int ky = 0; ky < p->ksize; ++ky) {
          const int sy = convlab_border_index(y + ky - r, p->height, p->border);
          if (sy < 0) continue;
          for (int kx = 0; kx < p->ksize; ++kx) {
            const int sx = convlab_border_index(x + kx - r, p->width, p->border);
            if (sx < 0) continue;
            sum += p->weights[ky * p->ksize + kx] * p->in[sy * p->in_pitch + sx * p->channels + c];
          }
        }
        convlab_store(p->out, ((long long)y * p->width + x) * p->channels + c, p->output, sum);
      }
  return 0;
}
)";
}

// tiny_config with the user's kernel `source` beside sequential, at two kernel sizes.
std::string own_kernel_config(const std::string& source) {
  std::string config = tiny_config("Own", "3, 5");
  config.replace(config.find("  sequential: {}\n"), 16,
                 "  sequential: {}\n  mine: {source: " + source + "}\n");
  return config;
}

class WatchSources : public Watch {
 protected:
  void SetUp() override {
    Watch::SetUp();
    fs::create_directories(dir_ / "kernels");
  }
  // The kernel cache of the test's own, as test_own_kernels.cpp keeps it.
  std::string environment() const {
    return "CONVLAB_KERNEL_CACHE='" + (dir_ / "cache").string() + "'";
  }
  size_t records_of(const std::string& implementation) const {
    const json records = results()["records"];
    size_t n = 0;
    for (const auto& record : records) n += record["implementation"] == implementation;
    return n;
  }
};

TEST_F(WatchSources, ASavedSourceRunsItsImplementationsPointsOnly) {
  testing::write_text(dir_ / "kernels/mine.c", own_kernel("first"));
  testing::write_text(dir_ / "tiny.yaml", own_kernel_config("kernels/mine.c"));
  WatchProcess watch(dir_, "tiny.yaml", environment());
  watch.wait_for_waits(1);
  ASSERT_EQ(records_of("mine"), 2u) << watch.log();
  ASSERT_EQ(records_of("sequential"), 2u) << watch.log();
  EXPECT_NE(watch.log().find("waiting for tiny.yaml or its kernel source to be saved"),
            std::string::npos)
      << watch.log();
  EXPECT_NE(page().find("<section class=\"cell cell-source\" id=\"cell-source-1\">"),
            std::string::npos);
  EXPECT_NE(page().find("first"), std::string::npos);

  save_by_rename(dir_ / "kernels/mine.c", own_kernel("second"));
  watch.wait_for_waits(2);
  // The edited source is another point: its two points ran, sequential's were kept.
  EXPECT_EQ(last_counts(watch.log()).rfind("kept 2 \u00b7 ran 2", 0), 0u) << watch.log();
  EXPECT_NE(watch.log().find("your kernels: 1 variant compiled"), std::string::npos) << watch.log();
  size_t second = 0;
  const json records = results()["records"];
  for (const auto& record : records)
    if (record["implementation"] == "mine" &&
        record["source"]["sha256"] == sha256_hex(own_kernel("second")))
      ++second;
  EXPECT_EQ(second, 2u) << watch.log();
  EXPECT_EQ(records_of("sequential"), 2u);
  EXPECT_NE(page().find("second"), std::string::npos);
  EXPECT_NE(page().find("class=\"cell cell-source changed\""), std::string::npos);
  EXPECT_EQ(page().find("class=\"banner stale\""), std::string::npos) << "up to date again";
  EXPECT_FALSE(watch.stopped()) << watch.log();
}

TEST_F(WatchSources, ASourceThatDoesNotCompileShowsTheCompilersLinesAboveTheLastGoodResults) {
  testing::write_text(dir_ / "kernels/mine.c", own_kernel("good"));
  testing::write_text(dir_ / "tiny.yaml", own_kernel_config("kernels/mine.c"));
  WatchProcess watch(dir_, "tiny.yaml", environment());
  watch.wait_for_waits(1);
  const size_t records = results()["records"].size();
  ASSERT_EQ(records, 4u) << watch.log();

  std::string broken = own_kernel("broken");
  broken.replace(broken.find("return 0;"), 9, "return undefined_name;");
  save_by_rename(dir_ / "kernels/mine.c", broken);
  watch.wait_for_waits(2);
  const std::string log = watch.log();
  EXPECT_NE(log.find("1 of 1 variant of your kernels did not compile; nothing was run"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("undefined_name"), std::string::npos) << log;
  EXPECT_EQ(results()["records"].size(), records);
  const std::string shown = page();
  const size_t error =
      shown.find("<section class=\"cell cell-error\" id=\"cell-error\" role=\"alert\">");
  ASSERT_NE(error, std::string::npos) << shown;
  EXPECT_NE(shown.find("<div class=\"cell-label\">kernel compile error</div>", error),
            std::string::npos);
  EXPECT_NE(shown.find("undefined_name", error), std::string::npos);
  EXPECT_NE(shown.find("Fix the kernel source and save it again.", error), std::string::npos);
  EXPECT_LT(error, shown.find("cell-figure")) << "the error at the top, the figure still below";
  // The config is fine: the page says which source changed, not that the config is gone.
  EXPECT_NE(shown.find("kernels/mine.c changed since the run."), std::string::npos)
      << shown.substr(0, 4000);
  EXPECT_EQ(shown.find("not on disk any more"), std::string::npos);
  EXPECT_EQ(shown.find("cannot be read"), std::string::npos);
  EXPECT_NE(shown.find("<code>tiny.yaml</code>"), std::string::npos);

  save_by_rename(dir_ / "kernels/mine.c", own_kernel("fixed"));
  watch.wait_for_waits(3);
  EXPECT_EQ(page().find("role=\"alert\"><div class=\"cell-label\">kernel compile error"),
            std::string::npos);
  EXPECT_NE(page().find("id=\"cell-error\" hidden=\"hidden\""), std::string::npos);
  EXPECT_EQ(last_counts(watch.log()).rfind("kept 2 \u00b7 ran 2", 0), 0u) << watch.log();
  EXPECT_EQ(page().find("class=\"banner stale\""), std::string::npos);
}

TEST_F(WatchSources, TheWatchedSourcesFollowTheConfig) {
  testing::write_text(dir_ / "kernels/mine.c", own_kernel("one"));
  testing::write_text(dir_ / "kernels/other.c", own_kernel("other"));
  testing::write_text(dir_ / "tiny.yaml", own_kernel_config("kernels/mine.c"));
  WatchProcess watch(dir_, "tiny.yaml", environment());
  watch.wait_for_waits(1);

  // The config now names other.c: saving mine.c does nothing, saving other.c runs.
  save_by_rename(dir_ / "tiny.yaml", own_kernel_config("kernels/other.c"));
  watch.wait_for_waits(2);
  save_by_rename(dir_ / "kernels/mine.c", own_kernel("two"));
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  EXPECT_EQ(watch.waits(), 2u) << "a source the config no longer names was taken\n" << watch.log();
  save_by_rename(dir_ / "kernels/other.c", own_kernel("other, edited"));
  watch.wait_for_waits(3);
  EXPECT_EQ(last_counts(watch.log()).rfind("kept 2 \u00b7 ran 2", 0), 0u) << watch.log();

  // A config that does not load still names its sources: a source missing until now is watched,
  // and saving it makes the config good.
  save_by_rename(dir_ / "tiny.yaml", own_kernel_config("kernels/new.c"));
  watch.wait_for_waits(4);
  EXPECT_NE(watch.log().find("implementations.mine.source"), std::string::npos) << watch.log();
  testing::write_text(dir_ / "kernels/new.c", own_kernel("new"));
  watch.wait_for_waits(5);
  EXPECT_EQ(last_counts(watch.log()).rfind("kept 2 \u00b7 ran 2", 0), 0u) << watch.log();
  EXPECT_FALSE(watch.stopped()) << watch.log();
}

TEST_F(Watch, BadArgumentsExitTwoWithAMessage) {
  const auto missing = testing::run_convlab("watch nothing.yaml", dir_);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("nothing.yaml: no such file"), std::string::npos) << missing.output;
  const auto option = testing::run_convlab("watch tiny.yaml --frobnicate", dir_);
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.output.find("unknown option '--frobnicate'"), std::string::npos);
  testing::write_text(dir_ / "tiny.yaml", tiny_config("x", "3"));
  const auto port = testing::run_convlab("watch tiny.yaml --serve 70000", dir_);
  EXPECT_EQ(port.exit_code, 2);
  EXPECT_NE(port.output.find("a port is 0 to 65535"), std::string::npos) << port.output;
  const auto bind = testing::run_convlab("watch tiny.yaml --bind 127.0.0.1", dir_);
  EXPECT_EQ(bind.exit_code, 2);
  EXPECT_NE(bind.output.find("--bind is the address of --serve"), std::string::npos);
  const auto address =
      testing::run_convlab("watch tiny.yaml --serve 0 --bind not-an-address", dir_);
  EXPECT_EQ(address.exit_code, 2);
  EXPECT_NE(address.output.find("convlab watch: --serve: bind address 'not-an-address'"),
            std::string::npos)
      << address.output;
}

}  // namespace
}  // namespace convlab
