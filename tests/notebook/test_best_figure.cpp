// `convlab notebook` of configs/npp_peer.yaml on its committed results: the figure best-over-floor
// (best: and a constant overlay) is drawn as an SVG whose hover targets name, for each kernel and
// GPU, the fastest record of the rungs that are not NPP, and NPP's record beside it.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "notebook_test_support.hpp"

namespace convlab {
namespace {

using namespace notebook_test;
using json = nlohmann::json;

// The figure's data as the page carries it for its hover targets.
json figure_data(const std::string& page, const std::string& name) {
  const std::string tag = "<script type=\"application/json\" class=\"figure-data\">";
  const size_t at = page.find(tag + "{\"name\":\"" + name + "\"");
  if (at == std::string::npos) return json();
  const size_t begin = at + tag.size();
  const size_t end = page.find("</script>", begin);
  return json::parse(page.substr(begin, end - begin));
}

TEST(NotebookBestFigure, TheFastestOfEachKernelAndGpuIsTheHoveredRecord) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed";
  Scratch scratch("notebook-best");
  const fs::path source = CONVLAB_SOURCE_TREE;
  fs::create_directories(scratch.path() / "outputs" / "npp_peer");
  fs::create_directories(scratch.path() / "configs");
  fs::copy_file(source / "outputs" / "npp_peer" / "results.json",
                scratch.path() / "outputs" / "npp_peer" / "results.json");
  fs::copy_file(source / "configs" / "npp_peer.yaml", scratch.path() / "configs" / "npp_peer.yaml");
  const CommandRun run = convlab(scratch.path(), "notebook outputs/npp_peer --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const fs::path site = scratch.path() / "outputs" / "notebook";
  EXPECT_TRUE(fs::exists(site / "figures" / "npp_peer" / "best-over-floor.svg"));
  const std::string page = read_file(site / "npp_peer.html");
  const json data = figure_data(page, "best-over-floor");
  ASSERT_TRUE(data.is_object()) << "no figure data of best-over-floor on the page";

  // The fastest median of the rungs other than NPP, and NPP's, per GPU and kernel.
  const json results = json::parse(read_file(source / "outputs" / "npp_peer" / "results.json"));
  std::map<std::pair<std::string, std::string>, double> fastest;
  std::map<std::pair<std::string, std::string>, std::string> fastest_point, npp_point;
  for (const auto& record : results["records"]) {
    if (record["status"] != "ok") continue;
    const auto key = std::make_pair(record["machine"]["gpu"].get<std::string>(),
                                    record["kernel"]["name"].get<std::string>());
    const double median = record["timing"]["stats"]["median"];
    if (record["implementation"] == "npp") {
      npp_point[key] = record["point_id"];
    } else if (!fastest.count(key) || median < fastest[key]) {
      fastest[key] = median;
      fastest_point[key] = record["point_id"];
    }
  }
  ASSERT_EQ(fastest.size(), 18u);  // 9 kernels on each of 2 GPUs

  size_t fastest_seen = 0, npp_seen = 0;
  for (const auto& point : data["points"]) {
    const std::string panel = point["panel"];
    std::string gpu;
    for (const auto& [key, id] : fastest_point)
      if (panel.find(key.first) != std::string::npos && key.first.size() > gpu.size())
        gpu = key.first;
    ASSERT_FALSE(gpu.empty()) << panel;
    const auto key = std::make_pair(gpu, point["x"].get<std::string>());
    if (point["series"] == 0) {
      EXPECT_EQ(point["point"], fastest_point.at(key)) << panel << " " << key.second;
      ++fastest_seen;
    } else {
      EXPECT_EQ(point["series"], 1);
      EXPECT_EQ(point["point"], npp_point.at(key)) << panel << " " << key.second;
      ++npp_seen;
    }
  }
  EXPECT_EQ(fastest_seen, 18u);
  EXPECT_EQ(npp_seen, 18u);
}

}  // namespace
}  // namespace convlab
