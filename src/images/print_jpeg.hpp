// Pictures as JPEG for people to look at: the gallery's display pictures, and the copies of its
// photographs beside the notebook's pages and in the report. The PNG stays the lossless record; the
// JPEG is a fraction of its size at print quality.
#pragma once

#include <cstdint>
#include <string>

namespace convlab {

// Print quality at the photographs' own resolution.
constexpr int kPrintJpegQuality = 88;

// Writes 8-bit interleaved pixels as a JPEG at print quality, making its folder first. Throws
// FileError "PATH: write error: REASON" when it cannot be written.
void write_print_jpeg(const std::string& path, int width, int height, int channels,
                      const std::uint8_t* pixels);

// Converts the picture file `source` (PNG, or anything load_image_file reads) into the JPEG
// `jpeg`, unless both exist and the JPEG is no older than the source. Throws ImageFileError when
// the source cannot be read as a picture, FileError when the JPEG cannot be written.
void update_print_jpeg(const std::string& source, const std::string& jpeg);

}  // namespace convlab
