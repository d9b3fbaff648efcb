// A figure's best: series (figures/fastest_series.hpp) on results made by hand: the fastest point
// per x chosen by its time whatever the figure draws, ties, a fastest point without the value,
// failed points, the implementations set aside, one panel per GPU; overlays of a constant; and the
// figure of configs/npp_peer.yaml drawn from the committed results (test_declarations.cpp reads
// and refuses the declarations).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>

#include "app/commands.hpp"
#include "figures/declarations.hpp"
#include "figures/fastest_series.hpp"
#include "figures/figure_data.hpp"
#include "figures/plot_style.hpp"
#include "query/derived_columns.hpp"
#include "query/record_queries.hpp"
#include "report_test_support.hpp"
#include "store/derive.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;
using report_test::read_file;
using report_test::ScratchDirectory;
using report_test::write_file;

// A 64x64 one-channel u8 image moves 8192 bytes: at 8.192e6 bytes/s the memory floor is 1 ms.
// At 40.96e6 FP32 multiply-adds per second, K = 7 takes 4.9 ms directly (K^2 per value) and
// 1.4 ms separably (2K); the tensor cores' rate is high enough that their floor is the memory's.
const json kCalibration = {
    {"copy_bytes_per_s", 8.192e6}, {"fma_per_s", 40.96e6}, {"tensor_fma_per_s", 1e12}};

struct Point {
  std::string implementation;
  int k;
  double median;
  std::string status = "ok";
  std::string gpu = "GPU A";
  std::string family = "cuda";
  bool factored = false;
  bool tensor = false;
};

// What every record of these tests shares: a 64x64 noise image, a Gaussian, one host.
const char* const kRecordTemplate = R"({
  "params": {}, "run_id": "r1", "border": "replicate", "output": "u8", "derived": {},
  "image": {"name": "noise-64x64-c1-s1", "source": "generated:noise seed=1", "sha256": "ab",
            "width": 64, "height": 64, "channels": 1},
  "kernel": {"type": "gaussian", "separable": true, "parameters": {}},
  "machine": {"cpu_model": "Test CPU", "hostname": "box", "host_id": "h1"}})";

json record_json(const Point& p) {
  json r = json::parse(kRecordTemplate);
  r["implementation"] = p.implementation;
  r["family"] = p.family;
  r["factored"] = p.factored;
  r["kernel"]["name"] = "gaussian" + std::to_string(p.k);
  r["kernel"]["size"] = p.k;
  r["status"] = p.status;
  r["reason"] = p.status == "ok" ? "" : "values beyond the tolerance";
  r["timing"]["samples_ms"] = {p.median};
  r["timing"]["stats"]["median"] = p.median;
  r["timing"]["repetitions"] = 1;
  if (p.family == "cuda") r["machine"]["gpu"] = p.gpu;
  if (p.tensor) r["arithmetic"] = "tensor_fp16";
  return r;
}

// The points as a results document of one calibrated CUDA run, with the metrics a run derives and
// the derived columns of configs/npp_peer.yaml.
ResultsDocument document_of(const std::vector<Point>& points) {
  ResultsFile file;
  file.experiment = {{"name", "t"}, {"baseline", {{"implementation", "npp"}}}};
  RunBlock run;
  run.id = "r1";
  run.cuda = {{"calibration", kCalibration}};
  file.runs.push_back(run);
  for (const auto& point : points) file.records.push_back(record_from_json(record_json(point)));
  derive_metrics(file);
  ResultsDocument document = results_document_of("t/results.json", std::move(file));
  const ReportDeclarations declarations = parse_report_declarations(
      YAML::Load("derive:\n"
                 "  fp32_floor_ms: \"min(floor_ms[arithmetic!=tensor_fp16])\"\n"
                 "  over_floor: \"median_ms / derive.fp32_floor_ms\"\n"),
      YamlLocation{"t.yaml", ""});
  compute_derived_columns(document, declarations.derive);
  return document;
}

FigureDeclaration best_figure(const std::string& y) {
  FigureDeclaration figure;
  figure.name = "best";
  figure.x = "kernel.size";
  figure.y = {y};
  figure.series = {"implementation"};
  figure.best = BestDeclaration{"fastest of convlab", {"npp"}};
  return figure;
}

// The cells of grid row `row` by the x they stand at.
std::map<std::string, Cell> row_cells(const Grid& grid, size_t row) {
  std::map<std::string, Cell> cells;
  for (size_t c = 0; c < grid.columns.size(); ++c)
    if (grid.cells[row][c]) cells[grid.columns[c].key[0]] = *grid.cells[row][c];
  return cells;
}

TEST(FastestSeries, TheFastestPointPerXIsChosenByItsTimeWhateverYDraws) {
  // K = 7: cuda_separable's own floor is 1.4 ms (0.933 of it at 1.5 ms), cuda_tensor's 1.0 ms
  // (0.833 at 1.2 ms). The fastest is cuda_tensor, whose fraction is the lower: not the max.
  const auto document = document_of({{"npp", 7, 14.7},
                                     {"cuda_shared", 7, 9.8},
                                     {"cuda_separable", 7, 1.5, "ok", "GPU A", "cuda", true},
                                     {"cuda_tensor", 7, 1.2, "ok", "GPU A", "cuda", false, true}});
  const FigureData data =
      extract_figure(best_figure("roofline_fraction"), latest_ok_points(document), "t");
  ASSERT_EQ(data.panels.size(), 1u);
  const Grid& grid = data.panels[0].grid;
  ASSERT_EQ(grid.rows.size(), 2u);
  EXPECT_TRUE(is_lead_row(grid.rows[0]));
  EXPECT_EQ(grid.rows[0].label, "fastest of convlab");
  EXPECT_EQ(grid.rows[1].implementation, "npp");
  const auto fastest = row_cells(grid, 0);
  ASSERT_EQ(fastest.count("7"), 1u);
  EXPECT_EQ(fastest.at("7").record->implementation, "cuda_tensor");
  EXPECT_NEAR(fastest.at("7").value, 1.0 / 1.2, 1e-12);

  // Over the problem's FP32 floor (1.4 ms, cuda_separable's; cuda_tensor's own is left out):
  // the fastest is 1.2 / 1.4 and NPP, divided by the same floor, 14.7 / 1.4.
  const FigureData ratios =
      extract_figure(best_figure("derive.over_floor"), latest_ok_points(document), "t");
  const Grid& ratio_grid = ratios.panels[0].grid;
  EXPECT_NEAR(row_cells(ratio_grid, 0).at("7").value, 1.2 / 1.4, 1e-12);
  EXPECT_NEAR(row_cells(ratio_grid, 1).at("7").value, 14.7 / 1.4, 1e-12);
}

TEST(FastestSeries, ATieGoesToThePointMetFirst) {
  for (const bool separable_first : {true, false}) {
    std::vector<Point> points = {{"cuda_separable", 5, 2.0}, {"cuda_fused", 5, 2.0}};
    if (!separable_first) std::swap(points[0], points[1]);
    points.push_back({"cuda_global", 5, 2.5});
    const auto document = document_of(points);
    const FastestPoints split = fastest_per_x(latest_ok_points(document), "kernel.size",
                                              BestDeclaration{"fastest", {"npp"}});
    ASSERT_EQ(split.fastest.size(), 1u);
    EXPECT_EQ(split.fastest[0]->implementation, separable_first ? "cuda_separable" : "cuda_fused");
    EXPECT_TRUE(split.set_aside.empty());
    EXPECT_TRUE(split.merged_images.empty());
  }
}

TEST(FastestSeries, AFastestPointWithoutTheValueLeavesItsXEmpty) {
  // At K = 3 the fastest point is a CPU one, which has no floor: the series has no point there,
  // not the slower CUDA point's floor. At K = 7 the fastest has one.
  const auto document = document_of({{"sequential", 3, 0.5, "ok", "", "cpu"},
                                     {"cuda_shared", 3, 3.0},
                                     {"cuda_shared", 7, 9.8},
                                     {"sequential", 7, 20.0, "ok", "", "cpu"}});
  FigureDeclaration figure = best_figure("floor_ms");
  figure.best->except.clear();
  const auto points = latest_ok_points(document);
  const Grid grid = fastest_series_grid(figure, points, "t");
  const auto fastest = row_cells(grid, 0);
  EXPECT_EQ(fastest.count("3"), 0u);
  ASSERT_EQ(fastest.count("7"), 1u);
  EXPECT_NEAR(fastest.at("7").value, 4.9, 1e-9);  // cuda_shared's direct floor
}

TEST(FastestSeries, FailedPointsAreNeverTheFastest) {
  // A point whose output failed verification was timed all the same, and faster than any.
  const auto document = document_of({{"cuda_streaming", 3, 0.1, "failed"},
                                     {"cuda_shared", 3, 3.0},
                                     {"cuda_separable", 3, 2.0, "ok", "GPU A", "cuda", true},
                                     {"npp", 3, 4.0}});
  const FigureData data =
      extract_figure(best_figure("derive.over_floor"), latest_ok_points(document), "t");
  const auto fastest = row_cells(data.panels[0].grid, 0);
  ASSERT_EQ(fastest.count("3"), 1u);
  EXPECT_EQ(fastest.at("3").record->implementation, "cuda_separable");
  EXPECT_NEAR(fastest.at("3").value, 2.0, 1e-12);  // over the memory floor of 1 ms
  // Only NPP is set aside: the failed point forms no series of its own.
  EXPECT_EQ(data.panels[0].grid.rows.size(), 2u);
}

TEST(FastestSeries, EachGpuHasAPanelAndAFastestOfItsOwn) {
  const auto document = document_of({{"cuda_tensor", 7, 1.2, "ok", "GPU A", "cuda", false, true},
                                     {"cuda_separable", 7, 1.5, "ok", "GPU A", "cuda", true},
                                     {"npp", 7, 14.7, "ok", "GPU A"},
                                     {"cuda_tensor", 7, 1.9, "ok", "GPU B", "cuda", false, true},
                                     {"cuda_separable", 7, 1.6, "ok", "GPU B", "cuda", true},
                                     {"npp", 7, 14.0, "ok", "GPU B"}});
  const FigureData data =
      extract_figure(best_figure("derive.over_floor"), latest_ok_points(document), "t");
  ASSERT_EQ(data.panels.size(), 2u);
  std::map<std::string, std::string> fastest;
  for (const auto& panel : data.panels) {
    const auto cells = row_cells(panel.grid, 0);
    ASSERT_EQ(cells.count("7"), 1u) << panel.title;
    fastest[cells.at("7").record->machine->gpu.value_or("")] = cells.at("7").record->implementation;
  }
  EXPECT_EQ(fastest["GPU A"], "cuda_tensor");
  EXPECT_EQ(fastest["GPU B"], "cuda_separable");
}

TEST(FastestSeries, AnOverlayValueIsDrawnAtEveryX) {
  const auto document = document_of({{"cuda_shared", 3, 3.0}, {"cuda_shared", 7, 9.8}});
  FigureDeclaration figure = best_figure("derive.over_floor");
  OverlayDeclaration goal;
  goal.label = "goal";
  goal.value = 1.5;
  figure.overlays = {goal};
  const FigureData data = extract_figure(figure, latest_ok_points(document), "t");
  ASSERT_EQ(data.panels[0].overlays.size(), 1u);
  const auto& values = data.panels[0].overlays[0].values;
  ASSERT_EQ(values.size(), 2u);
  for (const auto& value : values) EXPECT_EQ(value, std::optional<double>(1.5));
}

// The figure of configs/npp_peer.yaml drawn from the committed results: each point is the
// fastest non-NPP median of its kernel and GPU over the lowest FP32 floor there, and NPP beside
// it over the same floor, both computed here from the file's records.
const std::filesystem::path kNppPeerResults =
    std::filesystem::path(CONVLAB_COMMITTED_OUTPUTS) / "npp_peer" / "results.json";

// configs/npp_peer.yaml's derive: and its figure best-over-floor alone (not the other figures and
// tables), `change` applied to the figure.
YAML::Node best_over_floor_config(const std::function<void(YAML::Node&)>& change = {}) {
  const YAML::Node root = YAML::LoadFile(
      (std::filesystem::path(CONVLAB_COMMITTED_OUTPUTS) / ".." / "configs" / "npp_peer.yaml")
          .string());
  YAML::Node reduced;
  reduced["derive"] = root["derive"];
  for (const auto& figure : root["figures"])
    if (figure["name"].Scalar() == "best-over-floor") {
      YAML::Node copy = YAML::Clone(figure);
      if (change) change(copy);
      reduced["figures"].push_back(copy);
    }
  reduced["tables"] = YAML::Load("[]");
  return reduced;
}

// Exports the committed npp_peer results with `config` into dir/export and dir/figures.
int export_with(const ScratchDirectory& dir, const YAML::Node& config) {
  YAML::Emitter emitter;
  emitter << config;
  write_file(dir.path() / "config.yaml", emitter.c_str());
  return export_command(
      {kNppPeerResults.string(), "--config", (dir.path() / "config.yaml").string(), "--out",
       (dir.path() / "export").string(), "--figures", (dir.path() / "figures").string()});
}

TEST(FastestSeries, NppPeerFigureIsDrawnFromTheCommittedResults) {
  const std::filesystem::path results = kNppPeerResults;
  ScratchDirectory dir("fastest-series");
  const YAML::Node reduced = best_over_floor_config();
  ASSERT_EQ(reduced["figures"].size(), 1u);
  ASSERT_EQ(export_with(dir, reduced), 0);

  // Expected values from the records: per GPU and kernel, the fastest ok median of the
  // implementations other than NPP, NPP's, and the lowest floor_ms of the points not on the
  // tensor cores.
  const json file = json::parse(read_file(results));
  struct Expected {
    double fastest = INFINITY, npp = NAN, floor = INFINITY;
  };
  std::map<std::string, std::map<std::string, Expected>> expected;  // gpu -> kernel -> values
  for (const auto& record : file["records"]) {
    if (record["status"] != "ok" || record["family"] != "cuda") continue;
    Expected& e = expected[record["machine"]["gpu"]][record["kernel"]["name"]];
    const double median = record["timing"]["stats"]["median"];
    if (record["implementation"] == "npp")
      e.npp = median;
    else
      e.fastest = std::min(e.fastest, median);
    if (record.value("arithmetic", "") != "tensor_fp16")
      e.floor = std::min(e.floor, record["derived"]["floor_ms"].get<double>());
  }
  ASSERT_EQ(expected.size(), 2u);  // the H200 and the H100
  size_t panels_checked = 0;
  for (int panel = 1; panel <= 2; ++panel) {
    const std::string tsv = read_file(dir.path() / "export" / "data" /
                                      ("best-over-floor--panel" + std::to_string(panel) + ".tsv"));
    std::istringstream lines(tsv);
    std::string header;
    std::getline(lines, header);
    EXPECT_EQ(header, "x\tx_label\tfastest of convlab\tNPP\tgoal: 1.5x the floor");
    // The panel's GPU: the one whose numbers its rows hold.
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(lines, line);) {
      std::vector<std::string> cells;
      std::istringstream parts(line);
      for (std::string cell; std::getline(parts, cell, '\t');) cells.push_back(cell);
      ASSERT_EQ(cells.size(), 5u) << line;
      rows.push_back(cells);
    }
    ASSERT_EQ(rows.size(), 9u) << tsv;  // Gaussian K = 3 ... 21, the LoG 5x5, the oriented 7x7
    for (const auto& [gpu, kernels] : expected) {
      bool all = true;
      for (const auto& row : rows) {
        const Expected& e = kernels.at(row[1]);
        all &= std::fabs(std::stod(row[2]) - e.fastest / e.floor) < 1e-9 &&
               std::fabs(std::stod(row[3]) - e.npp / e.floor) < 1e-9 && row[4] == "1.5";
      }
      panels_checked += all ? 1 : 0;
    }
  }
  EXPECT_EQ(panels_checked, 2u) << "each panel holds one GPU's ratios";
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "gnuplot is not installed (scripts/install-deps.sh report)";
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "figures" / "best-over-floor.png"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "figures" / "best-over-floor.pdf"));
  EXPECT_EQ(read_file(dir.path() / "export" / "plots" / "best-over-floor.log"), "");
}

// The best series' label and a constant overlay's label come from the config: each reaches the
// gnuplot script as one quoted string, and gnuplot draws the figure without running anything.
TEST(FastestSeries, HostileLabelsOfTheBestSeriesAndAConstantOverlayRunNothing) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "gnuplot is not installed (scripts/install-deps.sh report)";
  ScratchDirectory dir("fastest-series-hostile");
  const std::string best_label = "fast' . system('touch ran-1') . '`touch ran-2`";
  const std::string goal_label = "goal'; set output 'ran-3'; print system(\"touch ran-4\"); '";
  const YAML::Node config = best_over_floor_config([&](YAML::Node& figure) {
    figure["best"]["label"] = best_label;
    figure["overlay"][0]["label"] = goal_label;
  });
  ASSERT_EQ(export_with(dir, config), 0);
  const std::string script = read_file(dir.path() / "export" / "plots" / "best-over-floor.gp");
  EXPECT_NE(script.find(quoted(best_label)), std::string::npos) << script;
  EXPECT_NE(script.find(quoted(goal_label)), std::string::npos) << script;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "figures" / "best-over-floor.png"));
  EXPECT_EQ(read_file(dir.path() / "export" / "plots" / "best-over-floor.log"), "");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path()))
    EXPECT_NE(entry.path().filename().string().rfind("ran-", 0), 0u) << entry.path();
}

}  // namespace
}  // namespace convlab
