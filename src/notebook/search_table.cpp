#include "notebook/search_table.hpp"

#include "query/search_outcomes.hpp"

namespace convlab {
namespace {

const std::vector<std::string> kColumns{
    "variants measured",     "best [ms]",       "found at step",  "compiling [s]",
    "measuring [s]",         "search time [s]", "grid best [ms]", "found / grid",
    "share of the grid [%]", "grid variants"};

std::string row_label(const SearchOutcome& outcome) {
  std::string label = outcome.implementation + ", " + outcome.strategy + " seed " +
                      std::to_string(outcome.seed) + " | " + outcome.problem;
  if (outcome.best_ms && outcome.best_params.is_object())
    label += " | best " + params_words(outcome.best_params);
  return label;
}

std::vector<std::optional<Cell>> row_cells(const SearchOutcome& o) {
  const auto value = [](double v) { return std::optional<Cell>(Cell{v, {}, {}, nullptr}); };
  std::vector<std::optional<Cell>> cells(kColumns.size());
  cells[0] = value(o.measured);
  if (o.best_ms) {
    cells[1] = value(*o.best_ms);
    cells[2] = value(o.best_step);
  }
  if (o.compile_s) cells[3] = value(*o.compile_s);
  if (o.measure_s) cells[4] = value(*o.measure_s);
  if (o.elapsed_s) cells[5] = value(*o.elapsed_s);
  if (o.grid_best_ms && o.grid_variants > 0) {
    cells[6] = value(*o.grid_best_ms);
    if (o.best_ms) cells[7] = value(*o.best_ms / *o.grid_best_ms);
    cells[8] = value(100.0 * o.measured / double(o.grid_variants));
    cells[9] = value(double(o.grid_variants));
  }
  return cells;
}

}  // namespace

std::optional<TableCell> search_table_cell(const std::vector<Record>& records) {
  const std::vector<SearchOutcome> outcomes = search_outcomes(records);
  if (outcomes.empty()) return std::nullopt;
  TableCell table;
  TableData& data = table.data;
  data.declaration.name = "searches";
  data.declaration.title = "What each search found, against the full grid where one ran here";
  data.declaration.digits = 4;
  data.row_header = "search | problem";
  data.column_header = "the search's variants and best, the grid's best and share measured";
  data.value_label =
      "kernel time medians in ms; seconds compiling (its variants, in parallel ahead of their "
      "measurements) and measuring, and the search's time (the compiles it waited for and its "
      "measurements); found / grid: the search's best over the grid's";
  for (const std::string& column : kColumns) data.grid.columns.push_back(text_category(column));
  data.count_columns = {true, false, true, false, false, false, false, false, false, true};
  for (const SearchOutcome& outcome : outcomes) {
    data.grid.rows.push_back(text_category(row_label(outcome)));
    data.grid.cells.push_back(row_cells(outcome));
  }
  table.caption = data.declaration.title + ".";
  return table;
}

}  // namespace convlab
