// A query cell placed by a discussion (notebook/query_cell.hpp) in the report: a comparison as a
// table where the prose places it, its query as its caption.
#pragma once

#include <string>

#include "notebook/notebook.hpp"

namespace convlab {

std::string query_cell_latex(const QueryCell& cell);

}  // namespace convlab
