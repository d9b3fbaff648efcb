// The whole report path from fixture results: export, gnuplot, latexmk; the PDF must have every
// section. Skipped only where gnuplot or latexmk is absent (make test installs them).
#include <gtest/gtest.h>

#include <cstdlib>

#include "report_test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using report_test::fixtures;
using report_test::read_file;
using report_test::ScratchDirectory;

bool have(const std::string& tool) {
  return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0;
}

TEST(ReportBuild, FixtureResultsGiveAPdfWithEverySection) {
  for (const char* tool : {"gnuplot", "latexmk", "pdflatex", "pdftotext", "pdfinfo"})
    if (!have(tool))
      GTEST_SKIP() << tool << " is not installed (scripts/install-deps.sh report installs it)";
  ScratchDirectory root("report");
  fs::create_directories(root.path() / "outputs");
  fs::copy(fixtures() / "fixture-demo", root.path() / "outputs" / "fixture-demo",
           fs::copy_options::recursive);
  fs::copy(fixtures() / "experiments", root.path() / "experiments", fs::copy_options::recursive);

  const std::string build = "cd '" + root.path().string() +
                            "' && '" CONVLAB_REPORT_SCRIPTS "/build-report.sh' '" CONVLAB_EXECUTABLE
                            "' > build.log 2>&1";
  ASSERT_EQ(std::system(build.c_str()), 0) << read_file(root.path() / "build.log");
  const fs::path pdf = root.path() / "report" / "report.pdf";
  ASSERT_TRUE(fs::exists(pdf));
  for (const char* figure :
       {"time-vs-size", "speedup-bars", "transfers", "block-heatmap", "efficiency"}) {
    EXPECT_TRUE(
        fs::exists(root.path() / "outputs/fixture-demo/figures" / (std::string(figure) + ".pdf")));
    EXPECT_TRUE(
        fs::exists(root.path() / "outputs/fixture-demo/figures" / (std::string(figure) + ".png")));
  }

  const std::string text_file = (root.path() / "report.txt").string();
  ASSERT_EQ(std::system(("pdftotext '" + pdf.string() + "' '" + text_file + "'").c_str()), 0);
  const std::string text = read_file(text_file);
  for (const char* expected : {"Summary", "Machines that produced the results",
                               "Fixture: CPU and CUDA convolution on two sizes",
                               "What was measured", "Discussion", "Verification", "Provenance",
                               "The configs as written", "Built on", "32 points ok, 4 skipped",
                               "Kernel time by block shape", "the sequential baseline takes 56.5"})
    EXPECT_NE(text.find(expected), std::string::npos) << "missing from the PDF: " << expected;

  const std::string info_file = (root.path() / "info.txt").string();
  ASSERT_EQ(std::system(("pdfinfo '" + pdf.string() + "' > '" + info_file + "'").c_str()), 0);
  EXPECT_NE(read_file(info_file).find("Pages:"), std::string::npos);

  // A second build renders nothing again: figures are only redrawn when stale.
  ASSERT_EQ(std::system(build.c_str()), 0);
  const std::string log = read_file(root.path() / "build.log");
  EXPECT_NE(log.find(" (up to date):\n"), std::string::npos) << log;
  EXPECT_NE(log.find("outputs/fixture-demo/figures/time-vs-size.png (and .pdf)"), std::string::npos)
      << log;
}

// The fixture experiment as a project holds it: its results in outputs/, its discussion in
// experiments/ and its config in configs/.
void copy_fixture_project(const fs::path& root) {
  fs::create_directories(root / "outputs");
  fs::copy(fixtures() / "fixture-demo", root / "outputs" / "fixture-demo",
           fs::copy_options::recursive);
  fs::copy(fixtures() / "experiments", root / "experiments", fs::copy_options::recursive);
  fs::copy(fixtures() / "configs", root / "configs", fs::copy_options::recursive);
}

// make report CONFIG=configs/<name>.yaml: the experiment alone, from the same export, as
// outputs/<name>/report.pdf; the project report is not built.
TEST(ReportBuild, OneExperimentGivesAPdfOfItsOwn) {
  for (const char* tool : {"gnuplot", "latexmk", "pdflatex", "pdftotext"})
    if (!have(tool))
      GTEST_SKIP() << tool << " is not installed (scripts/install-deps.sh report installs it)";
  ScratchDirectory root("experiment-report");
  copy_fixture_project(root.path());

  const std::string build = "cd '" + root.path().string() +
                            "' && '" CONVLAB_REPORT_SCRIPTS
                            "/build-experiment-report.sh' '" CONVLAB_EXECUTABLE
                            "' outputs/fixture-demo > build.log 2>&1";
  ASSERT_EQ(std::system(build.c_str()), 0) << read_file(root.path() / "build.log");
  EXPECT_NE(read_file(root.path() / "build.log")
                .find("outputs/fixture-demo/report.pdf: the report of fixture-demo alone"),
            std::string::npos);
  const fs::path pdf = root.path() / "outputs" / "fixture-demo" / "report.pdf";
  ASSERT_TRUE(fs::exists(pdf));
  EXPECT_FALSE(fs::exists(root.path() / "report" / "report.pdf"));
  const std::string text_file = (root.path() / "report.txt").string();
  ASSERT_EQ(std::system(("pdftotext '" + pdf.string() + "' '" + text_file + "'").c_str()), 0);
  const std::string text = read_file(text_file);
  for (const char* expected :
       {"Fixture: CPU and CUDA convolution on two sizes", "Experiment fixture-demo, built on",
        "What was measured", "Kernel time by block shape", "Discussion",
        "the sequential baseline takes 56.5", "Verification", "32 points ok, 4 skipped",
        "Provenance", "Machines that produced the results", "The config as written",
        "name: fixture-demo"})
    EXPECT_NE(text.find(expected), std::string::npos) << "missing from the PDF: " << expected;
  // The project report's parts are not there.
  for (const char* absent : {"Summary", "Contents", "What the seed claimed"})
    EXPECT_EQ(text.find(absent), std::string::npos) << "in the PDF: " << absent;
}

// convlab report DIR builds the same PDF with the script of its source tree.
TEST(ReportBuild, TheReportCommandBuildsItToo) {
  for (const char* tool : {"gnuplot", "latexmk", "pdflatex"})
    if (!have(tool))
      GTEST_SKIP() << tool << " is not installed (scripts/install-deps.sh report installs it)";
  ScratchDirectory root("report-command");
  copy_fixture_project(root.path());
  const std::string build = "cd '" + root.path().string() +
                            "' && '" CONVLAB_EXECUTABLE
                            "' report outputs/fixture-demo > build.log 2>&1";
  ASSERT_EQ(std::system(build.c_str()), 0) << read_file(root.path() / "build.log");
  EXPECT_TRUE(fs::exists(root.path() / "outputs" / "fixture-demo" / "report.pdf"));
  const std::string missing = "cd '" + root.path().string() +
                              "' && '" CONVLAB_EXECUTABLE
                              "' report outputs/nothing > missing.log 2>&1";
  EXPECT_NE(std::system(missing.c_str()), 0);
  EXPECT_NE(read_file(root.path() / "missing.log").find("no outputs/nothing/results.json"),
            std::string::npos)
      << read_file(root.path() / "missing.log");
}

}  // namespace
}  // namespace convlab
