// The images: section (docs/config.md, "Images"): sets of generated images and sets of image
// files, each image checked against the memory budget (its header read before it is decoded) and
// the count of images, their names kept unique.
#pragma once

#include <cstdint>
#include <vector>

#include "config/yaml_read.hpp"
#include "images/image_spec.hpp"

namespace convlab {

std::vector<ImageSpec> parse_images(const YAML::Node& node, const YamlLocation& where);

// Bytes one point of this image needs at most (input, output, reference, CPU scratch).
std::uint64_t bytes_needed_for_image(int width, int height, int channels);

}  // namespace convlab
