// Every implementation against a named one (query/versus.hpp): `convlab show --vs IMPL`, `convlab
// export --vs IMPL --format csv|md|tsv` and a `tables:` declaration with `vs:` placed in the
// notebook and the report, per problem or per --by value, with the ratio and the Mann-Whitney
// verdict in the same words everywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "core/number_text.hpp"
#include "figures/declarations.hpp"
#include "figures/figure_data.hpp"
#include "measure/mann_whitney.hpp"
#include "query/record_queries.hpp"
#include "query/results_document.hpp"
#include "query/versus.hpp"
#include "report_test_support.hpp"
#include "tables/versus_writer.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using report_test::fixture_results;
using report_test::fixtures;
using report_test::read_file;
using report_test::ScratchDirectory;
using report_test::write_file;

struct Ran {
  int status = -1;
  std::string output;
};

Ran convlab_in(const fs::path& dir, const std::string& arguments) {
  const int status = std::system(
      ("cd '" + dir.string() + "' && '" CONVLAB_EXECUTABLE "' " + arguments + " > out.log 2>&1")
          .c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(dir / "out.log")};
}

class Versus : public ::testing::Test {
 protected:
  void SetUp() override {
    results_ = load_results_document(fixture_results().string());
    points_ = latest_ok_points(results_);
  }
  VersusTable against(const std::string& implementation,
                      std::optional<std::string> by = std::nullopt) const {
    VersusOptions options;
    options.against = implementation;
    options.by = std::move(by);
    return compare_with_implementation(points_, results_.file.runs, options);
  }
  const Record* fastest(const std::string& implementation, const std::string& image,
                        const std::string& kernel) const {
    const Record* best = nullptr;
    for (const Record* record : points_)
      if (record->implementation == implementation && record->image.name == image &&
          record->kernel.name == kernel && (!best || record->median_ms() < best->median_ms()))
        best = record;
    return best;
  }
  ResultsDocument results_;
  std::vector<const Record*> points_;
};

TEST_F(Versus, EveryImplementationAgainstTheNamedOnePerProblem) {
  const VersusTable table = against("openmp");
  EXPECT_EQ(table.implementations,
            (std::vector<std::string>{"sequential", "cuda_global", "cuda_shared"}));
  // Two images and two kernels: four problems, each labelled by what varies.
  ASSERT_EQ(table.rows.size(), 4u);
  for (const VersusRow& row : table.rows) {
    ASSERT_EQ(row.labels.size(), 2u);
    EXPECT_EQ(row.labels[0].first, "image.name");
    EXPECT_EQ(row.labels[1].first, "kernel.name");
    const Record* reference = fastest("openmp", row.labels[0].second, row.labels[1].second);
    ASSERT_EQ(row.reference, reference);
    for (size_t i = 0; i < table.implementations.size(); ++i) {
      const VersusCell& cell = row.cells[i];
      const Record* point =
          fastest(table.implementations[i], row.labels[0].second, row.labels[1].second);
      ASSERT_EQ(cell.point, point);
      ASSERT_TRUE(cell.ratio.has_value());
      EXPECT_DOUBLE_EQ(*cell.ratio, point->median_ms() / reference->median_ms());
      const auto& a = reference->timing->compute.samples_ms;
      const auto& b = point->timing->compute.samples_ms;
      const MannWhitney test = mann_whitney_u(a, b);
      EXPECT_DOUBLE_EQ(cell.test.p_value, test.p_value);
      EXPECT_EQ(*cell.verdict, change_verdict(*cell.ratio, test, a.size(), b.size(), 0.05, 0.05));
      EXPECT_EQ(versus_cell_words(cell),
                format_number(*cell.ratio, 3) + "x, " + verdict_words(*cell.verdict, test.p_value));
    }
  }
  // What every row shares is said once.
  ASSERT_FALSE(table.constant.empty());
  EXPECT_EQ(table.constant.front().first, "border");
}

TEST_F(Versus, PerValueOfAField) {
  const VersusTable table = against("sequential", std::string("kernel.size"));
  // One row per kernel size of each image.
  ASSERT_EQ(table.rows.size(), 4u);
  for (const VersusRow& row : table.rows) EXPECT_EQ(row.labels.back().first, "kernel.size");
  EXPECT_EQ(table.rows[0].labels.back().second, "3");
  EXPECT_EQ(table.rows[1].labels.back().second, "7");
}

TEST_F(Versus, AnImplementationWithoutPointsIsRefusedByName) {
  try {
    against("opnemp");
    ADD_FAILURE() << "expected an error";
  } catch (const ResultsError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("--vs opnemp: no ok point of that implementation "
                        "(did you mean 'openmp'?); the implementations: "
                        "sequential, openmp, cuda_global, cuda_shared"),
              std::string::npos)
        << error.what();
  }
}

// The same words in `show`, in `export` and in the notebook's and the report's table.
TEST(VersusCommands, ShowExportAndAPlacedTableSayTheSame) {
  ScratchDirectory root("versus-commands");
  fs::create_directories(root.path() / "outputs");
  fs::copy(fixtures() / "fixture-demo", root.path() / "outputs/fixture-demo",
           fs::copy_options::recursive);
  const Ran shown = convlab_in(root.path(), "show outputs/fixture-demo --vs openmp");
  ASSERT_EQ(shown.status, 0) << shown.output;
  EXPECT_NE(shown.output.find("every implementation against openmp, per problem"),
            std::string::npos)
      << shown.output;
  EXPECT_NE(shown.output.find("| image | kernel | implementation | configuration | median ms | "
                              "ratio | difference |"),
            std::string::npos)
      << shown.output;
  EXPECT_NE(shown.output.find("| reference |"), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find("ratio: each implementation's fastest configuration: its median "
                              "over openmp's fastest, below 1 is faster"),
            std::string::npos)
      << shown.output;
  const Ran by = convlab_in(root.path(), "show outputs/fixture-demo --vs openmp --by kernel.size");
  ASSERT_EQ(by.status, 0) << by.output;
  EXPECT_NE(by.output.find("per kernel.size"), std::string::npos) << by.output;

  // Mistakes are refused by name.
  const Ran typo = convlab_in(root.path(), "show outputs/fixture-demo --vs opnemp");
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.output.find("did you mean 'openmp'?"), std::string::npos) << typo.output;
  const Ran both = convlab_in(root.path(), "show outputs/fixture-demo --vs openmp --best");
  EXPECT_EQ(both.status, 2);
  EXPECT_NE(both.output.find("--vs is a table of its own"), std::string::npos) << both.output;

  // csv: one row per implementation and problem, full precision, the verdict's word.
  const Ran csv = convlab_in(root.path(), "export outputs/fixture-demo --format csv --vs openmp");
  ASSERT_EQ(csv.status, 0) << csv.output;
  EXPECT_NE(
      csv.output.find("image,kernel,border,output,machine,implementation,configuration,median_ms,"
                      "reference,reference_configuration,reference_median_ms,ratio,p_value,verdict,"
                      "conditions\n"),
      std::string::npos)
      << csv.output;
  // Four problems, three implementations against openmp each (the note on the runs' conditions
  // goes to stderr).
  size_t rows = 0;
  for (size_t at = csv.output.find("\nnoise-"); at != std::string::npos;
       at = csv.output.find("\nnoise-", at + 1))
    ++rows;
  EXPECT_EQ(rows, 4u * 3u) << csv.output;

  // A table of the config: vs openmp, placed by the discussion; in the notebook and the report.
  const VersusTable table = [&] {
    const ResultsDocument results = load_results_document(fixture_results().string());
    const auto points = latest_ok_points(results);
    VersusOptions options;
    options.against = "openmp";
    return compare_with_implementation(points, results.file.runs, options);
  }();
  const std::string words = versus_cell_words(table.rows[0].cells[0]);
  std::string config = read_file(fixtures() / "configs/fixture-demo.yaml");
  config.replace(config.find("tables:\n"), 8,
                 "tables:\n  - name: against-openmp\n    title: Every implementation against "
                 "OpenMP\n    vs: openmp\n");
  write_file(root.path() / "configs/fixture-demo.yaml", config);
  write_file(root.path() / "experiments/fixture-demo.md",
             "How do the others fare against OpenMP?\n\n{{table: against-openmp}}\n");
  const Ran notebook = convlab_in(root.path(), "notebook --out nb");
  ASSERT_EQ(notebook.status, 0) << notebook.output;
  const std::string page = read_file(root.path() / "nb/fixture-demo.html");
  const size_t placed = page.find("id=\"table-against-openmp\"");
  ASSERT_NE(placed, std::string::npos);
  EXPECT_LT(page.find("How do the others fare against OpenMP?"), placed);
  EXPECT_NE(page.find(">" + words + "<", placed), std::string::npos) << words;
  EXPECT_NE(page.find("openmp median", placed), std::string::npos);
  const Ran exported = convlab_in(root.path(),
                                  "export outputs/fixture-demo --config configs/fixture-demo.yaml "
                                  "--discussion experiments/fixture-demo.md");
  ASSERT_EQ(exported.status, 0) << exported.output;
  const std::string latex =
      read_file(root.path() / "outputs/fixture-demo/export/tables/against-openmp.tex");
  EXPECT_NE(latex.find(words.substr(0, words.find(" (p"))), std::string::npos) << latex;

  // A vs naming no implementation of the config is refused before anything runs.
  config.replace(config.find("vs: openmp"), 10, "vs: opnemp");
  write_file(root.path() / "configs/fixture-demo.yaml", config);
  const Ran validated = convlab_in(root.path(), "validate configs/fixture-demo.yaml");
  EXPECT_EQ(validated.status, 2);
  EXPECT_NE(validated.output.find("tables[0].vs: 'opnemp' is no implementation of this config "
                                  "(did you mean 'openmp'?)"),
            std::string::npos)
      << validated.output;
}

}  // namespace
}  // namespace convlab
