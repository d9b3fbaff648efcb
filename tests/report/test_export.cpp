// convlab export on the fixture results: exact TSV and LaTeX rows, live value resolution, and
// compare's verdicts and exit codes.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "figures/figure_data.hpp"
#include "notebook/value_references.hpp"
#include "query/record_queries.hpp"
#include "query/results_document.hpp"
#include "report_test_support.hpp"

namespace convlab {
namespace {

using report_test::fixture_results;
using report_test::read_file;
using report_test::ScratchDirectory;
using report_test::write_file;

class FixtureExport : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(
        export_command({fixture_results().string(), "--out", (dir_.path() / "export").string(),
                        "--figures", (dir_.path() / "figures").string()}),
        0);
  }
  std::string exported(const std::string& relative) {
    return read_file(dir_.path() / "export" / relative);
  }
  ScratchDirectory dir_{"export"};
};

TEST_F(FixtureExport, TableTsvHoldsFullPrecisionMedians) {
  EXPECT_EQ(exported("tables/time-by-kernel.tsv"),
            "Image size\tgaussian3\tgaussian7\n"
            "512x512\t2.59523\t14.1296\n"
            "1024x1024\t10.3809\t56.5182\n");
}

TEST_F(FixtureExport, TableLatexUsesBooktabsAndDeclaredDigits) {
  const std::string tex = exported("tables/time-by-kernel.tex");
  EXPECT_NE(tex.find("\\toprule"), std::string::npos);
  EXPECT_NE(tex.find("Image size & gaussian3 & gaussian7\\\\\n\\midrule"), std::string::npos)
      << tex;
  EXPECT_NE(tex.find("512$\\times$512 & 2.60 & 14.1\\\\"), std::string::npos) << tex;
  EXPECT_NE(tex.find("1024$\\times$1024 & 10.4 & 56.5\\\\"), std::string::npos) << tex;
  const std::string speedup = exported("tables/speedup-by-size.tex");
  EXPECT_NE(speedup.find("OpenMP, 4 threads & 3.6 & 3.6\\\\"), std::string::npos) << speedup;
}

TEST_F(FixtureExport, FigureTsvHasHeaderAndOneRowPerX) {
  const std::string tsv = exported("data/speedup-bars.tsv");
  EXPECT_EQ(tsv.substr(0, tsv.find('\n')),
            "x\tx_label\tOpenMP, 1 thread\tOpenMP, 2 threads\t"
            "OpenMP, 4 threads\tCUDA global memory\t"
            "CUDA shared memory, block 16x16\tCUDA shared memory, block 32x8\t"
            "CUDA shared memory, block 8x8");
  EXPECT_NE(tsv.find("\n0\t512x512\t0.9708770184286833\t1.7857153003772488\t"), std::string::npos)
      << tsv;
  // Error bars add q1 and q3 columns; the skipped 64x64 block never appears.
  const std::string time = exported("data/time-vs-size--panel2.tsv");
  EXPECT_NE(time.find("Sequential\tSequential q1\tSequential q3"), std::string::npos);
  EXPECT_NE(time.find("\n1.048576\t1024x1024, 1.0 MP\t56.5182\t"), std::string::npos) << time;
  EXPECT_EQ(time.find("64x64"), std::string::npos);
}

TEST_F(FixtureExport, HeatmapAndStackedDataAndScripts) {
  const std::string heatmap = exported("data/block-heatmap.tsv");
  EXPECT_NE(heatmap.find("x_index\ty_index\tvalue\tx_label\ty_label\tvalue_text\n"),
            std::string::npos);
  EXPECT_NE(heatmap.find("1\t0\tNaN\t16\t8\t\n"), std::string::npos) << heatmap;
  const std::string stacked = exported("data/transfers.tsv");
  EXPECT_NE(stacked.find("Host-to-device copy\tComputation (timed region)\tDevice-to-host copy"),
            std::string::npos)
      << stacked;
  const std::string script = exported("plots/transfers.gp");
  EXPECT_NE(script.find("set terminal pdfcairo"), std::string::npos);
  EXPECT_NE(script.find("set terminal pngcairo"), std::string::npos);
  EXPECT_NE(script.find("rowstacked"), std::string::npos);
  EXPECT_NE(script.find("set ylabel \"Time [ms]\""), std::string::npos);
}

TEST_F(FixtureExport, SectionHasEveryPart) {
  const std::string section = exported("section.tex");
  for (const char* part :
       {"\\subsection{Fixture: CPU and CUDA", "\\textbf{What was measured.}", "\\begin{figure}",
        "\\begin{table}", "\\textbf{Verification.}", "\\textbf{Provenance.}",
        "32 points ok, 4 skipped, 0 failed", "NVIDIA H100"})
    EXPECT_NE(section.find(part), std::string::npos) << part;
  // No heading is left without its content: figures and tables float without headings.
  EXPECT_EQ(section.find("\\subsection{Figures}"), std::string::npos);
  // The gallery prints the pictures as JPEG, each photograph once with its filters.
  const std::string gallery = exported("gallery.tex");
  EXPECT_NE(gallery.find("noise-512x512-c1-s1__input.jpg"), std::string::npos) << gallery;
}

TEST(ExportErrors, MissingFileAndBadDeclarationExitTwo) {
  ScratchDirectory dir("export-errors");
  EXPECT_EQ(export_command({(dir.path() / "none.json").string()}), 2);
  auto results = nlohmann::json::parse(read_file(fixture_results()));
  results["run"]["config"]["resolved"]["figures"][0]["serie"] = "implementation";
  write_file(dir.path() / "bad" / "results.json", results.dump());
  testing::internal::CaptureStderr();
  EXPECT_EQ(export_command({(dir.path() / "bad").string()}), 2);
  const std::string message = testing::internal::GetCapturedStderr();
  EXPECT_NE(message.find("results.json: run.config.resolved.figures[0].serie: unknown key "
                         "'serie' (did you mean 'series'?); allowed: "),
            std::string::npos)
      << message;
}

// Whatever `convlab run` wrote must export, also where its config is gone (another checkout).
TEST(ExportErrors, EveryCommittedResultsFileExportsWithoutItsConfig) {
  ScratchDirectory dir("committed");
  int exported = 0;
  for (const auto& entry : std::filesystem::directory_iterator(CONVLAB_COMMITTED_OUTPUTS)) {
    const auto results = entry.path() / "results.json";
    if (!std::filesystem::exists(results)) continue;
    const auto copy = dir.path() / entry.path().filename();
    std::filesystem::create_directories(copy);
    std::filesystem::copy_file(results, copy / "results.json");
    EXPECT_EQ(export_command({copy.string(), "--figures", (copy / "figures").string()}), 0)
        << results;
    ++exported;
  }
  EXPECT_GT(exported, 0);
}

TEST(DiscussionValues, FindsReferencesOutsideCodeAndComments) {
  const std::string markdown =
      "A {{median_ms[implementation=sequential]}} ms\n"
      "`{{not_a_value}}` and \\{{ literal braces }}\n"
      "```\n{{in a code block}}\n```\n"
      "and {{speedup[kernel.size=7,\n implementation=openmp]}}.\n";
  const auto references = find_value_references(markdown, ProseSyntax::markdown, "x.md");
  ASSERT_EQ(references.size(), 2u);
  EXPECT_EQ(references[0].line, 1);
  EXPECT_EQ(references[0].field, "median_ms");
  EXPECT_EQ(references[0].filter, "implementation=sequential");
  EXPECT_EQ(references[1].filter, "kernel.size=7, implementation=openmp");
  EXPECT_EQ(references[1].line, 6);
  // LaTeX: % comments are skipped, and a reference may name its experiment.
  const auto latex = find_value_references(
      "% {{ignored[x=1]}}\n{{npp_peer: median_ms[implementation=npp]}}\\% of\n", ProseSyntax::latex,
      "summary.tex");
  ASSERT_EQ(latex.size(), 1u);
  EXPECT_EQ(latex[0].experiment, "npp_peer");
  EXPECT_EQ(latex[0].line, 2);
}

TEST(DiscussionValues, MalformedReferencesNameFileAndLine) {
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"one\n{{median_ms}}\n", "x.md:2: {{median_ms}}: 'median_ms' alone names no point"},
           {"{{median ms[a=1]}}", "x.md:1: {{median ms[a=1]}}: unexpected 'm' (at 'ms[a=1]')"},
           {"a {{median_ms[a=1]\n\nb}}",
            "x.md:1: {{median_ms[a=1]: no closing }} in its paragraph"},
       }) {
    try {
      find_value_references(text, ProseSyntax::markdown, "x.md");
      ADD_FAILURE() << "expected an error for " << text;
    } catch (const ResultsError& error) {
      EXPECT_NE(std::string(error.what()).find(message), std::string::npos) << error.what();
    }
  }
}

TEST(DiscussionValues, ResolvesExactlyOnePointOrNamesTheProblem) {
  const ResultsDocument results = load_results_document(fixture_results().string());
  const auto points = latest_ok_points(results);
  const auto find = [](const std::string& text) {
    return find_value_references(text, ProseSyntax::markdown, "experiments/x.md");
  };
  const auto values = resolve_values(
      find("{{median_ms[implementation=sequential,image.width=1024,kernel.size=7]}}"), points,
      "experiments/x.md");
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(values[0].text, "56.5");
  ASSERT_NE(values[0].record, nullptr);
  EXPECT_EQ(values[0].record->implementation, "sequential");
  try {
    resolve_values(find("\n\n\n{{median_ms[implementation=openmp,kernel.size=7]}}"), points,
                   "experiments/x.md");
    FAIL() << "expected an error";
  } catch (const ResultsError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("experiments/x.md:4: {{median_ms[implementation=openmp,kernel.size=7]}}: "
                        "the filter matches 6 ok points, it must match one"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(resolve_values(find("{{median_ms[implementation=nothing]}}"), points, "x.md"),
               ResultsError);
  EXPECT_THROW(resolve_values(find("{{median_mss[implementation=sequential]}}"), points, "x.md"),
               ResultsError);
}

class Compare : public ::testing::Test {
 protected:
  // B is the fixture with one point's timing scaled; keys change as they would across builds.
  std::string results_with_scaled_point(double factor) {
    auto results = nlohmann::json::parse(read_file(fixture_results()));
    for (auto& record : results["records"]) {
      record["key"] = "rebuilt-" + record["key"].get<std::string>();
      if (record["implementation"] == "openmp" && record["params"]["threads"] == 4 &&
          record["kernel"]["size"] == 7 && record["image"]["width"] == 1024) {
        for (const char* stat : {"q1", "median", "q3"})
          record["timing"]["stats"][stat] = record["timing"]["stats"][stat].get<double>() * factor;
        for (auto& sample : record["timing"]["samples_ms"]) sample = sample.get<double>() * factor;
      }
    }
    const auto path = dir_.path() / ("b" + std::to_string(factor)) / "results.json";
    write_file(path, results.dump());
    return path.parent_path().string();
  }
  ScratchDirectory dir_{"compare"};
};

// The fixture's points as CUDA points measured on GPU `uuid` of model `gpu`.
std::string results_on_gpu(const std::filesystem::path& folder, const std::string& gpu,
                           const std::string& uuid) {
  auto results = nlohmann::json::parse(read_file(fixture_results()));
  for (auto& record : results["records"]) {
    record["family"] = "cuda";
    record["machine"]["gpu"] = gpu;
    record["machine"]["gpu_driver"] = "13.0";
    record["machine"]["gpu_uuid"] = uuid;
  }
  write_file(folder / "results.json", results.dump());
  return folder.string();
}

// Two sessions on a lent GPU machine get two devices of one model: their points compare, as a
// results file keeps one record of a point per host and GPU model. Another model does not match.
TEST_F(Compare, GpuPointsOfTwoDevicesOfOneModelCompare) {
  const std::string a = results_on_gpu(dir_.path() / "a", "NVIDIA H200", "GPU-1111");
  const std::string b = results_on_gpu(dir_.path() / "b", "NVIDIA H200", "GPU-2222");
  const std::string other = results_on_gpu(dir_.path() / "c", "NVIDIA H100", "GPU-3333");
  testing::internal::CaptureStdout();
  EXPECT_EQ(compare_command({a, b}), 0);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("32 points compared on median_ms"), std::string::npos) << out;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  compare_command({a, other});
  out = testing::internal::GetCapturedStdout();
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(out.find("32 points compared"), std::string::npos) << out;
}

TEST_F(Compare, SameResultsPass) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(compare_command({fixture_results().string(), fixture_results().string()}), 0);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("32 points compared on median_ms (threshold 5.00%, Mann-Whitney U at alpha "
                     "0.05): 0 faster, 0 slower, 32 same"),
            std::string::npos)
      << out;
}

TEST_F(Compare, SlowerPointOfBIsARegression) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(compare_command({fixture_results().string(), results_with_scaled_point(1.2)}), 1);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("1.2000     slower"), std::string::npos) << out;
  EXPECT_NE(out.find("1 slower"), std::string::npos) << out;
}

TEST_F(Compare, ThresholdAndFasterPoints) {
  const std::string b = results_with_scaled_point(1.2);
  testing::internal::CaptureStdout();
  EXPECT_EQ(compare_command({fixture_results().string(), b, "--threshold", "25%"}), 0);
  testing::internal::GetCapturedStdout();
  testing::internal::CaptureStdout();
  EXPECT_EQ(compare_command({fixture_results().string(), results_with_scaled_point(0.5)}), 0);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("1 faster"), std::string::npos);
  testing::internal::CaptureStderr();
  EXPECT_EQ(compare_command({fixture_results().string()}), 2);
  EXPECT_EQ(compare_command({fixture_results().string(), b, "--alpha", "2"}), 2);
  testing::internal::GetCapturedStderr();
}

TEST_F(Compare, SlowerNeedsASignificantRankTestNotOnlyTheRatio) {
  // B's samples of one point are A's with the order of magnitudes kept but shuffled between the
  // two sides: the median moves by 20 % while the samples overlap, so the point is not slower.
  auto results = nlohmann::json::parse(read_file(fixture_results()));
  nlohmann::json* point = nullptr;
  for (auto& record : results["records"])
    if (record["implementation"] == "openmp" && record["params"]["threads"] == 4 &&
        record["kernel"]["size"] == 7 && record["image"]["width"] == 1024)
      point = &record;
  ASSERT_NE(point, nullptr);
  const double median = (*point)["timing"]["stats"]["median"];
  (*point)["timing"]["samples_ms"] = {median * 0.5, median * 0.9, median * 1.2, median * 1.6,
                                      median * 2.5};
  (*point)["timing"]["stats"]["median"] = median * 1.2;
  const auto b = dir_.path() / "overlapping" / "results.json";
  write_file(b, results.dump());
  const auto verdicts = dir_.path() / "verdicts.json";
  testing::internal::CaptureStdout();
  EXPECT_EQ(compare_command({fixture_results().string(), b.parent_path().string(), "--json",
                             verdicts.string()}),
            0);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("1.2000     same (within noise)"), std::string::npos) << out;

  const auto document = nlohmann::json::parse(read_file(verdicts));
  EXPECT_EQ(document["metric"], "median_ms");
  EXPECT_EQ(document["points"].size(), 32u);
  EXPECT_EQ(document["summary"]["slower"], 0);
  bool found = false;
  for (const auto& p : document["points"])
    if (p["verdict"] == "same (within noise)") {
      found = true;
      EXPECT_DOUBLE_EQ(p["ratio"].get<double>(), 1.2);
      EXPECT_GE(p["p_value"].get<double>(), 0.05);
      EXPECT_TRUE(p["exact"].get<bool>());  // 5 samples each, no ties
    }
  EXPECT_TRUE(found);
}

TEST_F(Compare, GeometricMeanSummaryAndJsonVerdicts) {
  const auto verdicts = dir_.path() / "slower.json";
  testing::internal::CaptureStdout();
  EXPECT_EQ(compare_command({fixture_results().string(), results_with_scaled_point(1.2), "--json",
                             verdicts.string()}),
            1);
  const std::string out = testing::internal::GetCapturedStdout();
  // One of 32 points 1.2x slower: the geometric mean is 1.2^(1/32).
  EXPECT_NE(out.find("geometric mean of B/A: 1.006 (+0.57 %) over 32 points"), std::string::npos)
      << out;
  EXPECT_NE(out.find("  openmp               1.015 (+1.5 %) over 12 points"), std::string::npos)
      << out;
  const auto document = nlohmann::json::parse(read_file(verdicts));
  EXPECT_NEAR(document["summary"]["geomean_ratio"].get<double>(), std::pow(1.2, 1.0 / 32), 1e-12);
  EXPECT_EQ(document["summary"]["slower"], 1);
  for (const auto& p : document["points"])
    if (p["verdict"] == "slower") {
      EXPECT_DOUBLE_EQ(p["u"].get<double>(), 0.0);  // every B sample above every A sample
      EXPECT_NEAR(p["p_value"].get<double>(), 2.0 / 252, 1e-12);
    }
}

}  // namespace
}  // namespace convlab

namespace convlab {
namespace {

TEST(FigureExtraction, PointsMissingASeriesFieldStayWithThatPartOfTheLabelLeftOut) {
  const nlohmann::json global_json{
      {"status", "ok"},
      {"implementation", "cuda_global"},
      {"params", {{"block", {32, 8}}}},
      {"kernel", {{"size", 7}}},
      {"timing", {{"stats", {{"median", 2.0}, {"q1", 1.9}, {"q3", 2.1}}}}}};
  nlohmann::json shared_json = global_json;
  shared_json["implementation"] = "cuda_shared";
  shared_json["params"]["tile"] = 32;
  shared_json["timing"]["stats"]["median"] = 1.5;
  const Record global = record_from_json(global_json);
  const Record shared = record_from_json(shared_json);
  FigureDeclaration declaration;
  declaration.name = "mixed";
  declaration.x = "kernel.size";
  declaration.y = {"median_ms"};
  declaration.series = {"implementation", "params.tile"};
  const FigureData data = extract_figure(declaration, {&global, &shared}, "test");
  ASSERT_EQ(data.panels.size(), 1u);
  const Grid& grid = data.panels[0].grid;
  ASSERT_EQ(grid.rows.size(), 2u);  // cuda_global is not dropped for lacking a tile
  std::vector<std::string> labels{grid.rows[0].label, grid.rows[1].label};
  std::sort(labels.begin(), labels.end());
  EXPECT_EQ(labels[0].find("tile"), std::string::npos) << labels[0];
  EXPECT_NE(labels[1].find("32"), std::string::npos) << labels[1];
}

}  // namespace
}  // namespace convlab
