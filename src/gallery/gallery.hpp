// The report's gallery (configs with save_outputs: true): for every (image, kernel, border), a
// display picture drawn from one implementation's saved point output (store/point_outputs.hpp,
// chosen by gallery/gallery_select.hpp, mapped by gallery/gallery_render.hpp) as a print JPEG,
//   gallery/<image>__<kernel>__<border>.jpg
// kept with results.json (images/ is not kept: the pictures must be there when the outputs are
// not), and the input photograph as images/<image>__input.png, rebuilt from its source. Each entry
// of results.json's "gallery" names its picture, the output it was drawn from (implementation,
// output type, point key, sha256), the mapping and how many implementations produced the same
// bytes. Entries of earlier versions have no source: their pictures were drawn from the reference.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/filter.hpp"
#include "core/image.hpp"
#include "core/types.hpp"
#include "store/record.hpp"
#include "store/results_file.hpp"

namespace convlab {

// The display picture of a gallery entry ("display"; "output" in results of earlier versions).
std::string gallery_display_path(const nlohmann::json& entry);

struct GalleryItem {
  std::string image;  // the image's name
  Filter filter;
  Border border = Border::reflect;
};

struct GalleryPlan {
  std::vector<std::string> implementation_order;  // the config's
  std::string implementation;                     // gallery.implementation
  std::vector<GalleryItem> items;
};

// The input picture, written once per image when missing. Throws FileError when it cannot be
// written or something other than a regular file stands in its place.
void write_gallery_input(const std::string& out_dir, const Image& image,
                         const std::string& image_name);

// Chooses the output shown for every item and draws its picture; returns the entries, which
// replace those of the same image, kernel and border. An item with no usable output keeps its
// earlier entry when that entry's picture is there; otherwise it is left out and `warnings` says
// why. A picture that cannot be written is a FileError (core/file_io.hpp).
std::vector<nlohmann::json> build_gallery(const std::vector<Record>& records,
                                          const std::string& out_dir, const GalleryPlan& plan,
                                          const std::vector<nlohmann::json>& earlier,
                                          std::vector<std::string>& warnings);

struct GalleryRestore {
  int written = 0;         // pictures written
  int from_reference = 0;  // of which entries of earlier versions, drawn from the reference
  std::vector<std::string> warnings;
};

// Writes the gallery pictures of a results folder again: a display picture when its source output
// file is there and newer than it or the picture is missing; an input when missing. Throws
// ResultsFileError naming the file when a picture and the output it is drawn from are both missing
// (or the output no longer holds the bytes the entry names), or an input's source is gone; throws
// FileError (core/file_io.hpp) when a picture cannot be written or something other than a regular
// file stands in its place.
GalleryRestore restore_gallery_images(const std::string& out_dir);

}  // namespace convlab
