// The gallery cell of an experiment run with save_outputs: one group per photograph, its input and
// every filter applied to it, with the words under each picture and the caption: which
// implementation's saved output each picture is, why another stands in where the config's could
// not be shown, how many implementations produced the same bytes, and how the values were mapped
// to grey levels. Captions are rich text (words and math), for any renderer.
#pragma once

#include <string>
#include <vector>

#include "notebook/notebook.hpp"
#include "query/results_document.hpp"

namespace convlab {

// Empty groups when the results hold no gallery. Paths are the files in the results folder.
GalleryCell gallery_cell(const ResultsDocument& results);

// The implementation most pictures of a photograph show ("" when all are drawn from the
// reference).
std::string gallery_main_implementation(const std::vector<GalleryPicture>& pictures);

}  // namespace convlab
