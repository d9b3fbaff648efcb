// A question asked of an experiment's results, answered on its page: in a query cell of the served
// page (convlab watch --serve), or placed by its discussion on a line of its own as
// {{query: --compare params.threads}}. A query is one of
//   an expression of the discussion's language, with its format   median_ms[...] / median_ms[...] |
//   x
//   --compare params.X [--against V] [--filter EXPR]               as `convlab show --compare`
//   --best [--by FIELD] [--filter EXPR]                            as `convlab show --best`
//   --vs IMPL [--by FIELD] [--filter EXPR]                         as `convlab show --vs`
// The first is a value, the others a table, as `convlab show` writes its Markdown (four
// significant digits). The page's query cell becomes a computed value ({{ expression | format }})
// or this placement in the discussion with one click.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "notebook/value_references.hpp"
#include "query/results_document.hpp"
#include "tables/flat_table.hpp"

namespace convlab {

struct QueryCell {
  std::string query;             // as written, trimmed
  std::string title;             // a table: what it compares; a value: the expression
  std::string value;             // a value, formatted as the discussion would show it
  std::optional<double> number;  // the value before its format; none for a text value
  FlatTable table;               // a comparison: its columns and rows, as text
  // Per row, per column: the cell set in bold (the fastest of --best), which show's Markdown
  // writes as **text** and the table here holds without the asterisks.
  std::vector<std::vector<bool>> strong;
  // What show writes around the table: the parts equal in every row, the legend of its marks.
  std::vector<std::string> notes;
  bool is_table() const { return !table.columns.empty(); }
};

// The query evaluated on `results` (the latest ok points, the derived columns of `context`).
// Throws ResultsError "FILE:LINE: {{query}}: why", as a discussion's values do: an unknown field,
// option or function (with the closest name), a filter that selects no point, an expression that
// needs one point and gets several, a query that is empty or over kMaxQueryBytes.
QueryCell query_cell(const std::string& query, const ResultsDocument& results,
                     const ValueContext& context, const std::string& file, int line);

// What a discussion writes to hold this query: {{ expression }} for a value (a computed value, in
// a sentence), {{query: --compare ...}} for a table (a placed cell, on a line of its own).
std::string discussion_text_of(const QueryCell& cell);

// Whether the cell at `row`, `column` of a comparison is set in bold; false outside the table.
inline bool is_strong(const QueryCell& cell, std::size_t row, std::size_t column) {
  return row < cell.strong.size() && column < cell.strong[row].size() && cell.strong[row][column];
}

inline constexpr std::size_t kMaxQueryBytes = 4096;

}  // namespace convlab
