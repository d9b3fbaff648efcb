// Data extraction for figures and tables: which records count, and the grid of values a figure
// panel or a table shows. Writers (TSV, gnuplot, LaTeX) only format what is built here.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "figures/declarations.hpp"
#include "query/record_queries.hpp"
#include "store/record.hpp"

namespace convlab {

struct Category {
  std::vector<std::string> key;  // the values of the grouping fields
  std::string label;             // in words, for legends and headers
  std::string tic;               // short form for axis tics: "16" where the axis says "Block x"
  bool numeric = false;          // a single numeric field: position on a numeric axis
  double number = 0.0;
  // The implementation the category stands for, when its fields name one (implementation or
  // configuration): it gives a line or bar that implementation's fixed colour in every figure.
  std::string implementation;
};

// A category that is its label alone (key, label and tic): a row or column of a table of words.
Category text_category(const std::string& label);

struct Cell {
  double value = 0.0;
  std::optional<double> low;  // q1 / q3 when error bars were asked for
  std::optional<double> high;
  const Record* record = nullptr;  // the point shown (the first one when reduced)
  // A table cell read as words rather than a number (a ratio with its verdict); `value` still
  // sorts it.
  std::string words{};
  // That record's point id, kept by value: a table is written after the document its records
  // belong to may be gone (a page made again from the notebook alone).
  std::string point_id{};
};

struct Grid {
  std::vector<Category> rows;
  std::vector<Category> columns;
  std::vector<std::vector<std::optional<Cell>>> cells;  // [row][column]
  // The images whose points a cell reduced into one (reduce: min, max or mean over points of
  // several images, which the grid does not tell apart), in the order they were met; empty when
  // no cell did.
  std::vector<std::string> merged_images;
  bool empty() const;
  // Whether row `row` has a value in some column: every panel has the same rows, and a series
  // without points in a panel (a Gaussian-only peer in the box kernel's panel) is not drawn there.
  bool row_has_values(size_t row) const;
};

// A reference line over a panel: an overlay the declaration asks for (the hardware floor), or the
// ideal-scaling line of a speedup or efficiency figure against threads. One value per grid column.
struct OverlayLine {
  std::string label;
  std::vector<std::optional<double>> values;
  bool ideal = false;
};

struct FigurePanel {
  std::string title;  // empty for a figure without panels
  Grid grid;          // rows: series (line, bars), stack parts (stacked), y values (heatmap)
  std::vector<OverlayLine> overlays;  // same labels, in the same order, in every panel
};

struct FigureData {
  FigureDeclaration declaration;
  std::vector<FigurePanel> panels;  // every panel has the same rows, so one legend serves all
  bool numeric_x = false;           // x positions are the values themselves, not category indices
  bool log_x = false;               // as declared; image sizes always lie on a logarithmic axis
  bool log_y = false;
  std::string x_label;
  std::string y_label;
  std::string value_label;                 // heatmap colour bar
  std::vector<std::string> merged_images;  // of every panel (Grid::merged_images)
};

struct TableData {
  TableDeclaration declaration;
  Grid grid;
  std::string row_header;
  std::string column_header;
  std::string value_label;
  // Columns of counts, written as whole numbers ("6", not "6.000"); empty: none.
  std::vector<bool> count_columns;
  // The unit of a column's values where the columns measure different things ("%", "" for a
  // count); a column without one has the value label's.
  std::vector<std::optional<std::string>> column_units;
  // A value of column `column` as the table writes it: the declaration's significant digits, or
  // a whole number in a column of counts.
  std::string value_text(size_t column, double value) const;
  // A cell as the table writes it: its words when it has them, else its value_text.
  std::string cell_text(size_t column, const Cell& cell) const;
};

// A row of points chosen apart from the row fields, drawn first under its label (the fastest
// point per x of a figure with best:, fastest_series.hpp). Its points fall on one cell each.
struct LeadRow {
  std::string label;
  std::vector<const Record*> records;
};

// Whether a grid's row is a LeadRow: its label is its own, never rebuilt from its points' fields.
bool is_lead_row(const Category& row);

// The grid of `value_fields` against `column_fields`: one row per value field (the parts of a
// stacked bar) when there are several or no row fields, else one row per value combination of
// `row_fields`, after `lead` when there is one (with a single value field and row fields). Cells
// with several points are reduced as `reduce` says (single: an error naming how they differ).
// Figure types build their panels with it.
Grid value_grid(const std::vector<const Record*>& records,
                const std::vector<std::string>& row_fields,
                const std::vector<std::string>& value_fields,
                const std::vector<std::string>& column_fields, bool quartiles, CellReduce reduce,
                const std::string& context, const LeadRow* lead = nullptr);

// What a caption or a warning says of images reduced together: "Each point is the min over 3
// images (a, b and c), which it does not tell apart." `what`: "point" or "cell". Empty when
// `images` is.
std::string merged_images_words(const std::vector<std::string>& images, CellReduce reduce,
                                const std::string& what);
// The same for a figure's points: "the fastest" where best: chose among points of several images
// and no reduce is declared.
std::string merged_images_words(const FigureData& figure);

// `context` names the declaration in errors, e.g. "results.json: figure 'time-by-size'".
FigureData extract_figure(const FigureDeclaration& declaration,
                          const std::vector<const Record*>& points, const std::string& context);
TableData extract_table(const TableDeclaration& declaration,
                        const std::vector<const Record*>& points, const std::string& context);

}  // namespace convlab
