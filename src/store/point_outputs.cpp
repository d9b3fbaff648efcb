#include "store/point_outputs.hpp"

#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "core/file_io.hpp"
#include "core/point_filter.hpp"
#include "core/sha256.hpp"
#include "images/image_source.hpp"

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

std::string point_output_path(const nlohmann::json& description) {
  const bool f32 = description["output"] == "f32";
  std::string name = file_safe(description["image"]["name"].get<std::string>()) + "__" +
                     file_safe(description["kernel"]["name"].get<std::string>()) + "__" +
                     file_safe(description["border"].get<std::string>()) + "__" +
                     file_safe(description["output"].get<std::string>()) + "__" +
                     file_safe(description["implementation"].get<std::string>());
  for (const auto& [axis, value] : description["params"].items())
    name += "__" + file_safe(axis) + "-" + file_safe(field_text(value));
  return "images/outputs/" + name + (f32 ? ".pfm" : ".png");
}

SavedOutput save_point_output(const std::string& out_dir, const nlohmann::json& description,
                              const OutputView& output) {
  const std::string relative = point_output_path(description);
  const std::string path = out_dir + "/" + relative;
  create_folders(std::filesystem::path(path).parent_path().string());
  const int width = description["image"]["width"];
  const int height = description["image"]["height"];
  const int channels = description["image"]["channels"];
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
