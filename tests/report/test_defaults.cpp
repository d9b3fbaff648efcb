// Defaults that fit the question: the default figure puts the axis that varies most on x (kernel
// size when sizes vary), names photographs rather than their pixel sizes, and tells the variants
// of one implementation apart by colour; names of one family sort by their numbers (gaussian15
// before gaussian21, both before sobel_y3 when the config lists the Gaussians first); a count in
// the verification cell is a whole number.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "figures/declarations.hpp"
#include "figures/figure_data.hpp"
#include "figures/plot_style.hpp"
#include "html/table_html.hpp"
#include "query/record_queries.hpp"
#include "query/results_document.hpp"
#include "report_test_support.hpp"

namespace convlab {
namespace {

using report_test::fixture_results;

// How many configurations (implementation and params) the points hold.
std::size_t distinct_texts_count(const std::vector<const Record*>& points) {
  std::set<std::string> configurations;
  for (const Record* point : points)
    configurations.insert(point->implementation + point->params.dump());
  return configurations.size();
}

class Defaults : public ::testing::Test {
 protected:
  void SetUp() override { results_ = load_results_document(fixture_results().string()); }
  std::vector<const Record*> points() const { return latest_ok_points(results_); }
  ResultsDocument results_;
};

TEST_F(Defaults, KernelSizeGoesOnXWhenSizesVaryAsMuchAsImages) {
  // The fixture: two kernel sizes (3, 7) of one type, two generated image sizes.
  const auto figures = default_figures(points());
  ASSERT_EQ(figures.size(), 2u);
  EXPECT_EQ(figures[0].name, "time-by-kernel-size");
  EXPECT_EQ(figures[0].x, "kernel.size");
  EXPECT_EQ(figures[0].panel, std::vector<std::string>{"image.size"});
  EXPECT_EQ(figures[1].name, "speedup-by-kernel-size");
  EXPECT_EQ(figures[1].title, "Speedup over the baseline by kernel size");
  const FigureData data = extract_figure(figures[0], points(), "default");
  EXPECT_EQ(data.panels.size(), 2u);
  EXPECT_EQ(data.panels[0].grid.columns.size(), 2u);  // K = 3 and 7
}

TEST_F(Defaults, PhotographsAreNamedAndOneKernelSizeKeepsTheImageOnX) {
  // The 7x7 points only, their images made photographs of one size.
  for (Record& record : results_.file.records) {
    record.image.source = "/photos/" + record.image.name + ".jpg";
    record.image.name = record.image.width == 512 ? "baboon" : "lena";
    record.image.width = record.image.height = 512;
  }
  std::vector<const Record*> sevens;
  for (const Record* point : points())
    if (point->kernel.size == 7) sevens.push_back(point);
  const auto figures = default_figures(sevens);
  EXPECT_EQ(figures[0].name, "time-by-image");
  EXPECT_EQ(figures[0].x, "image.name");
  const FigureData data = extract_figure(figures[0], sevens, "default");
  ASSERT_EQ(data.panels.size(), 1u);
  ASSERT_EQ(data.panels[0].grid.columns.size(), 2u);
  EXPECT_EQ(data.panels[0].grid.columns[0].tic, "baboon");
  EXPECT_EQ(data.panels[0].grid.columns[1].tic, "lena");
  // Generated images of one kernel size: by size, as before.
  ResultsDocument generated = load_results_document(fixture_results().string());
  std::vector<const Record*> generated_sevens;
  for (const Record* point : latest_ok_points(generated))
    if (point->kernel.size == 7) generated_sevens.push_back(point);
  EXPECT_EQ(default_figures(generated_sevens)[0].name, "time-by-size");
  EXPECT_EQ(default_figures(generated_sevens)[0].x, "image.size");
}

TEST_F(Defaults, ThousandsOfVariantsAreDrawnAsEachImplementationsFastest) {
  // The fixture's points made variants of a tuned kernel: a line each up to the limit, then one
  // line per implementation at its fastest variant.
  std::vector<Record> variants;
  for (const Record* point : points())
    for (std::size_t v = 0; v < kMostDefaultSeries; ++v) {
      Record variant = *point;
      variant.params["tile"] = static_cast<int>(v);
      variants.push_back(variant);
    }
  std::vector<const Record*> some;
  for (const Record& variant : variants)
    if (variant.params["tile"].get<int>() < 2) some.push_back(&variant);
  std::vector<const Record*> all;
  for (const Record& variant : variants) all.push_back(&variant);
  ASSERT_LE(distinct_texts_count(some), kMostDefaultSeries);
  ASSERT_GT(distinct_texts_count(all), kMostDefaultSeries);
  EXPECT_EQ(default_figures(some)[0].series.front(), "configuration");
  const auto figures = default_figures(all);
  EXPECT_EQ(figures[0].series.front(), "implementation");
  EXPECT_EQ(figures[0].reduce, CellReduce::min);
  EXPECT_EQ(figures[0].title,
            "Median time by kernel size, the fastest variant of each implementation");
  EXPECT_EQ(figures[1].title,
            "Speedup over the baseline by kernel size, the fastest variant of each implementation");
  const FigureData data = extract_figure(figures[0], all, "default");
  std::set<std::string> implementations;
  for (const Record* point : points()) implementations.insert(point->implementation);
  EXPECT_EQ(data.panels[0].grid.rows.size(), implementations.size());
}

TEST_F(Defaults, VariantsOfOneImplementationAreToldApartInADefaultFigure) {
  auto declaration = default_figures(points())[0];
  declaration.where = "implementation=openmp";
  const FigureData shaded = extract_figure(declaration, points(), "default");
  std::set<std::string> colours, point_types;
  for (size_t row = 0; row < shaded.panels[0].grid.rows.size(); ++row) {
    colours.insert(series_style(shaded, row).colour);
    point_types.insert(std::to_string(series_style(shaded, row).point_type));
  }
  EXPECT_EQ(colours.size(), 3u);  // 1, 2 and 4 threads
  EXPECT_EQ(point_types.size(), 3u);
  // A declared figure keeps one colour per implementation, its variants dashed.
  declaration.shade_variants = false;
  const FigureData declared = extract_figure(declaration, points(), "declared");
  std::set<std::string> declared_colours;
  for (size_t row = 0; row < declared.panels[0].grid.rows.size(); ++row)
    declared_colours.insert(series_style(declared, row).colour);
  EXPECT_EQ(declared_colours.size(), 1u);
}

TEST_F(Defaults, NamesSortAsAReaderCountsAndImplementationsKeepTheConfigsOrder) {
  // The 512 points of two implementations under four kernel names, in an order of appearance
  // that puts gaussian21 after sobel_y3, as a size added to a config later is measured last.
  std::vector<Record> records;
  const char* names[] = {"gaussian21", "sobel_y3", "gaussian3", "gaussian15"};
  for (const Record* point : points())
    if (point->image.width == 512 && point->kernel.size == 3 &&
        (point->implementation == "sequential" || point->implementation == "cuda_global"))
      for (const char* name : names) {
        Record copy = *point;
        copy.kernel.name = name;
        records.push_back(copy);
      }
  std::reverse(records.begin(), records.end());  // cuda_global first
  std::vector<const Record*> pointers;
  for (const Record& record : records) pointers.push_back(&record);
  FigureDeclaration figure;
  figure.name = "by-kernel";
  figure.title = "By kernel";
  figure.type = &bars_figure_type();
  figure.x = "kernel.name";
  figure.y = {"median_ms"};
  figure.series = {"implementation"};
  const FigureData data = extract_figure(figure, pointers, "test");
  std::vector<std::string> columns, rows;
  for (const auto& column : data.panels[0].grid.columns) columns.push_back(column.tic);
  for (const auto& row : data.panels[0].grid.rows) rows.push_back(row.key[0]);
  EXPECT_EQ(columns,
            (std::vector<std::string>{"gaussian3", "gaussian15", "gaussian21", "sobel_y3"}));
  EXPECT_EQ(rows, (std::vector<std::string>{"cuda_global", "sequential"}));
  // Families keep the order the config gives them: a config listing sobel_y first has it first.
  std::stable_partition(records.begin(), records.end(),
                        [](const Record& r) { return r.kernel.name == "sobel_y3"; });
  pointers.clear();
  for (const Record& record : records) pointers.push_back(&record);
  const FigureData sobel_first = extract_figure(figure, pointers, "test");
  columns.clear();
  for (const auto& column : sobel_first.panels[0].grid.columns) columns.push_back(column.tic);
  EXPECT_EQ(columns,
            (std::vector<std::string>{"sobel_y3", "gaussian3", "gaussian15", "gaussian21"}));
}

TEST(VerificationCell, CountsAreWholeNumbers) {
  VerificationCell cell;
  ImplementationVerification row;
  row.implementation = "openmp";
  row.ok = 12;
  row.exactness_counted = true;
  row.values_not_exact = 269;
  row.points_not_exact = 3;
  cell.implementations.push_back(row);
  const std::string html = verification_html(cell);
  EXPECT_NE(html.find(">269</td>"), std::string::npos) << html;
  EXPECT_EQ(html.find("269.0"), std::string::npos) << html;
}

}  // namespace
}  // namespace convlab
