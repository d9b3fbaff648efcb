// The report's gallery shows implementations' saved outputs: the mapping of u8 and f32 outputs to
// display pictures on known values, the choice of implementation with its fallback, the count of
// implementations with byte-identical output, and `convlab gallery` refusing to go on (exit 2)
// when a picture and the output it is drawn from are both missing.
#include <gtest/gtest.h>

#include <stb/stb_image.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "gallery/gallery_render.hpp"
#include "gallery/gallery_select.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

TEST(GalleryRender, U8OutputIsShownByteForByte) {
  const std::vector<std::uint8_t> values{0, 1, 127, 128, 254, 255};
  const DisplayPixels display = display_from_u8(values);
  EXPECT_EQ(display.pixels, values);
  EXPECT_EQ(display.level, 0.0);
}

TEST(GalleryRender, F32StraightRoundsToNearestAndClamps) {
  const DisplayPixels display =
      display_from_f32({1.4f, 1.5f, -3.0f, 300.0f, 254.6f}, GalleryMapping::straight);
  EXPECT_EQ(display.pixels, (std::vector<std::uint8_t>{1, 2, 0, 255, 255}));
}

TEST(GalleryRender, SignedPutsZeroAtMidGreyAndThePercentileAtTheEnds) {
  // Five values: the 99.5th percentile of |value| is the 4th smallest, 4.
  const DisplayPixels display =
      display_from_f32({-4.0f, -2.0f, 0.0f, 2.0f, 4.0f}, GalleryMapping::signed_stretch);
  EXPECT_EQ(display.level, 4.0);
  // -4 -> 0, -2 -> 63.75, 0 -> 127.5, 2 -> 191.25, 4 -> 255, rounded half up.
  EXPECT_EQ(display.pixels, (std::vector<std::uint8_t>{0, 64, 128, 191, 255}));
}

TEST(GalleryRender, MagnitudeShowsBothSignsAlike) {
  const DisplayPixels display =
      display_from_f32({-4.0f, -2.0f, 0.0f, 2.0f, 4.0f}, GalleryMapping::magnitude_stretch);
  EXPECT_EQ(display.level, 4.0);
  EXPECT_EQ(display.pixels, (std::vector<std::uint8_t>{255, 128, 0, 128, 255}));
}

TEST(GalleryRender, StretchSaturatesAboveThePercentileNotAtTheLargestValue) {
  std::vector<float> values(1000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = -float(i);  // |value| 0 .. 999
  const DisplayPixels magnitude = display_from_f32(values, GalleryMapping::magnitude_stretch);
  EXPECT_EQ(magnitude.level, 994.0);  // index 999 * 995 / 1000 of the sorted magnitudes
  EXPECT_EQ(magnitude.pixels[994], 255);
  EXPECT_EQ(magnitude.pixels[999], 255);
  EXPECT_EQ(magnitude.pixels[497], 128);  // 497 * 255 / 994 = 127.5...
  const DisplayPixels signed_display = display_from_f32(values, GalleryMapping::signed_stretch);
  EXPECT_EQ(signed_display.pixels[0], 128);
  EXPECT_EQ(signed_display.pixels[994], 0);
  EXPECT_EQ(signed_display.pixels[999], 0);
}

TEST(GalleryRender, AllZeroOutputStaysAtZero) {
  EXPECT_EQ(display_from_f32({0.0f, 0.0f}, GalleryMapping::signed_stretch).pixels,
            (std::vector<std::uint8_t>{128, 128}));
  EXPECT_EQ(display_from_f32({0.0f, 0.0f}, GalleryMapping::magnitude_stretch).pixels,
            (std::vector<std::uint8_t>{0, 0}));
}

TEST(GalleryRender, DerivativesAreSignedOtherZeroSumFiltersMagnitudeTheRestStraight) {
  for (const char* type : {"prewitt_x", "prewitt_y", "sobel_x", "sobel_y"})
    EXPECT_EQ(gallery_mapping_for(testing::filter_of(type, 3)), GalleryMapping::signed_stretch)
        << type;
  for (const char* type : {"laplacian", "edge"})
    EXPECT_EQ(gallery_mapping_for(testing::filter_of(type, 3)), GalleryMapping::magnitude_stretch)
        << type;
  EXPECT_EQ(gallery_mapping_for(testing::filter_of("log", 5)), GalleryMapping::magnitude_stretch);
  for (const char* type : {"gaussian", "box", "sharpen", "emboss"})
    EXPECT_EQ(gallery_mapping_for(testing::filter_of(type, 3)), GalleryMapping::straight) << type;
  Filter zero_sum_custom;
  zero_sum_custom.type = "custom";
  zero_sum_custom.size = 3;
  zero_sum_custom.weights = {0, 1, 0, 1, -4, 1, 0, 1, 0};
  EXPECT_EQ(gallery_mapping_for(zero_sum_custom), GalleryMapping::magnitude_stretch);
}

Record point(const std::string& implementation, const std::string& output, Status status,
             const std::string& sha256) {
  Record record;
  record.key = implementation + "-" + output;
  record.run_id = "2026-01-01T00:00:00Z-a";
  record.implementation = implementation;
  record.image.name = "photo";
  record.kernel.name = "sobel_x3";
  record.border = "reflect";
  record.output = output;
  record.status = status;
  if (status == Status::skipped) record.reason = "no CUDA device";
  if (status == Status::failed) record.reason = "3 values beyond tolerance";
  if (status != Status::skipped)
    record.saved_output =
        SavedOutput{"images/outputs/" + record.key + (output == "u8" ? ".png" : ".pfm"),
                    output == "u8" ? "png" : "pfm", sha256};
  return record;
}

GalleryQuery query_for(const std::string& implementation) {
  return {"photo",
          "sobel_x3",
          "reflect",
          {"f32", "u8"},
          {"sequential", "cpu_rows", "cpu_separable", "cuda_shared"},
          implementation};
}

const auto kAllFiles = [](const std::string&) { return true; };

TEST(GallerySelect, ShowsTheConfiguredImplementationWhenItsPointIsOk) {
  const std::vector<Record> records{point("sequential", "f32", Status::ok, "A"),
                                    point("cuda_shared", "f32", Status::ok, "A")};
  const GalleryChoice choice = choose_gallery_source(records, query_for("cuda_shared"), kAllFiles);
  ASSERT_TRUE(choice.source);
  EXPECT_EQ(choice.source->implementation, "cuda_shared");
  EXPECT_EQ(choice.source->output, "f32");
  EXPECT_EQ(choice.source->key, "cuda_shared-f32");
  EXPECT_EQ(choice.source->sha256, "A");
  EXPECT_TRUE(choice.fallback.empty());
}

TEST(GallerySelect, FallsBackToTheNextImplementationInConfigOrderWhenSkipped) {
  // cuda_shared is last: the next one wraps around to the first.
  std::vector<Record> records{point("sequential", "f32", Status::ok, "A"),
                              point("cpu_rows", "f32", Status::ok, "A"),
                              point("cuda_shared", "f32", Status::skipped, "")};
  GalleryChoice choice = choose_gallery_source(records, query_for("cuda_shared"), kAllFiles);
  ASSERT_TRUE(choice.source);
  EXPECT_EQ(choice.source->implementation, "sequential");
  EXPECT_EQ(choice.fallback, "cuda_shared skipped: no CUDA device");

  // cpu_rows skipped: the next one after it (cpu_separable), not the first of the config.
  records = {point("sequential", "f32", Status::ok, "A"),
             point("cpu_rows", "f32", Status::skipped, ""),
             point("cpu_separable", "f32", Status::ok, "A")};
  choice = choose_gallery_source(records, query_for("cpu_rows"), kAllFiles);
  ASSERT_TRUE(choice.source);
  EXPECT_EQ(choice.source->implementation, "cpu_separable");

  // A failed point is not shown either, and neither is one whose output file is gone.
  records = {point("sequential", "f32", Status::ok, "A"),
             point("cuda_shared", "f32", Status::failed, "B")};
  choice = choose_gallery_source(records, query_for("cuda_shared"), kAllFiles);
  EXPECT_EQ(choice.source->implementation, "sequential");
  EXPECT_EQ(choice.fallback, "cuda_shared failed: 3 values beyond tolerance");
  records = {point("sequential", "f32", Status::ok, "A"),
             point("cuda_shared", "f32", Status::ok, "A")};
  choice = choose_gallery_source(records, query_for("cuda_shared"), [](const std::string& file) {
    return file.find("cuda_shared") == std::string::npos;
  });
  EXPECT_EQ(choice.source->implementation, "sequential");
  EXPECT_NE(choice.fallback.find("is missing"), std::string::npos) << choice.fallback;
}

TEST(GallerySelect, UsesThePreferredOutputTypeAndTheOtherOnlyWhenItWasNotMeasured) {
  std::vector<Record> records{point("cuda_shared", "u8", Status::ok, "U"),
                              point("cuda_shared", "f32", Status::ok, "F")};
  EXPECT_EQ(choose_gallery_source(records, query_for("cuda_shared"), kAllFiles).source->output,
            "f32");
  records = {point("cuda_shared", "u8", Status::ok, "U")};
  EXPECT_EQ(choose_gallery_source(records, query_for("cuda_shared"), kAllFiles).source->output,
            "u8");
  EXPECT_FALSE(choose_gallery_source({}, query_for("cuda_shared"), kAllFiles).source);
}

TEST(GallerySelect, CountsImplementationsWithByteIdenticalOutputPerOutputType) {
  const std::vector<Record> records{
      point("sequential", "u8", Status::ok, "U"), point("cpu_rows", "u8", Status::ok, "U"),
      point("cpu_separable", "u8", Status::ok, "U"), point("cuda_shared", "u8", Status::ok, "U"),
      point("sequential", "f32", Status::ok, "F1"), point("cpu_rows", "f32", Status::ok, "F1"),
      point("cpu_separable", "f32", Status::failed, "F9"),
      point("cuda_shared", "f32", Status::ok, "F2"),
      // another kernel's output with the same bytes does not count
      [] {
        Record other = point("cpu_rows", "f32", Status::ok, "F2");
        other.kernel.name = "prewitt_x3";
        return other;
      }()};
  const GalleryChoice choice = choose_gallery_source(records, query_for("cuda_shared"), kAllFiles);
  ASSERT_EQ(choice.identical.size(), 2u);
  EXPECT_EQ(choice.identical[0].output, "u8");
  EXPECT_EQ(choice.identical[0].identical, 4);
  EXPECT_EQ(choice.identical[0].ran, 4);
  EXPECT_EQ(choice.identical[1].output, "f32");
  EXPECT_EQ(choice.identical[1].identical, 1);  // only cuda_shared's own
  EXPECT_EQ(choice.identical[1].ran, 4);        // the failed point ran

  // A skipped point did not run.
  const std::vector<Record> skipped{point("sequential", "f32", Status::ok, "F1"),
                                    point("cuda_shared", "f32", Status::skipped, "")};
  const GalleryChoice fallback =
      choose_gallery_source(skipped, query_for("cuda_shared"), kAllFiles);
  ASSERT_EQ(fallback.identical.size(), 1u);
  EXPECT_EQ(fallback.identical[0].identical, 1);
  EXPECT_EQ(fallback.identical[0].ran, 1);
}

TEST(GallerySelect, TheNewestRecordOfAPointCounts) {
  Record old_run = point("cpu_rows", "f32", Status::ok, "OLD");
  Record new_run = point("cpu_rows", "f32", Status::ok, "F");
  new_run.run_id = "2026-02-01T00:00:00Z-b";
  new_run.key = "cpu_rows-f32-again";
  const std::vector<Record> records{new_run, old_run, point("sequential", "f32", Status::ok, "F")};
  const GalleryChoice choice = choose_gallery_source(records, query_for("cpu_rows"), kAllFiles);
  EXPECT_EQ(choice.source->sha256, "F");
  ASSERT_EQ(choice.identical.size(), 1u);
  EXPECT_EQ(choice.identical[0].identical, 2);
  EXPECT_EQ(choice.identical[0].ran, 2);
}

// A run with save_outputs: true and a gallery: block, on CPU implementations only, so that the
// configured implementation (cpu_separable) is skipped for the non-separable Laplacian everywhere.
const char* kConfig = R"(name: pictures
images:
  - {type: generated, sizes: [[64, 48]], channels: 3, seed: 5, pattern: scene}
kernels:
  - {type: gaussian, size: 3}
  - {type: laplacian}
  - {type: sobel_x}
border: reflect
output: [u8, f32]
implementations:
  sequential: {}
  cpu_rows: {threads: 1}
  cpu_separable: {threads: 1}
measure: {warmup: 0, min_reps: 1, max_reps: 1}
save_outputs: true
gallery: {implementation: cpu_separable}
)";

json gallery_entry(const json& doc, const std::string& kernel) {
  for (const json& entry : doc["gallery"])
    if (entry["kernel"] == kernel) return entry;
  return nullptr;
}

TEST(GalleryRun, PicturesComeFromSavedOutputsAndAreRedrawnOnlyFromThem) {
  const fs::path dir = testing::fresh_directory("gallery-run");
  testing::write_text(dir / "pictures.yaml", kConfig);
  const auto run = testing::run_convlab("run pictures.yaml --quiet", dir);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const fs::path out = dir / "outputs/pictures";
  const json doc = json::parse(testing::read_text(out / "results.json"));
  ASSERT_EQ(doc["gallery"].size(), 3u);

  const json gaussian = gallery_entry(doc, "gaussian3");
  EXPECT_EQ(gaussian["display"], "gallery/scene-64x48-c3-s5__gaussian3__reflect.jpg");
  EXPECT_EQ(gaussian["source"]["implementation"], "cpu_separable");
  EXPECT_EQ(gaussian["source"]["output"], "u8");
  EXPECT_EQ(gaussian["mapping"]["kind"], "straight");
  EXPECT_FALSE(gaussian.contains("fallback"));

  const json laplacian = gallery_entry(doc, "laplacian3");
  EXPECT_EQ(laplacian["source"]["implementation"], "sequential");  // wraps around
  EXPECT_EQ(laplacian["source"]["output"], "f32");
  EXPECT_EQ(laplacian["mapping"]["kind"], "magnitude");
  EXPECT_GT(laplacian["mapping"]["level"].get<double>(), 0.0);
  EXPECT_NE(laplacian.value("fallback", "").find("cpu_separable skipped"), std::string::npos)
      << laplacian;
  for (const json& count : laplacian["identical"]) EXPECT_EQ(count["ran"], 2) << laplacian;

  const json sobel = gallery_entry(doc, "sobel_x3");
  EXPECT_EQ(sobel["mapping"]["kind"], "signed");
  EXPECT_EQ(sobel["source"]["output"], "f32");

  // The entry names the point it was drawn from, and that point's saved output.
  for (const json& entry : doc["gallery"]) {
    bool found = false;
    for (const json& record : doc["records"])
      if (record["key"] == entry["source"]["key"]) {
        found = true;
        EXPECT_EQ(record["saved_output"]["file"], entry["source"]["file"]);
        EXPECT_EQ(record["saved_output"]["sha256"], entry["source"]["sha256"]);
        EXPECT_EQ(record["implementation"], entry["source"]["implementation"]);
      }
    EXPECT_TRUE(found) << entry;
    ASSERT_TRUE(fs::exists(out / entry["display"].get<std::string>())) << entry;
  }

  // The straight picture is the u8 output itself, up to JPEG's loss.
  int w = 0, h = 0, c = 0;
  unsigned char* shown =
      stbi_load((out / gaussian["display"].get<std::string>()).c_str(), &w, &h, &c, 3);
  unsigned char* output =
      stbi_load((out / gaussian["source"]["file"].get<std::string>()).c_str(), &w, &h, &c, 3);
  ASSERT_TRUE(shown && output);
  ASSERT_EQ(w * h, 64 * 48);
  double difference = 0;
  for (int i = 0; i < w * h * 3; ++i) difference += std::abs(int(shown[i]) - int(output[i]));
  stbi_image_free(shown);
  stbi_image_free(output);
  EXPECT_LT(difference / (w * h * 3), 4.0);

  // A missing picture is drawn again from its saved output ...
  const fs::path picture = out / sobel["display"].get<std::string>();
  fs::remove(picture);
  auto restored = testing::run_convlab("gallery outputs/pictures", dir);
  EXPECT_EQ(restored.exit_code, 0) << restored.output;
  EXPECT_TRUE(fs::exists(picture));
  // ... a picture whose output is gone is kept as it is ...
  fs::remove(out / sobel["source"]["file"].get<std::string>());
  restored = testing::run_convlab("gallery outputs/pictures", dir);
  EXPECT_EQ(restored.exit_code, 0) << restored.output;
  EXPECT_TRUE(fs::exists(picture));
  // ... and with both gone, nothing is drawn from the reference: exit 2 naming the file.
  fs::remove(picture);
  restored = testing::run_convlab("gallery outputs/pictures", dir);
  EXPECT_EQ(restored.exit_code, 2) << restored.output;
  EXPECT_NE(restored.output.find(sobel["display"].get<std::string>()), std::string::npos)
      << restored.output;
  EXPECT_NE(restored.output.find(sobel["source"]["file"].get<std::string>()), std::string::npos)
      << restored.output;
  EXPECT_FALSE(fs::exists(picture));
  fs::remove_all(dir);
}

TEST(GalleryRun, EntriesOfEarlierVersionsAreStillDrawnAndSaidToComeFromTheReference) {
  const fs::path dir = testing::fresh_directory("gallery-earlier");
  testing::write_text(dir / "pictures.yaml", kConfig);
  ASSERT_EQ(testing::run_convlab("run pictures.yaml --quiet", dir).exit_code, 0);
  const fs::path out = dir / "outputs/pictures";
  json doc = json::parse(testing::read_text(out / "results.json"));
  // Entries as earlier versions wrote them: no source, a PNG under images/display/.
  for (json& entry : doc["gallery"]) {
    entry.erase("source");
    entry.erase("mapping");
    entry.erase("identical");
    entry.erase("fallback");
    entry["display"] = "images/display/" + entry["image"].get<std::string>() + "__" +
                       entry["kernel"].get<std::string>() + "__reflect.png";
  }
  testing::write_text(out / "results.json", doc.dump(1));
  const auto restored = testing::run_convlab("gallery outputs/pictures", dir);
  EXPECT_EQ(restored.exit_code, 0) << restored.output;
  EXPECT_NE(restored.output.find("3 pictures of entries from an earlier version were drawn from "
                                 "the reference"),
            std::string::npos)
      << restored.output;
  for (const json& entry : doc["gallery"])
    EXPECT_TRUE(fs::exists(out / entry["display"].get<std::string>())) << entry;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace convlab
