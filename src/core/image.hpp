// An 8-bit image in interleaved (HWC) layout: pixel (x, y) channel c is at (y * width + x) *
// channels + c.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace convlab {

struct Image {
  std::string name;    // stable identifier used in results, e.g. "noise-1920x1080-c3-s42"
  std::string source;  // "generated:noise seed=42" or the file path
  int width = 0;
  int height = 0;
  int channels = 0;  // 1 (gray) or 3 (RGB)
  std::vector<std::uint8_t> pixels;
  std::string sha256;  // of the pixel bytes, so results name exactly what was filtered

  size_t pixel_count() const { return static_cast<size_t>(width) * height; }
  size_t value_count() const { return pixel_count() * channels; }
};

}  // namespace convlab
