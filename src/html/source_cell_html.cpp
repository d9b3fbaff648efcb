#include "html/source_cell_html.hpp"

#include "html/cpp_highlight.hpp"
#include "html/html_text.hpp"
#include "html/page_frame.hpp"

namespace convlab {

std::string source_cell_html(const SourceCell& source, size_t index) {
  const std::string text_id = "source-text-" + std::to_string(index + 1);
  std::string out = "<p class=\"meta\"><code>" + html_escape(source.path) +
                    "</code> &#183; sha256 <code>" + html_escape(source.sha256.substr(0, 12)) +
                    "</code>";
  if (!source.language.empty()) out += " &#183; " + html_escape(source.language);
  for (size_t i = 0; i < source.implementations.size(); ++i)
    out += std::string(i == 0 ? " &#183; implementation " : ", ") + "<code>" +
           html_escape(source.implementations[i]) + "</code>";
  out += "</p>\n<p class=\"hint\">The text the run compiled, as results.json keeps it.</p>\n";
  if (!source.other_versions.empty())
    out += "<p class=\"hint\">" + html_escape(source.other_versions) + "</p>\n";
  out += "<div class=\"code-block\">" + copy_button(text_id, "the source") +
         "<pre class=\"source\"><code id=\"" + text_id + "\">" + cpp_html(source.text) +
         "</code></pre></div>\n";
  return out;
}

}  // namespace convlab
