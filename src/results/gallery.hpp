// Input and display images as PNG for the report's gallery (configs with save_outputs: true):
// images/<image>__input.png and images/display/<image>__<kernel>__<border>.png, listed in
// results.json's "gallery". They are pictures for a reader, not any implementation's output (those
// are results/point_outputs.hpp): made from the reference computation, which every verified point
// agrees with, and shown so that the effect is visible: derivative filters (Prewitt, Sobel) as their
// signed response around mid-grey (x and y differ), other zero-sum filters (Laplacian, LoG, DoG, edge)
// as |response| stretched to 0..255 (both stretches put full range at the 99.5th percentile of
// |response|), all others rounded and clamped like u8 output.
#pragma once

#include <string>

#include "core/filter.hpp"
#include "core/image.hpp"
#include "core/types.hpp"
#include "results/results_file.hpp"

namespace convlab {

// The display image of a gallery entry ("display"; "output" in results of earlier versions).
std::string gallery_display_path(const nlohmann::json& entry);

void add_gallery_entry(ResultsFile& results, const std::string& out_dir, const Image& image,
                       const std::string& image_name, const Filter& filter, Border border);

// Writes the gallery images of a results folder that are missing (they are generated files, not
// kept with the results), rebuilding inputs and kernels from the resolved config recorded in
// results.json. Returns the number written; throws ResultsFileError when an image source is gone.
int restore_gallery_images(const std::string& out_dir);

}  // namespace convlab
