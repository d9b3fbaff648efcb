// Progress and ETA: the correction by measured points, the ticking bar on a terminal, the throttled
// plain lines when piped, and what a run prints where.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "run/progress.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

std::string contents(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  char chunk[4096];
  size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, file)) > 0) text.append(chunk, n);
  return text;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

void sleep_seconds(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

TEST(Eta, NominalBeforeAnyPointWasMeasured) {
  EXPECT_DOUBLE_EQ(corrected_eta(30.0, 10.0, 4.0, 0.0, 0.0), 36.0);  // 6 s left of this point
}

TEST(Eta, ScaledByHowMeasuredPointsComparedWithTheirEstimates) {
  // Points so far took 20 s where 10 s were estimated: everything left takes twice as long.
  EXPECT_DOUBLE_EQ(corrected_eta(30.0, 10.0, 5.0, 20.0, 10.0), 15.0 + 60.0);
  // Faster than estimated.
  EXPECT_DOUBLE_EQ(corrected_eta(30.0, 0.0, 0.0, 5.0, 10.0), 15.0);
}

TEST(Eta, ACurrentPointBeyondItsEstimateCountsNothingMore) {
  EXPECT_DOUBLE_EQ(corrected_eta(30.0, 10.0, 25.0, 10.0, 10.0), 30.0);
}

TEST(Progress, BarKeepsTickingDuringALongPoint) {
  std::FILE* out = std::tmpfile();
  ProgressStyle style;
  style.terminal = true;
  style.redraw_interval_seconds = 0.02;
  {
    Progress progress(3, 30.0, style, out);
    progress.starting(0, "sequential | noise-64x64", 10.0, 20.0);
    sleep_seconds(0.3);  // a long point: no call from the runner meanwhile
    progress.finished(0, "sequential | noise-64x64", "median 1 ms", false, true);
    progress.done();
  }
  const std::string text = contents(out);
  std::fclose(out);
  EXPECT_GE(occurrences(text,
                        "\r\033[K[>                   ] 1/3  elapsed 0m00s  ETA 0m30s  "
                        "sequential | noise-64x64"),
            5u)
      << text;
  EXPECT_NE(text.find("[======>             ] 2/3"), std::string::npos) << text;
  EXPECT_NE(text.find("convlab: 3 points in 0m00s (estimated 0m30s before the run)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(occurrences(text, "median 1 ms"), 0u);  // outcomes only when verbose
}

TEST(Progress, PipedPrintsAPlainLineAtMostEveryInterval) {
  std::FILE* out = std::tmpfile();
  ProgressStyle style;
  style.redraw_interval_seconds = 0.01;
  style.plain_interval_seconds = 0.1;
  Stopwatch clock;
  {
    Progress progress(100, 100.0, style, out);
    for (size_t i = 0; i < 50; ++i) {
      progress.starting(i, "point", 1.0, 99.0 - i);
      sleep_seconds(0.01);
      progress.finished(i, "point", "ok", false, true);
    }
    progress.done();
  }
  const double seconds = clock.elapsed_seconds();
  const std::string text = contents(out);
  std::fclose(out);
  // 50 points, yet one line per 0.1 s (at least 0.5 s passed) and the closing line.
  const size_t lines = occurrences(text, "\n");
  EXPECT_GE(lines, 3u) << text;
  EXPECT_LE(lines, static_cast<size_t>(seconds / 0.1) + 2) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_NE(text.find("convlab: "), std::string::npos);
  EXPECT_NE(text.find("/100 points, elapsed 0m00s, ETA "), std::string::npos) << text;
}

TEST(Progress, QuietNamesOnlyFailedPointsAndVerboseEveryPoint) {
  std::FILE* out = std::tmpfile();
  ProgressStyle quiet;
  quiet.quiet = true;
  {
    Progress progress(2, 1.0, quiet, out);
    progress.starting(0, "a", 0.5, 0.5);
    progress.finished(0, "a", "median 1 ms", false, true);
    progress.starting(1, "b", 0.5, 0.0);
    progress.finished(1, "b", "failed (verification: 3 values)", true, true);
    progress.done();
  }
  EXPECT_EQ(contents(out), "[2/2] b: failed (verification: 3 values)\n");
  std::fclose(out);

  out = std::tmpfile();
  ProgressStyle verbose;
  verbose.verbose = true;
  {
    Progress progress(2, 1.0, verbose, out);
    progress.kept(0, "a");
    progress.starting(1, "b", 0.5, 0.0);
    progress.finished(1, "b", "median 1 ms", false, true);
    progress.done();
  }
  const std::string text = contents(out);
  std::fclose(out);
  EXPECT_NE(text.find("[1/2] a: kept from an earlier run\n[2/2] b: median 1 ms\n"),
            std::string::npos)
      << text;
}

TEST(Progress, ARunThatMeasuredNothingPrintsNoTimeLine) {
  std::FILE* out = std::tmpfile();
  ProgressStyle verbose;
  verbose.verbose = true;
  {
    Progress progress(2, 0.0, verbose, out);
    progress.kept(0, "a");
    progress.kept(1, "b");
    progress.done();
  }
  // Every point kept from earlier runs: "2 points in 0m00s" would say nothing true.
  EXPECT_EQ(contents(out),
            "[1/2] a: kept from an earlier run\n[2/2] b: kept from an earlier run\n");
  std::fclose(out);
}

const char* kConfig = R"(name: progress
images:
  - {type: generated, sizes: [16, 24], channels: 1}
kernels:
  - {type: box, size: 3}
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 2, max_reps: 2}
)";

TEST(RunProgress, PipedRunPrintsNoLinePerPointAndComparesWithTheEstimate) {
  const auto dir = testing::fresh_directory("progress-piped");
  testing::write_text(dir / "progress.yaml", kConfig);
  const auto result = testing::run_convlab("run progress.yaml", dir);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output.find("[1/6]"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("convlab: 6 points in 0m00s (estimated 0m00s before the run)"),
            std::string::npos)
      << result.output;
  std::filesystem::remove_all(dir);
}

TEST(RunProgress, TerminalRunDrawsABar) {
  if (testing::run_shell("command -v script").exit_code != 0)
    GTEST_SKIP() << "script (util-linux) is not installed to give the run a terminal";
  const auto dir = testing::fresh_directory("progress-terminal");
  testing::write_text(dir / "progress.yaml", kConfig);
  const auto result =
      testing::run_shell("cd '" + dir.string() +
                         "' && script -qec '" CONVLAB_EXECUTABLE " run progress.yaml' /dev/null");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("\r\033[K[>                   ] 1/6  elapsed 0m00s  ETA "),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("] 6/6  elapsed "), std::string::npos) << result.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace convlab
