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
  const auto row_latex = [&](const std::vector<std::string>& values, size_t row) {
    std::string line;
    for (size_t i = 0; i < values.size(); ++i) {
      const std::string text = latex_text(values[i]);
      line += (i ? " & " : "") + (is_strong(cell, row, i) ? "\\textbf{" + text + "}" : text);
    }
    return line + " \\\\\n";
  };
  out += row_latex(cell.table.columns, cell.table.rows.size()) + "\\midrule\n";
  for (size_t r = 0; r < cell.table.rows.size(); ++r) out += row_latex(cell.table.rows[r], r);
  out += "\\bottomrule\n\\end{tabular}}\n";
  for (const std::string& note : cell.notes) out += "\\par\\raggedright " + latex_text(note) + "\n";
  return out + "\\end{minipage}\\par\\medskip\n";
}

}  // namespace convlab
