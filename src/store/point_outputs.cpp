#include "store/point_outputs.hpp"

#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "core/file_io.hpp"
#include "core/point_filter.hpp"
#include "core/sha256.hpp"
#include "images/image_source.hpp"
#include "store/source_versions.hpp"

namespace convlab {
namespace {

// Letters, digits and . - + stay; anything else (spaces, slashes) becomes '_'.
std::string file_safe(const std::string& text) {
  std::string safe;
  for (char c : text)
    safe +=
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' ? c : '_';
  return safe;
}

}  // namespace

std::string point_output_path(const PointDescription& point) {
  std::string name = file_safe(point.image.name) + "__" + file_safe(point.kernel.name) + "__" +
                     file_safe(point.border) + "__" + file_safe(point.output) + "__" +
                     file_safe(point.implementation);
  for (const auto& [axis, value] : point.params.items())
    name += "__" + file_safe(axis) + "-" + file_safe(field_text(value));
  // Each version of a user's kernel keeps its own output.
  if (!point.source_version.empty())
    name += "__source-" + file_safe(short_version(point.source_version));
  return "images/outputs/" + name + (point.output == "f32" ? ".pfm" : ".png");
}

SavedOutput save_point_output(const std::string& out_dir, const PointDescription& point,
                              const OutputView& output) {
  const std::string relative = point_output_path(point);
  const std::string path = out_dir + "/" + relative;
  create_folders(std::filesystem::path(path).parent_path().string());
  const int width = point.image.width;
  const int height = point.image.height;
  const int channels = point.image.channels;
  const bool f32 = output.type == OutputType::f32;
  if (f32)
    write_pfm(path, width, height, channels, output.f32());
  else
    write_png(path, width, height, channels, output.u8());
  const size_t bytes = output.count * bytes_per_value(output.type);
  return {relative, f32 ? "pfm" : "png",
          sha256_hex(static_cast<const std::uint8_t*>(output.data), bytes)};
}

}  // namespace convlab
