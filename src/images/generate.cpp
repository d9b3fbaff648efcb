#include <algorithm>
#include <cmath>

#include "core/sha256.hpp"
#include "images/image_source.hpp"

namespace convlab {
namespace {

void fill_noise(Image& image, SplitMix64& random) {
  auto& px = image.pixels;
  size_t i = 0;
  for (; i + 8 <= px.size(); i += 8) {
    const std::uint64_t bits = random.next();
    for (int b = 0; b < 8; ++b) px[i + b] = static_cast<std::uint8_t>(bits >> (8 * b));
  }
  const std::uint64_t bits = random.next();
  for (int b = 0; i < px.size(); ++i, ++b) px[i] = static_cast<std::uint8_t>(bits >> (8 * b));
}

// Integer-only arithmetic for the scene so the bytes do not depend on floating-point libraries.
void fill_scene(Image& image, SplitMix64& random) {
  struct Disc {
    long long cx, cy, r2;
    int value[3];
  };
  Disc discs[6];
  for (Disc& d : discs) {
    d.cx = static_cast<long long>(random.next() % static_cast<std::uint64_t>(image.width));
    d.cy = static_cast<long long>(random.next() % static_cast<std::uint64_t>(image.height));
    const long long r = 1 + static_cast<long long>(
                                random.next() % static_cast<std::uint64_t>(
                                                    1 + std::max(image.width, image.height) / 5));
    d.r2 = r * r;
    for (int& v : d.value) v = static_cast<int>(random.next() % 256);
  }
  const int c = image.channels;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      for (int k = 0; k < c; ++k) {
        int v = (k == 0)   ? (255 * x) / std::max(1, image.width - 1)
                : (k == 1) ? (255 * y) / std::max(1, image.height - 1)
                           : 128;
        for (const Disc& d : discs) {
          const long long dx = x - d.cx, dy = y - d.cy;
          if (dx * dx + dy * dy <= d.r2) v = d.value[k];
        }
        v += static_cast<int>(random.next() % 17) - 8;
        image.pixels[(static_cast<size_t>(y) * image.width + x) * c + k] =
            static_cast<std::uint8_t>(std::clamp(v, 0, 255));
      }
    }
}

}  // namespace

Image generate_image(int width, int height, int channels, std::uint64_t seed,
                     const std::string& pattern) {
  Image image;
  image.width = width;
  image.height = height;
  image.channels = channels;
  image.name = pattern + "-" + std::to_string(width) + "x" + std::to_string(height) + "-c" +
               std::to_string(channels) + "-s" + std::to_string(seed);
  image.source = "generated:" + pattern + " seed=" + std::to_string(seed);
  image.pixels.resize(image.value_count());
  // Mix the shape into the seed so different sizes are not prefixes of one stream.
  SplitMix64 random(seed ^ (std::uint64_t(width) << 40) ^ (std::uint64_t(height) << 16) ^
                    std::uint64_t(channels));
  if (pattern == "scene")
    fill_scene(image, random);
  else
    fill_noise(image, random);
  image.sha256 = sha256_hex(image.pixels.data(), image.pixels.size());
  return image;
}

}  // namespace convlab
