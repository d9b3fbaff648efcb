// The gallery's display picture of one saved point output, so that a reader sees its effect:
// derivative filters (Prewitt, Sobel) signed around mid-grey from the f32 output (darker where
// brightness falls along the kernel's axis, lighter where it rises, so x and y differ), the other
// zero-sum filters (edge, Laplacian, LoG, DoG, zero-sum custom kernels) as their magnitude from the
// f32 output, both stretched so that the 99.5th percentile of |value| reaches full range (a few
// extreme values would otherwise leave the picture nearly black or grey; the rest saturate); all
// other filters straight from the u8 output, byte for byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/filter.hpp"

namespace convlab {

enum class GalleryMapping { straight, signed_stretch, magnitude_stretch };

std::string to_string(GalleryMapping mapping);
std::optional<GalleryMapping> parse_gallery_mapping(const std::string& text);

// How a filter's output is shown, and so which output type it is drawn from (f32 for the two
// stretched mappings, u8 for straight).
GalleryMapping gallery_mapping_for(const Filter& filter);

struct DisplayPixels {
  std::vector<std::uint8_t> pixels;
  double level = 0.0;  // |value| shown at full range (stretched mappings), 0 for straight
};

// u8 output: straight is the output itself. f32 output: the stretched mappings, or straight
// (rounded to nearest and clamped to 0..255, as u8 output would be) when no u8 output exists.
DisplayPixels display_from_u8(const std::vector<std::uint8_t>& values);
DisplayPixels display_from_f32(const std::vector<float>& values, GalleryMapping mapping);

}  // namespace convlab
