#include "figures/versus_table.hpp"

#include <algorithm>

#include "core/number_text.hpp"
#include "query/record_fields.hpp"
#include "query/versus.hpp"

namespace convlab {
namespace {

// What the rows are named by: "problem" or the fields of their labels.
std::string row_header(const VersusTable& table) {
  if (table.rows.empty()) return "";
  std::string header;
  for (const auto& [field, value] : table.rows.front().labels)
    header += (header.empty() ? "" : ", ") + field_title(field);
  return header.empty() ? "problem" : header;
}

std::vector<std::optional<Cell>> row_cells(const VersusRow& row) {
  std::vector<std::optional<Cell>> cells;
  if (row.reference)
    cells.push_back(Cell{row.reference->median_ms(),
                         {},
                         {},
                         row.reference,
                         format_number(row.reference->median_ms(), 4) + " ms",
                         row.reference->point_id});
  else
    cells.emplace_back();
  for (const VersusCell& versus : row.cells) {
    if (!versus.point) {
      cells.emplace_back();
      continue;
    }
    cells.push_back(Cell{versus.ratio.value_or(0.0),
                         {},
                         {},
                         versus.point,
                         versus_cell_words(versus),
                         versus.point->point_id});
  }
  return cells;
}

}  // namespace

TableData versus_table_data(const TableDeclaration& declaration,
                            const std::vector<const Record*>& points, const std::string& context) {
  const bool present = std::any_of(points.begin(), points.end(), [&](const Record* record) {
    return record->usable() && record->implementation == declaration.vs;
  });
  if (!present)
    throw NoDataError(context + ": no ok point of '" + declaration.vs + "', the implementation " +
                      "its vs names");
  VersusOptions options;
  options.against = declaration.vs;
  if (!declaration.by.empty()) options.by = declaration.by;
  VersusTable table;
  try {
    table = compare_with_implementation(points, {}, options);
  } catch (const NoDataError&) {
    throw;
  } catch (const ResultsError& error) {
    throw NoDataError(context + ": " + error.what());
  }
  TableData data;
  data.declaration = declaration;
  data.row_header = row_header(table);
  data.column_header = "each implementation's fastest configuration against " + table.against;
  data.value_label = "ratio: " + versus_legend(table);
  if (!table.constant.empty()) {
    std::string same;
    for (const auto& [field, value] : table.constant) same += (same.empty() ? "" : ", ") + value;
    data.value_label += "; every row: " + same;
  }
  data.grid.columns.push_back(text_category(table.against + " median"));
  for (const auto& name : table.implementations) data.grid.columns.push_back(text_category(name));
  for (const VersusRow& row : table.rows) {
    data.grid.rows.push_back(text_category(versus_row_words(row)));
    data.grid.cells.push_back(row_cells(row));
  }
  return data;
}

}  // namespace convlab
