// Writers for what gnuplot reads: tab-separated data (one header row of column names, then data
// at full precision) and the script that renders a figure to PDF and PNG.
#pragma once

#include <string>
#include <vector>

#include "figures/figure_data.hpp"

namespace convlab {

// Data of one panel. Line, bars, stacked: columns x, x_label, then per grid row its value (and
// q1, q3 with error bars). Heatmap: x_index, y_index, value, x_label, y_label, value_text (the
// cell's printed number, empty where no point), one row per cell.
std::string figure_panel_tsv(const FigureData& figure, size_t panel);

// A table's grid: row label, then one column per grid column.
std::string table_tsv(const TableData& table);

struct GnuplotOutputs {
  std::vector<std::string> panel_data;  // TSV paths as the script should open them
  std::string pdf;
  std::string png;
};

std::string gnuplot_script(const FigureData& figure, const GnuplotOutputs& outputs);

}  // namespace convlab
