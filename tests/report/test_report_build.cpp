// The whole report path from fixture results: export, gnuplot, latexmk; the PDF must have every
// section. Skipped only where gnuplot or latexmk is absent (make test installs them).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "history/history_index.hpp"
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

  // A second build draws nothing again: figures are only drawn when stale.
  ASSERT_EQ(std::system(build.c_str()), 0);
  const std::string log = read_file(root.path() / "build.log");
  EXPECT_NE(log.find("fixture-demo: 5 figures (0 drawn now, into outputs/fixture-demo/figures)"),
            std::string::npos)
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

// With outputs/history_<name> beside it (convlab history run), the experiment's PDF has a section
// of its history after the gallery.
TEST(ReportBuild, OneExperimentWithAHistoryHasItsSection) {
  for (const char* tool : {"gnuplot", "latexmk", "pdflatex", "pdftotext"})
    if (!have(tool))
      GTEST_SKIP() << tool << " is not installed (scripts/install-deps.sh report installs it)";
  ScratchDirectory root("experiment-history-report");
  copy_fixture_project(root.path());
  // Three commits that measured what the fixture's results hold.
  const fs::path history = root.path() / "outputs" / "history_fixture-demo";
  HistoryIndex index;
  index.experiment = "fixture-demo";
  index.config_path = "configs/fixture-demo.yaml";
  for (int i = 0; i < 3; ++i) {
    const std::string id(40, "abc"[i]);
    index.add_commits(
        {{id, "Commit number " + std::to_string(i + 1),
          "2026-01-0" + std::to_string(i + 1) + "T00:00:00+00:00", 1767225600LL + i * 86400}});
    CommitRun run;
    run.commit = id;
    run.machine = {"fixture-0000abcd", "Fixture CPU", "Fixture CPU|fixture|"};
    fs::create_directories(history / run.folder());
    fs::copy_file(root.path() / "outputs" / "fixture-demo" / "results.json",
                  history / run.results());
    index.record(run);
  }
  write_history_index(history.string(), index);

  const std::string build = "cd '" + root.path().string() +
                            "' && '" CONVLAB_REPORT_SCRIPTS
                            "/build-experiment-report.sh' '" CONVLAB_EXECUTABLE
                            "' outputs/fixture-demo > build.log 2>&1";
  ASSERT_EQ(std::system(build.c_str()), 0) << read_file(root.path() / "build.log");
  const fs::path pdf = root.path() / "outputs" / "fixture-demo" / "report.pdf";
  const std::string text_file = (root.path() / "report.txt").string();
  ASSERT_EQ(std::system(("pdftotext '" + pdf.string() + "' '" + text_file + "'").c_str()), 0);
  const std::string text = read_file(text_file);
  for (const char* expected : {"across commits", "Commit number 3", "No confirmed step"})
    EXPECT_NE(text.find(expected), std::string::npos) << "missing from the PDF: " << expected;
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

// A figure gnuplot cannot draw (a logarithmic axis over the baseline's largest errors, all 0)
// costs that figure only: the PDF is built with an error box where it would be, naming it and
// gnuplot's line, every other figure is drawn, and the build ends non-zero naming it.
TEST(ReportBuild, AFigureGnuplotCannotDrawIsAnErrorBoxAndTheBuildSaysSo) {
  for (const char* tool : {"gnuplot", "latexmk", "pdflatex", "pdftotext"})
    if (!have(tool))
      GTEST_SKIP() << tool << " is not installed (scripts/install-deps.sh report installs it)";
  ScratchDirectory root("report-broken-figure");
  copy_fixture_project(root.path());
  const fs::path config = root.path() / "configs/fixture-demo.yaml";
  std::string text = read_file(config);
  text.insert(text.find("figures:\n") + 9,
              "  - name: zero-on-log\n"
              "    title: The largest error of the baseline on a logarithmic axis\n"
              "    x: image.size\n"
              "    y: max_abs_error\n"
              "    where: implementation=sequential,kernel.size=3\n"
              "    log: y\n");
  report_test::write_file(config, text);

  for (const std::string& script :
       {std::string("build-report.sh"), std::string("build-experiment-report.sh")}) {
    const bool alone = script == "build-experiment-report.sh";
    const std::string build = "cd '" + root.path().string() + "' && '" CONVLAB_REPORT_SCRIPTS "/" +
                              script + "' '" CONVLAB_EXECUTABLE "'" +
                              (alone ? " outputs/fixture-demo" : "") + " > build.log 2>&1";
    const int status = std::system(build.c_str());
    const std::string log = read_file(root.path() / "build.log");
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << script << "\n" << log;
    EXPECT_NE(log.find("convlab: outputs/fixture-demo: figure 'zero-on-log': gnuplot stopped at "
                       "\"zero-on-log.gp\" line "),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("is built, but the figures above could not be drawn"), std::string::npos)
        << log;
    const fs::path pdf =
        root.path() / (alone ? "outputs/fixture-demo/report.pdf" : "report/report.pdf");
    ASSERT_TRUE(fs::exists(pdf)) << log;
    const std::string text_file = (root.path() / "report.txt").string();
    ASSERT_EQ(std::system(("pdftotext '" + pdf.string() + "' '" + text_file + "'").c_str()), 0);
    const std::string pdf_text = read_file(text_file);
    for (const char* expected : {"Figure zero-on-log is not drawn.", "all points y value undefined",
                                 "The largest error of the baseline on a logarithmic axis.",
                                 "Kernel time by block shape", "Discussion", "Verification"})
      EXPECT_NE(pdf_text.find(expected), std::string::npos) << "missing from the PDF: " << expected;
  }
  for (const char* figure :
       {"time-vs-size", "speedup-bars", "transfers", "block-heatmap", "efficiency"})
    EXPECT_TRUE(
        fs::exists(root.path() / "outputs/fixture-demo/figures" / (std::string(figure) + ".pdf")));
  EXPECT_FALSE(fs::exists(root.path() / "outputs/fixture-demo/figures/zero-on-log.pdf"));
  EXPECT_NE(read_file(root.path() / "outputs/fixture-demo/export/section.tex")
                .find("\\convlabfigureerror{zero-on-log}"),
            std::string::npos);
}

// A kernel listing is not parted: one that fits a page is kept whole on one page (the fixture's
// section put a page break after the 14th line of one of 20), and none has a figure or table
// between its lines.
TEST(ReportBuild, AKernelListingIsKeptWholeAndNotPartedByATable) {
  for (const char* tool : {"gnuplot", "latexmk", "pdflatex", "pdftotext"})
    if (!have(tool))
      GTEST_SKIP() << tool << " is not installed (scripts/install-deps.sh report installs it)";
  ScratchDirectory root("report-listing");
  copy_fixture_project(root.path());
  const fs::path results_path = root.path() / "outputs/fixture-demo/results.json";
  auto results = nlohmann::json::parse(read_file(results_path));
  for (const size_t lines : {size_t(20), size_t(55), size_t(150)}) {
    std::string source;
    for (size_t i = 1; i <= lines; ++i) source += "// listing line " + std::to_string(i) + "\n";
    results["run"]["config"]["sources"] = {
        {{"path", "kernels/k.cu"}, {"sha256", "abc"}, {"text", source}}};
    results["runs"].back()["config"]["sources"] = results["run"]["config"]["sources"];
    report_test::write_file(results_path, results.dump(1));
    const std::string build = "cd '" + root.path().string() +
                              "' && '" CONVLAB_REPORT_SCRIPTS "/build-experiment-report.sh' '" +
                              CONVLAB_EXECUTABLE "' outputs/fixture-demo > build.log 2>&1";
    ASSERT_EQ(std::system(build.c_str()), 0) << read_file(root.path() / "build.log");
    const std::string text_file = (root.path() / "report.txt").string();
    ASSERT_EQ(
        std::system(("pdftotext '" + (root.path() / "outputs/fixture-demo/report.pdf").string() +
                     "' '" + text_file + "'")
                        .c_str()),
        0);
    const std::string text = read_file(text_file);
    const size_t first = text.find("// listing line 1\n");
    const size_t last = text.find("// listing line " + std::to_string(lines));
    ASSERT_NE(first, std::string::npos) << text;
    ASSERT_NE(last, std::string::npos) << text;
    const std::string listing = text.substr(first, last - first);
    // Nothing of a table or a figure between its first line and its last.
    for (const char* intruder : {"Table ", "Figure ", "Speedup by image size"})
      EXPECT_EQ(listing.find(intruder), std::string::npos) << lines << " lines: " << listing;
    if (lines <= 60) {
      EXPECT_EQ(listing.find("\f"), std::string::npos) << "split across pages";
    }
  }
}

}  // namespace
}  // namespace convlab
