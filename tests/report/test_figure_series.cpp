// A series with no point in a panel (CUDA lines in the CPU panel) is left out of that panel's
// plot command, so gnuplot draws the figure without "Skipping data file with no valid points"
// (nor any other word, in any locale).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "app/commands.hpp"
#include "report_test_support.hpp"

namespace convlab {
namespace {

using report_test::fixture_results;
using report_test::read_file;
using report_test::ScratchDirectory;
using report_test::write_file;

size_t count_of(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++count;
  return count;
}

TEST(FigureSeries, SeriesWithoutPointsInAPanelAreNotPlottedThere) {
  ScratchDirectory dir("figure-series");
  write_file(dir.path() / "config.yaml",
             "figures:\n"
             "  - {name: by-family, x: image.width, y: median_ms, series: implementation,\n"
             "     panel: family, where: kernel.name=gaussian3, reduce: min}\n"
             "  - {name: bars-by-family, type: bars, x: image.size, y: median_ms,\n"
             "     series: implementation, panel: family, where: kernel.name=gaussian3,\n"
             "     reduce: min}\n"
             "tables: []\n");
  ASSERT_EQ(
      export_command({fixture_results().string(), "--config", (dir.path() / "config.yaml").string(),
                      "--out", (dir.path() / "export").string(), "--figures",
                      (dir.path() / "figures").string()}),
      0);
  // Four series (sequential, openmp, cuda_global, cuda_shared): two in the CPU panel, two in the
  // CUDA panel, each drawn twice (PDF and PNG); not four in each.
  for (const char* name : {"by-family", "bars-by-family"}) {
    const std::string script = read_file(dir.path() / "export/plots" / (std::string(name) + ".gp"));
    EXPECT_EQ(count_of(script, "--panel1.tsv\" skip 1 using"), 4u) << script;
    EXPECT_EQ(count_of(script, "--panel2.tsv\" skip 1 using"), 4u) << script;
  }
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "gnuplot is not installed (scripts/install-deps.sh report)";
  // The export drew both, in a UTF-8 locale of its own whatever the test's caller has: gnuplot
  // said nothing (an "iconv failed" warning of the C locale would be in its log).
  for (const char* name : {"by-family", "bars-by-family"}) {
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "figures" / (std::string(name) + ".pdf")));
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "figures" / (std::string(name) + ".png")));
    EXPECT_EQ(read_file(dir.path() / "export/plots" / (std::string(name) + ".log")), "");
  }
}

}  // namespace
}  // namespace convlab
