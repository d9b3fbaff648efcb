#include "html/table_html.hpp"

#include <cmath>

#include "core/number_text.hpp"
#include "figures/plot_style.hpp"
#include "html/html_text.hpp"

namespace convlab {
namespace {

std::string header_cell(const std::string& label, bool numeric) {
  return std::string("<th scope=\"col\" aria-sort=\"none\"") + (numeric ? " class=\"num\"" : "") +
         "><button type=\"button\" class=\"sort\">" + html_escape(label) + "</button></th>";
}

std::string filter_box(const std::string& table_id, const std::string& what) {
  return "<div class=\"table-tools\"><input type=\"search\" class=\"table-filter\" "
         "data-table=\"" +
         table_id + "\" placeholder=\"Filter " + what +
         "\" aria-label=\"Filter the rows of this table\" /></div>\n";
}

std::string number_cell(double value, const std::string& text, const std::string& unit) {
  return "<td class=\"num\" data-sort=\"" + format_exact(value) + "\">" + html_escape(text) +
         (unit.empty() ? "" : "<span class=\"unit\">&#160;" + html_escape(unit) + "</span>") +
         "</td>";
}

}  // namespace

std::string label_unit(const std::string& label) {
  const size_t open = label.rfind('[');
  const size_t close = label.rfind(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  const std::string unit = label.substr(open + 1, close - open - 1);
  return unit == "x" ? "\xC3\x97" : unit;
}

std::string table_html(const TableCell& table, size_t index) {
  const TableData& data = table.data;
  const Grid& grid = data.grid;
  const std::string id = "table-" + std::to_string(index + 1);
  const std::string unit = label_unit(data.value_label);
  const bool bare_columns = data.declaration.columns.size() == 1 &&
                            data.declaration.columns.front().rfind("params.", 0) == 0;
  std::string out = "<figure class=\"table\" id=\"table-" + html_id(data.declaration.name) +
                    "\">\n<figcaption><span class=\"figure-number\">Table " +
                    std::to_string(index + 1) + ".</span> " + html_escape(table.caption) +
                    " <span class=\"hint\">" + html_escape(data.value_label) +
                    "; columns: " + html_escape(data.column_header) + ".</span></figcaption>\n";
  out += filter_box(id, "rows");
  out +=
      "<div class=\"table-scroll\"><table class=\"sortable data\" id=\"" + id + "\">\n<thead><tr>";
  out += header_cell(data.row_header, false);
  for (const auto& column : grid.columns)
    out += header_cell(plot_text(bare_columns ? tic_of(column) : column.label), true);
  out += "</tr></thead>\n<tbody>\n";
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    // The points of the row, which a served page measures again on request.
    std::string points;
    for (const auto& cell : grid.cells[r])
      if (cell && !cell->point_id.empty()) points += (points.empty() ? "" : " ") + cell->point_id;
    out += "<tr" +
           (points.empty() ? std::string() : " data-points=\"" + html_escape(points) + "\"") +
           "><th scope=\"row\" data-sort=\"" + std::to_string(r) + "\">" +
           html_escape(plot_text(grid.rows[r].label)) + "</th>";
    for (size_t c = 0; c < grid.cells[r].size(); ++c) {
      const auto& cell = grid.cells[r][c];
      if (!cell) {
        out += "<td class=\"num empty\" data-sort=\"\">&#8211;</td>";
        continue;
      }
      const std::string& column_unit =
          c < data.column_units.size() && data.column_units[c] ? *data.column_units[c] : unit;
      out += number_cell(cell->value, data.cell_text(c, *cell),
                         cell->words.empty() ? column_unit : "");
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table></div>\n</figure>\n";
  return out;
}

std::string verification_html(const VerificationCell& verification) {
  const VerificationSummary& v = verification.summary;
  std::string out = "<p class=\"summary-line\"><strong>" + std::to_string(v.ok) + "</strong> " +
                    (v.ok == 1 ? "point" : "points") + " ok, <strong>" + std::to_string(v.skipped) +
                    "</strong> skipped, <strong" + (v.failed ? " class=\"bad\"" : "") + ">" +
                    std::to_string(v.failed) + "</strong> failed";
  if (v.has_worst)
    out += "; largest error " + html_escape(format_number(v.worst_abs_error, 3)) + " (tolerance " +
           html_escape(format_number(v.worst_tolerance, 3)) + ") at " + html_escape(v.worst_point);
  out +=
      ". Every output is compared value by value with an independent double-precision "
      "reference before its time is recorded.</p>\n";
  for (const auto& failure : v.failures)
    out += "<p class=\"flag\">Failed: " + html_escape(failure) + "</p>\n";
  out += filter_box("verification-table", "implementations");
  out +=
      "<div class=\"table-scroll\"><table class=\"sortable data\" id=\"verification-table\">\n"
      "<thead><tr>";
  out += header_cell("Implementation", false) + header_cell("Ok", true) +
         header_cell("Skipped", true) + header_cell("Failed", true) +
         header_cell("Largest error", true) + header_cell("Tolerance", true) +
         header_cell("u8 values not exact", true) + header_cell("In points", true);
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : verification.implementations) {
    out += "<tr><th scope=\"row\" data-sort=\"" + html_escape(row.implementation) + "\"><code>" +
           html_escape(row.implementation) + "</code></th>";
    for (size_t count : {row.ok, row.skipped, row.failed})
      out += number_cell(static_cast<double>(count), std::to_string(count), "");
    if (row.has_error) {
      out += number_cell(row.max_abs_error, format_number(row.max_abs_error, 3), "");
      out += number_cell(row.tolerance, format_number(row.tolerance, 3), "");
    } else {
      out +=
          "<td class=\"num empty\" data-sort=\"\">&#8211;</td><td class=\"num empty\" "
          "data-sort=\"\">&#8211;</td>";
    }
    if (row.exactness_counted) {
      // A count of values: 269, not 269.000.
      out +=
          number_cell(row.values_not_exact, format_fixed(std::round(row.values_not_exact), 0), "");
      out += number_cell(static_cast<double>(row.points_not_exact),
                         std::to_string(row.points_not_exact), "");
    } else {
      out +=
          "<td class=\"num empty\" data-sort=\"\">not counted</td><td class=\"num empty\" "
          "data-sort=\"\">&#8211;</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table></div>\n";
  if (!v.skip_reasons.empty()) {
    out += "<details class=\"reasons\"><summary>Why points were skipped</summary><ul>";
    for (const auto& reason : v.skip_reasons) out += "<li>" + html_escape(reason) + "</li>";
    out += "</ul></details>\n";
  }
  return out;
}

}  // namespace convlab
