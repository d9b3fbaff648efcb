#include "html/query_cell_html.hpp"

#include "html/html_text.hpp"

namespace convlab {

std::string query_cell_html(const QueryCell& cell, std::size_t index) {
  std::string out = "<p class=\"meta\">query <code class=\"query-text\">" +
                    html_escape(cell.query) + "</code></p>\n";
  if (!cell.is_table())
    return out + "<p class=\"query-value\">" + html_escape(cell.value) + "</p>\n";
  const std::string id = "query-table-" + std::to_string(index + 1);
  out += "<figure class=\"table\"><figcaption>" + html_escape(cell.title) + "</figcaption>\n";
  out +=
      "<div class=\"table-scroll\"><table class=\"sortable data\" id=\"" + id + "\">\n<thead><tr>";
  for (const std::string& column : cell.table.columns)
    out += "<th scope=\"col\" aria-sort=\"none\"><button type=\"button\" class=\"sort\">" +
           html_escape(column) + "</button></th>";
  out += "</tr></thead>\n<tbody>\n";
  for (size_t r = 0; r < cell.table.rows.size(); ++r) {
    out += "<tr>";
    for (size_t c = 0; c < cell.table.rows[r].size(); ++c) {
      const std::string value = html_escape(cell.table.rows[r][c]);
      out += is_strong(cell, r, c) ? "<td><strong>" + value + "</strong></td>"
                                   : "<td>" + value + "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table></div>\n";
  for (const std::string& note : cell.notes) out += "<p class=\"hint\">" + html_escape(note) + "</p>\n";
  return out + "</figure>\n";
}

}  // namespace convlab
