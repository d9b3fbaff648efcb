// Pictures as JPEG at print quality (src/images/print_jpeg.hpp), the one conversion of the gallery,
// the notebook's copies and the report's: written when missing or older than the source, left
// alone otherwise, and a source that is not a picture refused.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <vector>

#include "images/image_source.hpp"
#include "images/print_jpeg.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

void write_test_png(const fs::path& path, std::uint8_t level) {
  std::vector<std::uint8_t> pixels(8 * 6 * 3, level);
  write_png(path.string(), 8, 6, 3, pixels.data());
}

using PrintJpeg = testing::DirectoryTest;

TEST_F(PrintJpeg, AConversionIsMadeOnceAndAgainWhenTheSourceIsNewer) {
  const fs::path png = dir_ / "input.png";
  const fs::path jpeg = dir_ / "made" / "here" / "input.jpg";
  write_test_png(png, 40);
  update_print_jpeg(png.string(), jpeg.string());
  ASSERT_TRUE(fs::exists(jpeg));
  const Image first = load_image_file(jpeg.string(), 3);
  EXPECT_EQ(first.width, 8);
  EXPECT_EQ(first.height, 6);
  EXPECT_NEAR(first.pixels[0], 40, 2);

  // A JPEG no older than its source is left alone, even where the source changed in between.
  write_test_png(png, 200);
  const auto later = fs::last_write_time(png) + std::chrono::seconds(10);
  fs::last_write_time(jpeg, later);
  update_print_jpeg(png.string(), jpeg.string());
  EXPECT_NEAR(load_image_file(jpeg.string(), 3).pixels[0], 40, 2);
  EXPECT_EQ(fs::last_write_time(jpeg), later);

  // An older one is made again.
  fs::last_write_time(jpeg, fs::last_write_time(png) - std::chrono::seconds(10));
  update_print_jpeg(png.string(), jpeg.string());
  EXPECT_NEAR(load_image_file(jpeg.string(), 3).pixels[0], 200, 2);
}

TEST_F(PrintJpeg, ASourceThatIsNotAPictureIsRefusedAndNothingIsWritten) {
  const fs::path text = dir_ / "notes.png";
  testing::write_text(text, "not a picture\n");
  const fs::path jpeg = dir_ / "notes.jpg";
  EXPECT_THROW(update_print_jpeg(text.string(), jpeg.string()), ImageFileError);
  EXPECT_THROW(update_print_jpeg((dir_ / "missing.png").string(), jpeg.string()), ImageFileError);
  EXPECT_FALSE(fs::exists(jpeg));
}

}  // namespace
}  // namespace convlab
