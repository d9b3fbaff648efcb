#include "gallery/gallery_render.hpp"

#include <algorithm>
#include <cmath>

#include "filters/filter_descriptor.hpp"

namespace convlab {
namespace {

// |value| at the 99.5th percentile (the largest |value| when that is 0).
double stretch_level(const std::vector<float>& values) {
  if (values.empty()) return 0.0;
  std::vector<double> magnitudes(values.size());
  for (size_t i = 0; i < values.size(); ++i) magnitudes[i] = std::fabs(double(values[i]));
  const auto at =
      magnitudes.begin() + static_cast<std::ptrdiff_t>((magnitudes.size() - 1) * 995 / 1000);
  std::nth_element(magnitudes.begin(), at, magnitudes.end());
  return *at > 0 ? *at : *std::max_element(magnitudes.begin(), magnitudes.end());
}

std::uint8_t to_byte(double value) {
  return static_cast<std::uint8_t>(std::clamp(std::floor(value + 0.5), 0.0, 255.0));
}

}  // namespace

std::string to_string(GalleryMapping mapping) {
  switch (mapping) {
    case GalleryMapping::signed_stretch:
      return "signed";
    case GalleryMapping::magnitude_stretch:
      return "magnitude";
    case GalleryMapping::straight:
      break;
  }
  return "straight";
}

std::optional<GalleryMapping> parse_gallery_mapping(const std::string& text) {
  for (GalleryMapping mapping : {GalleryMapping::straight, GalleryMapping::signed_stretch,
                                 GalleryMapping::magnitude_stretch})
    if (to_string(mapping) == text) return mapping;
  return std::nullopt;
}

GalleryMapping gallery_mapping_for(const Filter& filter) {
  const FilterDescriptor* descriptor = find_filter_type(filter.type);
  if (descriptor && descriptor->gallery_signed) return GalleryMapping::signed_stretch;
  double weight_sum = 0.0;
  for (float w : filter.weights) weight_sum += w;
  return std::fabs(weight_sum) < 1e-6 ? GalleryMapping::magnitude_stretch
                                      : GalleryMapping::straight;
}

DisplayPixels display_from_u8(const std::vector<std::uint8_t>& values) {
  return {values, 0.0};
}

DisplayPixels display_from_f32(const std::vector<float>& values, GalleryMapping mapping) {
  DisplayPixels display;
  display.pixels.resize(values.size());
  if (mapping == GalleryMapping::straight) {
    for (size_t i = 0; i < values.size(); ++i) display.pixels[i] = to_byte(values[i]);
    return display;
  }
  const bool is_signed = mapping == GalleryMapping::signed_stretch;
  display.level = stretch_level(values);
  const double scale = display.level > 0 ? (is_signed ? 127.5 : 255.0) / display.level : 1.0;
  const double offset = is_signed ? 127.5 : 0.0;
  for (size_t i = 0; i < values.size(); ++i) {
    const double value = is_signed ? double(values[i]) : std::fabs(double(values[i]));
    display.pixels[i] = to_byte(value * scale + offset);
  }
  return display;
}

}  // namespace convlab
