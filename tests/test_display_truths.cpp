// What the tables, figures and messages say is what the numbers are: an efficiency printed 1.00
// is not listed above 1; `convlab search` counts measurements in whole numbers; the load warning
// comes only when something is measured; tables name photographs by name; a figure that reduces
// the points of several images into one says so in its caption, and validate warns of it.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "config/search_spec.hpp"
#include "figures/declarations.hpp"
#include "figures/figure_data.hpp"
#include "query/point_flags.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

Record timed_record(const std::string& image, const std::string& source, double median) {
  Record record;
  record.implementation = "openmp";
  record.family = "cpu";
  record.params = {{"threads", 4}};
  record.image.name = image;
  record.image.source = source;
  record.image.width = 512;
  record.image.height = 480;
  record.image.channels = 1;
  record.kernel.name = "gaussian3";
  record.kernel.type = "gaussian";
  record.kernel.size = 3;
  record.border = "reflect";
  record.output = "u8";
  RecordTiming timing;
  timing.repetitions = 3;
  timing.compute.samples_ms = {median, median, median};
  timing.compute.stats.median = timing.compute.stats.min = timing.compute.stats.max = median;
  record.timing = timing;
  return record;
}

TEST(DisplayTruths, AnEfficiencyThatPrintsAsOneIsNotAboveOne) {
  Record record = timed_record("a", "generated:noise", 1.0);
  const auto flagged = [&](double efficiency) {
    record.derived.efficiency = efficiency;
    const auto flags = point_flags(record);
    return std::find(flags.begin(), flags.end(), PointFlag::efficiency_above_one) != flags.end();
  };
  EXPECT_FALSE(flagged(0.98));
  EXPECT_FALSE(flagged(1.0));
  EXPECT_FALSE(flagged(1.004));  // printed 1.00
  EXPECT_TRUE(flagged(1.0051));  // printed 1.01
  EXPECT_TRUE(flagged(1.12));
  record.derived.efficiency = 1.12;
  EXPECT_EQ(
      flag_words(PointFlag::efficiency_above_one, record).rfind("parallel efficiency 1.12 ", 0),
      0u);
}

// Counts of measurements are whole numbers, or half-way between two (a median of an even count
// of seeds): never "1.00" or "70.0".
TEST(DisplayTruths, SearchCountsMeasurementsInWholeNumbers) {
  const auto replay =
      testing::run_convlab("search outputs/search_grid --seeds 20", CONVLAB_SOURCE_TREE);
  ASSERT_EQ(replay.exit_code, 0) << replay.output;
  // A strategy's row; its last cell is the measurements to come within 1 % of the optimum.
  static const std::regex row(R"(^\| ([a-z_]+) \| (\d+) \|.* \| ([^|]*) \|$)");
  static const std::regex count(R"(^(\d+(\.5)?) \(\d+/\d+ seeds\)$|^not reached)");
  size_t rows = 0;
  std::istringstream lines(replay.output);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!std::regex_match(line, match, row) || match[1] == "strategy") continue;
    ++rows;
    EXPECT_TRUE(std::regex_match(match[3].str(), count)) << line;
  }
  EXPECT_EQ(rows, search_strategies().size()) << replay.output;
}

class LoadWarning : public testing::DirectoryTest {};

// The warning that other work competes with the measurements comes before the first point is
// measured, and not at all when every point is kept.
TEST_F(LoadWarning, IsSaidOnlyWhenSomethingIsMeasured) {
  testing::write_text(dir_ / "loadavg", "7.50 6.00 5.00 3/200 12345\n");
  testing::write_text(dir_ / "tiny.yaml",
                      "name: tiny\n"
                      "images:\n  - {type: generated, sizes: [16], channels: 1, seed: 1}\n"
                      "kernels:\n  - {type: box, size: 3}\n"
                      "implementations:\n  sequential: {}\n"
                      "measure: {warmup: 0, min_reps: 2, max_reps: 2, max_seconds: 0.05}\n");
  const std::string run = "CONVLAB_TEST_LOADAVG=loadavg \"$CONVLAB\" run tiny.yaml";
  const auto first = testing::run_shell(run, dir_);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("convlab: load average 7.50 at start"), std::string::npos)
      << first.output;
  const auto again = testing::run_shell(run, dir_);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("kept 1"), std::string::npos) << again.output;
  EXPECT_EQ(again.output.find("load average"), std::string::npos) << again.output;
}

// Photographs are named, as the figures name them: two of one size are two columns, not one
// column "512x480".
TEST(DisplayTruths, DefaultTablesNamePhotographs) {
  const Record a = timed_record("lena", "/photos/lena.png", 1.0);
  const Record b = timed_record("baboon", "/photos/baboon.png", 2.0);
  const auto tables = default_tables({&a, &b});
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].columns, std::vector<std::string>{"image.name"});
  EXPECT_EQ(tables[0].title, "Median time [ms] by configuration and image, kernel gaussian3");
  const TableData data = extract_table(tables[0], {&a, &b}, "table");
  ASSERT_EQ(data.grid.columns.size(), 2u);
  EXPECT_EQ(data.grid.columns[0].label, "lena");
  EXPECT_EQ(data.grid.columns[1].label, "baboon");
  // Generated images are still named by their size.
  const Record c = timed_record("noise-512x480-c1-s1", "generated:noise seed=1", 1.0);
  EXPECT_EQ(default_tables({&c})[0].columns, std::vector<std::string>{"image.size"});
}

// reduce: min over points of several photographs at one x: the figure says so.
TEST(DisplayTruths, AReductionOverSeveralImagesIsSaid) {
  const Record a = timed_record("lena", "/photos/lena.png", 1.0);
  const Record b = timed_record("baboon", "/photos/baboon.png", 2.0);
  FigureDeclaration figure;
  figure.name = "time";
  figure.title = "Time";
  figure.x = "image.size";
  figure.y = {"median_ms"};
  figure.series = {"implementation"};
  figure.reduce = CellReduce::min;
  const FigureData data = extract_figure(figure, {&a, &b}, "figure");
  EXPECT_EQ(data.merged_images, (std::vector<std::string>{"lena", "baboon"}));
  EXPECT_EQ(merged_images_words(data.merged_images, figure.reduce, "point"),
            "Each point is the min over 2 images (lena and baboon), which it does not tell "
            "apart.");
  // Split by image, nothing is merged.
  figure.series = {"implementation", "image.name"};
  EXPECT_TRUE(extract_figure(figure, {&a, &b}, "figure").merged_images.empty());
}

class ReductionWarning : public testing::DirectoryTest {};

TEST_F(ReductionWarning, ValidateWarnsOfAFigureThatMergesImages) {
  testing::write_text(dir_ / "merge.yaml",
                      "name: merge\n"
                      "images:\n"
                      "  - {type: generated, sizes: [16], channels: 1, seed: 1}\n"
                      "  - {type: generated, sizes: [16], channels: 1, seed: 2}\n"
                      "kernels:\n  - {type: box, size: 3}\n"
                      "implementations:\n  sequential: {}\n"
                      "figures:\n"
                      "  - {name: time, x: image.size, y: median_ms, series: implementation,\n"
                      "     reduce: min}\n");
  const auto validated = testing::run_convlab("validate merge.yaml", dir_);
  EXPECT_EQ(validated.exit_code, 0) << validated.output;
  EXPECT_NE(validated.output.find("convlab validate: warning: merge.yaml:10: figures[0]: Each "
                                  "point is the min over 2 images (noise-16x16-c1-s1 and "
                                  "noise-16x16-c1-s2), which it does not tell apart. Add "
                                  "image.name to series or panel"),
            std::string::npos)
      << validated.output;
}

}  // namespace
}  // namespace convlab
