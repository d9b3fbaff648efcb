// The HTML of a kernel source cell (notebook.hpp SourceCell): the file as the config names it, its
// hash, language and implementations, and the text as the run compiled it, highlighted
// (cpp_highlight.hpp), with a copy button.
#pragma once

#include <string>

#include "notebook/notebook.hpp"

namespace convlab {

// `index`: the source's position on the page, for unique ids.
std::string source_cell_html(const SourceCell& source, size_t index);

}  // namespace convlab
