// The one translation unit that compiles stb_image and stb_image_write.
#include <filesystem>

#include "core/sha256.hpp"
#include "images/image_source.hpp"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace convlab {

void probe_image_file(const std::string& path, int* width, int* height) {
  int components = 0;
  if (!stbi_info(path.c_str(), width, height, &components))
    throw ImageFileError(path + ": not a readable image (" + stbi_failure_reason() + ")");
}

Image load_image_file(const std::string& path, int channels) {
  int width = 0, height = 0, file_channels = 0;
  stbi_uc* data = stbi_load(path.c_str(), &width, &height, &file_channels, channels);
  if (data == nullptr)
    throw ImageFileError(path + ": cannot decode image (" + stbi_failure_reason() + ")");
  Image image;
  image.width = width;
  image.height = height;
  image.channels = channels;
  image.pixels.assign(data, data + static_cast<size_t>(width) * height * channels);
  stbi_image_free(data);
  image.name = std::filesystem::path(path).stem().string() + "-c" + std::to_string(channels);
  image.source = path;
  image.sha256 = sha256_hex(image.pixels.data(), image.pixels.size());
  return image;
}

bool write_png(const std::string& path, int width, int height, int channels,
               const std::uint8_t* pixels) {
  return stbi_write_png(path.c_str(), width, height, channels, pixels, width * channels) != 0;
}

}  // namespace convlab

namespace convlab {

bool write_jpeg(const std::string& path, int width, int height, int channels,
                const std::uint8_t* pixels, int quality) {
  return stbi_write_jpg(path.c_str(), width, height, channels, pixels, quality) != 0;
}

}  // namespace convlab
