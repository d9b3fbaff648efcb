// PFM files for f32 outputs: a text header and the raw little-endian floats, so nothing is rounded.
#include <cstring>
#include <sstream>

#include "core/file_io.hpp"
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

void write_pfm(const std::string& path, int width, int height, int channels, const float* values) {
  if (!little_endian_host() || (channels != 1 && channels != 3))
    throw FileError(path + ": write error: PFM holds 1 or 3 little-endian channels");
  AtomicFile file(path, WriteTarget::owned);
  std::ostringstream header;
  header << (channels == 3 ? "PF" : "Pf") << "\n" << width << " " << height << "\n-1.0\n";
  file.write(header.str());
  const size_t row = static_cast<size_t>(width) * channels;
  for (int y = height - 1; y >= 0; --y)
    file.write(values + static_cast<size_t>(y) * row, row * sizeof(float));
  file.commit();
}

std::vector<float> read_pfm(const std::string& path, int* width, int* height, int* channels) {
  const std::string bytes = read_file(path);
  std::istringstream header(bytes.substr(0, 256));
  std::string magic;
  double scale = 0;
  if (!(header >> magic >> *width >> *height >> scale) || (magic != "PF" && magic != "Pf") ||
      scale >= 0 || *width <= 0 || *height <= 0 || !little_endian_host())
    return {};
  *channels = magic == "PF" ? 3 : 1;
  // The data starts after the single whitespace character that follows the scale; a header
  // promising more values than the file holds is not read (nor allocated for).
  const size_t start = static_cast<size_t>(header.tellg()) + 1;
  const size_t row = static_cast<size_t>(*width) * *channels;
  if (start > bytes.size() || (bytes.size() - start) / sizeof(float) / row < size_t(*height))
    return {};
  std::vector<float> values(row * static_cast<size_t>(*height));
  for (int y = *height - 1; y >= 0; --y)
    std::memcpy(values.data() + static_cast<size_t>(y) * row,
                bytes.data() + start + static_cast<size_t>(*height - 1 - y) * row * sizeof(float),
                row * sizeof(float));
  return values;
}

}  // namespace convlab
