#include "report/query_cell_latex.hpp"

#include "report/latex_writer.hpp"

namespace convlab {

std::string query_cell_latex(const QueryCell& cell) {
  if (!cell.is_table())
    return "\\par\\noindent " + latex_text(cell.value) + " \\hfill{\\footnotesize\\texttt{" +
           latex_text(cell.query) + "}}\\par\n";
  std::string out =
      "\\par\\medskip\\noindent\\begin{minipage}{\\linewidth}\\centering\\footnotesize\n";
  out += "\\captionof{table}{" + latex_text(cell.title) + " (\\texttt{" + latex_text(cell.query) +
         "})}\n\\resizebox{\\linewidth}{!}{\\begin{tabular}{" +
         std::string(cell.table.columns.size(), 'l') + "}\n\\toprule\n";
  const auto row_latex = [](const std::vector<std::string>& values) {
    std::string row;
    for (size_t i = 0; i < values.size(); ++i) row += (i ? " & " : "") + latex_text(values[i]);
    return row + " \\\\\n";
  };
  out += row_latex(cell.table.columns) + "\\midrule\n";
  for (const auto& row : cell.table.rows) out += row_latex(row);
  return out + "\\bottomrule\n\\end{tabular}}\n\\end{minipage}\\par\\medskip\n";
}

}  // namespace convlab
