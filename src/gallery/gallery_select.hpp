// Which saved point output the gallery shows for one (image, kernel, border), and how many
// implementations produced exactly the same bytes. The config's gallery.implementation is shown
// when its point is ok and its output file is there; otherwise the next implementation in config
// order (wrapping around) whose point is, and the choice says why.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "store/record.hpp"

namespace convlab {

struct GallerySource {
  std::string implementation;
  nlohmann::json params = nlohmann::json::object();
  std::string output;  // u8 or f32
  std::string key;     // the point's record key
  std::string file;    // saved_output.file, relative to the results folder
  std::string sha256;  // saved_output.sha256: of the output values' bytes
};

// Per output type: of the points that ran (not skipped), how many saved an output byte-identical
// to the shown implementation's output of that type. A point with params counts as one.
struct IdenticalCount {
  std::string output;
  int identical = 0;
  int ran = 0;
};

struct GalleryQuery {
  std::string image;
  std::string kernel;
  std::string border;
  std::vector<std::string> outputs;  // output types to draw from, preferred first
  std::vector<std::string> implementation_order;
  std::string implementation;  // the config's choice
};

struct GalleryChoice {
  std::optional<GallerySource> source;  // empty when no implementation has a usable output
  std::string fallback;  // why the config's implementation is not shown; empty when it is
  std::vector<IdenticalCount> identical;
};

// `available` says whether a saved output file is there to draw from.
GalleryChoice choose_gallery_source(const std::vector<Record>& records, const GalleryQuery& query,
                                    const std::function<bool(const std::string&)>& available);

}  // namespace convlab
