// Where input images come from: deterministic generated images and files decoded with stb_image.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "images/image_spec.hpp"

namespace convlab {

// SplitMix64: a fixed algorithm, so a seed gives the same bytes with every compiler and library.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// Patterns: "noise" (independent uniform bytes) or "scene" (smooth gradients and discs plus mild
// noise, so filtered outputs are meaningful to look at).
Image generate_image(int width, int height, int channels, std::uint64_t seed,
                     const std::string& pattern);

class ImageFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Decodes PNG, JPEG, BMP, PNM (and what else stb_image reads) and converts to `channels` (1 or 3).
// Only a regular file is read: anything else (a FIFO, a device, a directory) is an ImageFileError
// naming the path, before a byte is read.
Image load_image_file(const std::string& path, int channels);

// Reads only the header: width, height; throws ImageFileError when it is not a readable image.
void probe_image_file(const std::string& path, int* width, int* height);

// Writes 8-bit interleaved pixels as PNG, whole or not at all (core/file_io.hpp AtomicFile, a file
// of convlab's own: anything but a regular file at `path` is refused); a FileError
// "PATH: write error: REASON" when it cannot be written.
void write_png(const std::string& path, int width, int height, int channels,
               const std::uint8_t* pixels);
// The same as baseline JPEG (quality 1..100), for pictures in print: a fraction of the PNG size.
void write_jpeg(const std::string& path, int width, int height, int channels,
                const std::uint8_t* pixels, int quality);

// Float images as PFM (Portable Float Map: "Pf" gray or "PF" RGB, then "width height", then -1.0
// for little-endian 32-bit floats, rows stored bottom to top), which keeps every value exactly and
// is read by OpenCV's imread (IMREAD_UNCHANGED), ImageMagick and GIMP. Values are interleaved
// top row first in memory, as convlab's outputs are. write_pfm writes as write_png does; read_pfm:
// empty when the file is not a little-endian PFM or holds fewer values than its header says, a
// FileError when it is not a regular file or cannot be read.
void write_pfm(const std::string& path, int width, int height, int channels, const float* values);
std::vector<float> read_pfm(const std::string& path, int* width, int* height, int* channels);

}  // namespace convlab

namespace convlab {
// Generates or loads the image a plan names.
Image materialize_image(const ImageSpec& spec);
}  // namespace convlab
