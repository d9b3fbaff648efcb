// save_outputs: true writes each point's own output (PNG for u8, PFM for f32), named by
// implementation, params and output type and listed in its record; the gallery's pictures are
// separate and drawn from them.
#include <gtest/gtest.h>

#include <stb/stb_image.h>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/sha256.hpp"
#include "filters/filter_library.hpp"
#include "images/image_source.hpp"
#include "impl/registry.hpp"
#include "reference/reference.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kConfig = R"(name: saved
images:
  - {type: generated, sizes: [[13, 9]], channels: [1, 3], seed: 7, pattern: scene}
kernels:
  - {type: sobel_x}
  - {type: prewitt_x}
border: reflect
output: [u8, f32]
implementations:
  sequential: {}
  openmp: {threads: 2, schedule: dynamic}
  cuda_global: {block: [16, 8]}
measure: {warmup: 0, min_reps: 1, max_reps: 1}
save_outputs: true
)";

// The output the implementation computes for this record's point, computed again here.
std::vector<unsigned char> output_bytes_of(const json& record) {
  const Image image = generate_image(record["image"]["width"], record["image"]["height"],
                                     record["image"]["channels"], 7, "scene");
  const Filter filter = testing::filter_of(record["kernel"]["type"], 3);
  const OutputType output = record["output"] == "u8" ? OutputType::u8 : OutputType::f32;
  const Problem problem{image, filter, *parse_border("reflect"), output};
  const Implementation* implementation =
      find_implementation(record["implementation"].get<std::string>());
  auto prepared = implementation->prepare(problem, record["params"], RunContext{});
  prepared->execute();
  const OutputView view = prepared->output();
  const auto* bytes = static_cast<const unsigned char*>(view.data);
  return {bytes, bytes + view.count * (output == OutputType::u8 ? 1 : sizeof(float))};
}

TEST(SavedOutputs, EveryPointWritesItsOwnOutputListedInItsRecord) {
  const fs::path dir = testing::fresh_directory("saved-outputs");
  testing::write_text(dir / "saved.yaml", kConfig);
  const auto result = testing::run_convlab("run saved.yaml --quiet", dir);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const fs::path out = dir / "outputs/saved";
  const json doc = json::parse(testing::read_text(out / "results.json"));

  std::set<std::string> files;
  std::map<std::string, std::string>
      hash_by_kernel;  // sobel_x3 vs prewitt_x3, same point otherwise
  int checked = 0;
  for (const json& record : doc["records"]) {
    if (record["status"] == "skipped") {
      EXPECT_FALSE(record.contains("saved_output"));
      continue;
    }
    ASSERT_EQ(record["status"], "ok") << record["reason"];
    const json& saved = record["saved_output"];
    const std::string file = saved["file"];
    files.insert(file);
    const bool u8 = record["output"] == "u8";
    EXPECT_EQ(saved["format"], u8 ? "png" : "pfm");
    // The name says image, kernel, border, output, implementation and params.
    const std::string expected_name =
        "images/outputs/" + record["image"]["name"].get<std::string>() + "__" +
        record["kernel"]["name"].get<std::string>() + "__reflect__" +
        record["output"].get<std::string>() + "__" + record["implementation"].get<std::string>() +
        (record["implementation"] == "openmp" ? "__chunk-0__schedule-dynamic__threads-2" : "") +
        (u8 ? ".png" : ".pfm");
    EXPECT_EQ(file, expected_name);
    ASSERT_TRUE(fs::exists(out / file)) << file;

    const int channels = record["image"]["channels"];
    std::vector<unsigned char> stored;
    if (u8) {
      int w = 0, h = 0, c = 0;
      unsigned char* pixels = stbi_load((out / file).c_str(), &w, &h, &c, 0);
      ASSERT_NE(pixels, nullptr) << file;
      EXPECT_EQ(w, 13);
      EXPECT_EQ(h, 9);
      EXPECT_EQ(c, channels);
      stored.assign(pixels, pixels + size_t(w) * h * c);
      stbi_image_free(pixels);
    } else {
      int w = 0, h = 0, c = 0;
      const std::vector<float> values = read_pfm((out / file).string(), &w, &h, &c);
      ASSERT_EQ(values.size(), size_t(13) * 9 * channels) << file;
      EXPECT_EQ(c, channels);
      const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
      stored.assign(bytes, bytes + values.size() * sizeof(float));
    }
    // Exactly what the implementation computes, not the reference, not stretched for display.
    EXPECT_EQ(stored, output_bytes_of(record)) << file;
    EXPECT_EQ(saved["sha256"], sha256_hex(stored.data(), stored.size()));
    const std::string point = record["image"]["name"].get<std::string>() +
                              record["output"].get<std::string>() +
                              record["implementation"].get<std::string>();
    hash_by_kernel[point + record["kernel"]["type"].get<std::string>()] = saved["sha256"];
    ++checked;
  }
  EXPECT_EQ(checked, 2 * 2 * 2 * 2);
  EXPECT_EQ(files.size(), 16u);  // every point its own file
  for (const auto& [key, hash] : hash_by_kernel)
    if (key.find("sobel_x") != std::string::npos) {
      const std::string prewitt = key.substr(0, key.find("sobel_x")) + "prewitt_x";
      EXPECT_NE(hash, hash_by_kernel[prewitt]) << "Sobel x and Prewitt x outputs are identical";
    }

  // The gallery's pictures are apart from the outputs, drawn from them (tests/test_gallery.cpp).
  ASSERT_EQ(doc["gallery"].size(), 4u);  // 2 images x 2 kernels x 1 border
  for (const json& entry : doc["gallery"]) {
    EXPECT_EQ(entry["display"].get<std::string>().rfind("gallery/", 0), 0u) << entry;
    EXPECT_FALSE(entry.contains("output"));
    EXPECT_TRUE(files.count(entry["source"]["file"].get<std::string>())) << entry;
    EXPECT_TRUE(fs::exists(out / entry["display"].get<std::string>()));
    EXPECT_TRUE(fs::exists(out / entry["input"].get<std::string>()));
  }
  // Inputs are rebuilt from results.json when missing.
  const fs::path input = out / doc["gallery"][0]["input"].get<std::string>();
  ASSERT_TRUE(fs::remove(input)) << input;
  const auto restored = testing::run_convlab("gallery outputs/saved", dir);
  EXPECT_EQ(restored.exit_code, 0) << restored.output;
  for (const json& entry : doc["gallery"])
    EXPECT_TRUE(fs::exists(out / entry["input"].get<std::string>()));
  fs::remove_all(dir);
}

TEST(SavedOutputs, PfmKeepsEveryFloatAndStoresRowsBottomUp) {
  const fs::path dir = testing::fresh_directory("pfm");
  const std::vector<float> values{0.1f, -2.5f, 1e-20f, 3.0f, 255.75f, -0.0f};  // 3x2, gray
  write_pfm((dir / "a.pfm").string(), 3, 2, 1, values.data());
  const std::string text = testing::read_text(dir / "a.pfm");
  const std::string header = "Pf\n3 2\n-1.0\n";
  ASSERT_EQ(text.size(), header.size() + 6 * sizeof(float));
  EXPECT_EQ(text.substr(0, header.size()), header);
  float first_stored = 0;
  std::memcpy(&first_stored, text.data() + header.size(), sizeof(float));
  EXPECT_EQ(first_stored, 3.0f);  // the bottom row comes first
  int w = 0, h = 0, c = 0;
  const std::vector<float> back = read_pfm((dir / "a.pfm").string(), &w, &h, &c);
  EXPECT_EQ(std::memcmp(back.data(), values.data(), values.size() * sizeof(float)), 0);
  EXPECT_EQ(w, 3);
  EXPECT_EQ(h, 2);
  EXPECT_EQ(c, 1);
  // A header promising more values than the file holds is not read, nor allocated for.
  testing::write_text(dir / "short.pfm", "PF\n100000 100000\n-1.0\n" + text.substr(header.size()));
  EXPECT_TRUE(read_pfm((dir / "short.pfm").string(), &w, &h, &c).empty());
  testing::write_text(dir / "cut.pfm", text.substr(0, text.size() - 1));
  EXPECT_TRUE(read_pfm((dir / "cut.pfm").string(), &w, &h, &c).empty());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace convlab
