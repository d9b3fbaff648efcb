// The words under the gallery's pictures of one photograph: which implementation's saved output
// each picture is, why another one stands in where the config's could not be shown, how many
// implementations produced the same bytes, and how the values were mapped to grey levels.
#pragma once

#include <string>
#include <vector>

#include "report/latex_writer.hpp"

namespace convlab {

// The implementation most pictures of the photograph show ("" when all are drawn from the
// reference).
std::string gallery_main_implementation(const std::vector<GalleryImage>& items);

// A picture's label: its kernel, how it is mapped when stretched, and its implementation when
// that is not the main one (LaTeX).
std::string gallery_cell_label(const GalleryImage& item, const std::string& main_implementation);

// The figure's caption for one photograph's pictures, all of one border (LaTeX).
std::string gallery_caption(const std::vector<GalleryImage>& items);

}  // namespace convlab
