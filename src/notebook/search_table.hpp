// The notebook's table of what each search found (docs/search.md): one row per search (problem,
// implementation, strategy and seed), with the variants it measured, its best, the step it found
// it at and, where the same results hold the full grid of that implementation and problem, the
// grid's best, the found best as a ratio to it and the share of the grid the search measured. The
// same numbers as `convlab show --search`, as an ordinary table cell, so the HTML notebook and the
// LaTeX report both show it.
#pragma once

#include <optional>
#include <vector>

#include "notebook/notebook.hpp"
#include "store/record.hpp"

namespace convlab {

// Null when no record of `records` (a results file's, as `show --search` takes them) comes from a
// search.
std::optional<TableCell> search_table_cell(const std::vector<Record>& records);

}  // namespace convlab
