// PFM files for f32 outputs: a text header and the raw little-endian floats, so nothing is rounded.
#include <cstring>
#include <fstream>

#include "images/image_source.hpp"

namespace convlab {
namespace {

static_assert(sizeof(float) == 4, "PFM stores 32-bit floats");

bool little_endian_host() {
  const std::uint32_t one = 1;
  unsigned char first = 0;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

}  // namespace

bool write_pfm(const std::string& path, int width, int height, int channels, const float* values) {
  if (!little_endian_host() || (channels != 1 && channels != 3)) return false;
  std::ofstream file(path, std::ios::binary);
  file << (channels == 3 ? "PF" : "Pf") << "\n" << width << " " << height << "\n-1.0\n";
  const size_t row = static_cast<size_t>(width) * channels;
  for (int y = height - 1; y >= 0; --y)
    file.write(reinterpret_cast<const char*>(values + static_cast<size_t>(y) * row),
               static_cast<std::streamsize>(row * sizeof(float)));
  return static_cast<bool>(file);
}

std::vector<float> read_pfm(const std::string& path, int* width, int* height, int* channels) {
  std::ifstream file(path, std::ios::binary);
  std::string magic;
  double scale = 0;
  if (!(file >> magic >> *width >> *height >> scale) || (magic != "PF" && magic != "Pf") ||
      scale >= 0 || *width <= 0 || *height <= 0 || !little_endian_host())
    return {};
  file.get();  // the single whitespace character after the scale
  *channels = magic == "PF" ? 3 : 1;
  const size_t row = static_cast<size_t>(*width) * *channels;
  std::vector<float> values(row * static_cast<size_t>(*height));
  for (int y = *height - 1; y >= 0; --y)
    file.read(reinterpret_cast<char*>(values.data() + static_cast<size_t>(y) * row),
              static_cast<std::streamsize>(row * sizeof(float)));
  if (!file) return {};
  return values;
}

}  // namespace convlab
