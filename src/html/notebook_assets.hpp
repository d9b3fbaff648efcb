// The notebook's own script and style (src/html/assets/), built into convlab
// (cmake/embed_assets.cmake), so that pages can be written anywhere without the source tree.
#pragma once

#include <string_view>
#include <vector>

namespace convlab {

struct NotebookAsset {
  std::string_view name;  // notebook.js, notebook.css
  std::string_view content;
};

const std::vector<NotebookAsset>& notebook_assets();

}  // namespace convlab
