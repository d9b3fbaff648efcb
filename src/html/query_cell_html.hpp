// A query cell as HTML (notebook/query_cell.hpp): a value with its query, or a comparison as a
// sortable table with its query above it.
#pragma once

#include <cstddef>
#include <string>

#include "notebook/notebook.hpp"

namespace convlab {

std::string query_cell_html(const QueryCell& cell, std::size_t index);

}  // namespace convlab
