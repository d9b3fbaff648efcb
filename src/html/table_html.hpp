// Tables of a notebook page: a table cell's grid and the verification per implementation, each
// sortable by any column (a header is a button; cells carry their full-precision value in
// data-sort) and filterable by text, numbers with their unit.
#pragma once

#include <string>

#include "notebook/notebook.hpp"

namespace convlab {

// `index`: the table's position on the page, for unique ids.
std::string table_html(const TableCell& table, size_t index);
std::string verification_html(const VerificationCell& verification);

// The unit in a label's brackets ("Median time [ms]" -> "ms"), empty when none.
std::string label_unit(const std::string& label);

}  // namespace convlab
