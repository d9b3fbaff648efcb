#include "notebook/search_table.hpp"

#include "query/search_outcomes.hpp"

namespace convlab {
namespace {

const std::vector<std::string> kColumns{
    "variants measured",     "best [ms]",    "found at step", "grid best [ms]", "found / grid",
    "share of the grid [%]", "grid variants"};

Category text_category(const std::string& label) {
  Category category;
  category.key = {label};
  category.label = label;
  category.tic = label;
  return category;
}

// "A=3, B=2": the params of the search's best variant.
std::string params_text(const nlohmann::json& params) {
  std::string text;
  for (const auto& [name, value] : params.items())
    text += (text.empty() ? "" : ", ") + name + "=" +
            (value.is_string() ? value.get<std::string>() : value.dump());
  return text;
}

std::string row_label(const SearchOutcome& outcome) {
  std::string label = outcome.implementation + ", " + outcome.strategy + " seed " +
                      std::to_string(outcome.seed) + " | " + outcome.problem;
  if (outcome.best_ms && outcome.best_params.is_object())
    label += " | best " + params_text(outcome.best_params);
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
  if (o.grid_best_ms && o.grid_variants > 0) {
    cells[3] = value(*o.grid_best_ms);
    if (o.best_ms) cells[4] = value(*o.best_ms / *o.grid_best_ms);
    cells[5] = value(100.0 * o.measured / double(o.grid_variants));
    cells[6] = value(double(o.grid_variants));
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
  data.value_label = "kernel time medians in ms; found / grid: the search's best over the grid's";
  for (const std::string& column : kColumns) data.grid.columns.push_back(text_category(column));
  data.count_columns = {true, false, true, false, false, false, true};
  for (const SearchOutcome& outcome : outcomes) {
    data.grid.rows.push_back(text_category(row_label(outcome)));
    data.grid.cells.push_back(row_cells(outcome));
  }
  table.caption = data.declaration.title + ".";
  return table;
}

}  // namespace convlab
