// Validation of figures: and tables: in a config: misspelt keys and fields are clear errors with
// file:line:col and the key path.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <optional>

#include "config/config_error.hpp"
#include "figures/declarations.hpp"

namespace convlab {
namespace {

ReportDeclarations parse(const std::string& yaml) {
  return parse_report_declarations(YAML::Load(yaml), YamlLocation{"configs/x.yaml", ""});
}

std::string error_of(const std::string& yaml) {
  try {
    parse(yaml);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

TEST(ReportDeclarations, ParsesOneFigureOfEachTypeAndATable) {
  const auto declarations = parse(R"(
name: demo
figures:
  - {name: time, type: line, x: image.pixels, y: median_ms, series: configuration,
     panel: kernel.name, log: xy, error_bars: true}
  - {type: bars, x: image.size, y: speedup, series: [implementation, params.threads],
     where: "implementation!=sequential"}
  - {type: stacked, x: configuration, y: [h2d_ms, median_ms, d2h_ms],
     where: {family: cuda, image.width: [1024, 2048]}}
  - {type: heatmap, x: params.block.x, y: params.block.y, value: median_ms}
tables:
  - {rows: configuration, columns: image.size, value: speedup, digits: 2, reduce: max}
)");
  ASSERT_EQ(declarations.figures.size(), 4u);
  EXPECT_EQ(declarations.figures[0].name, "time");
  EXPECT_TRUE(declarations.figures[0].log_x);
  EXPECT_TRUE(declarations.figures[0].log_y);
  EXPECT_EQ(declarations.figures[1].name, "figure-2");
  EXPECT_EQ(declarations.figures[1].series.size(), 2u);
  EXPECT_EQ(declarations.figures[2].type, &stacked_figure_type());
  EXPECT_EQ(declarations.figures[2].y.size(), 3u);
  EXPECT_EQ(declarations.figures[2].where, "family=cuda,image.width=1024|2048");
  EXPECT_EQ(declarations.figures[3].value, "median_ms");
  ASSERT_EQ(declarations.tables.size(), 1u);
  EXPECT_EQ(declarations.tables[0].digits, 2);
  EXPECT_EQ(declarations.tables[0].reduce, CellReduce::max);
  EXPECT_TRUE(declarations.has_figures_key);
}

TEST(ReportDeclarations, MisspeltKeyNamesLineKeyPathAndSuggestion) {
  const std::string error = error_of(R"(name: demo
figures:
  - name: time
    x: image.width
    y: median_ms
    serise: implementation
)");
  EXPECT_NE(error.find("configs/x.yaml:6:5: figures[0].serise: unknown key 'serise'"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("did you mean 'series'?"), std::string::npos) << error;
}

TEST(ReportDeclarations, MisspeltFieldSuggestsTheKnownOne) {
  const std::string error = error_of("figures:\n  - {x: image.width, y: median_m}\n");
  EXPECT_NE(error.find("figures[0].y: unknown field 'median_m' (did you mean 'median_ms'?)"),
            std::string::npos)
      << error;
  EXPECT_NE(error_of("figures:\n  - {x: image.widht, y: median_ms}\n").find("'image.width'"),
            std::string::npos);
}

TEST(ReportDeclarations, RejectsInconsistentDeclarations) {
  EXPECT_NE(error_of("figures:\n  - {type: pie, x: image.width, y: median_ms}\n")
                .find("unknown figure type 'pie'"),
            std::string::npos);
  EXPECT_NE(error_of("figures:\n  - {type: heatmap, x: params.block.x, y: params.block.y}\n")
                .find("needs 'value'"),
            std::string::npos);
  EXPECT_NE(
      error_of("figures:\n  - {x: image.width, y: [median_ms, h2d_ms]}\n").find("type: stacked"),
      std::string::npos);
  EXPECT_NE(error_of("figures:\n  - {x: image.width, y: speedup, error_bars: true}\n")
                .find("not for 'speedup'"),
            std::string::npos);
  EXPECT_NE(error_of("figures:\n  - {x: image.width, y: median_ms, log: z}\n").find("log takes"),
            std::string::npos);
  EXPECT_NE(error_of("tables:\n  - {rows: configuration, value: median_ms}\n")
                .find("missing key 'columns'"),
            std::string::npos);
  EXPECT_NE(error_of("figures:\n  - {name: a, x: image.width, y: median_ms}\n"
                     "  - {name: a, x: image.width, y: speedup}\n")
                .find("name 'a' is used twice"),
            std::string::npos);
  EXPECT_NE(error_of("figures:\n  - {x: image.width, y: median_ms, where: \"kernel.size\"}\n")
                .find("figures[0].where: invalid point filter"),
            std::string::npos);
}

// best: true or {label, except} (series defaults to implementation), an overlay of a constant;
// and what is refused, at the key.
TEST(ReportDeclarations, BestAndConstantOverlays) {
  const auto declared = parse(
      "figures:\n"
      "  - {name: a, x: kernel.name, y: median_ms, best: true}\n"
      "  - {name: b, type: bars, x: kernel.name, y: median_ms, series: configuration,\n"
      "     best: {label: quickest, except: npp}}\n"
      "  - {name: c, x: kernel.name, y: median_ms, best: false,\n"
      "     overlay: [{label: goal, value: 1.5}]}\n");
  ASSERT_EQ(declared.figures.size(), 3u);
  ASSERT_TRUE(declared.figures[0].best.has_value());
  EXPECT_EQ(declared.figures[0].best->label, "Fastest");
  EXPECT_TRUE(declared.figures[0].best->except.empty());
  EXPECT_EQ(declared.figures[0].series, std::vector<std::string>{"implementation"});
  EXPECT_EQ(declared.figures[1].best->label, "quickest");
  EXPECT_EQ(declared.figures[1].best->except, std::vector<std::string>{"npp"});
  EXPECT_EQ(declared.figures[1].series, std::vector<std::string>{"configuration"});
  EXPECT_FALSE(declared.figures[2].best.has_value());
  EXPECT_TRUE(declared.figures[2].series.empty());
  ASSERT_EQ(declared.figures[2].overlays.size(), 1u);
  EXPECT_EQ(declared.figures[2].overlays[0].value, std::optional<double>(1.5));

  for (const auto& [yaml, expected] : std::vector<std::pair<std::string, std::string>>{
           {"{x: kernel.name, y: median_ms, best: {label: \"\"}}",
            "figures[0].best.label: expected a label"},
           {"{x: kernel.name, y: median_ms, best: {except: []}}",
            "figures[0].best.except: expected at least one name"},
           {"{type: stacked, x: kernel.name, y: [h2d_ms, median_ms], best: true}",
            "figures[0].best: best is for type: line or bars, not for type: stacked"},
           {"{x: kernel.name, y: median_ms, overlay: [{label: g, value: 1.5, y: median_ms}]}",
            "figures[0].overlay[0].y: an overlay with value is that number at every x"},
           {"{x: kernel.name, y: median_ms, overlay: [{label: g, value: .nan}]}",
            "figures[0].overlay[0].value: expected a number"},
       }) {
    const std::string error = error_of("figures:\n  - " + yaml + "\n");
    EXPECT_NE(error.find("configs/x.yaml:2:"), std::string::npos) << error;
    EXPECT_NE(error.find(expected), std::string::npos) << yaml << "\n" << error;
  }
}

TEST(ReportDeclarations, JsonDeclarationsReportTheResultsKeyPath) {
  const auto resolved =
      nlohmann::json::parse(R"({"figures": [{"x": "image.width", "y": "speedupp"}]})");
  try {
    parse_report_declarations(resolved,
                              YamlLocation{"outputs/x/results.json", "run.config.resolved"});
    FAIL() << "expected an error";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("outputs/x/results.json: run.config.resolved.figures[0].y: unknown field "
                        "'speedupp' (did you mean 'speedup'?)"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace convlab
