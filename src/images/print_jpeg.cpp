#include "images/print_jpeg.hpp"

#include <filesystem>

#include "core/file_io.hpp"
#include "images/image_source.hpp"

namespace convlab {

namespace fs = std::filesystem;

void write_print_jpeg(const std::string& path, int width, int height, int channels,
                      const std::uint8_t* pixels) {
  if (fs::path(path).has_parent_path()) create_folders(fs::path(path).parent_path().string());
  write_jpeg(path, width, height, channels, pixels, kPrintJpegQuality);
}

void update_print_jpeg(const std::string& source, const std::string& jpeg) {
  if (fs::exists(jpeg) && fs::exists(source) &&
      fs::last_write_time(jpeg) >= fs::last_write_time(source))
    return;
  const Image image = load_image_file(source, 3);
  write_print_jpeg(jpeg, image.width, image.height, image.channels, image.pixels.data());
}

}  // namespace convlab
