#include "report/source_listing.hpp"

#include "report/latex_markdown.hpp"
#include "report/latex_writer.hpp"

namespace convlab {
namespace {

// One line of code as LaTeX: spaces kept, TeX specials escaped, anything but printable ASCII
// replaced. A line after \\ that starts with [ or * would be read as that command's argument or
// star: an empty group goes first.
std::string code_line(const std::string& line) {
  std::string out = !line.empty() && (line[0] == '[' || line[0] == '*') ? "{}" : "";
  size_t column = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if (c == '\t') {
      do out += "\\ ";
      while (++column % 8 != 0);
      continue;
    }
    if (c == '\r') continue;
    if (c >= 0x80) {
      while (i + 1 < line.size() && (static_cast<unsigned char>(line[i + 1]) & 0xC0) == 0x80) ++i;
      out += '?';
    } else if (c < 0x20 || c == 0x7F) {
      out += '?';
    } else if (c == ' ') {
      out += "\\ ";
    } else {
      append_latex_escaped(static_cast<char>(c), out);
    }
    ++column;
  }
  return out.empty() ? "\\mbox{}" : out;
}

// A listing is not parted by a figure or table: the floats waiting before it are set first
// (\FloatBarrier), one that fits a page is a box that cannot break, and a longer one breaks only
// at page ends, with no float put at the top of the page it ends on (\suppressfloats[t]), where a
// table written after it would otherwise land above its last lines.
std::string listing(const std::string& text) {
  std::string lines;
  size_t line_count = 0, start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (line_count < kMaxListedLines)
      lines += (line_count ? "\\\\\n" : "") + code_line(text.substr(start, end - start));
    ++line_count;
    start = end + 1;
  }
  if (line_count == 0) lines += "\\mbox{}";
  const bool kept_together = line_count <= kLinesKeptTogether;
  std::string out = "\\FloatBarrier\n";
  out += kept_together ? "\\par\\noindent\\begin{minipage}{\\linewidth}\n" : "";
  out += "\\begin{flushleft}\\scriptsize\\ttfamily\n" + lines + "\n\\end{flushleft}\n";
  out += kept_together ? "\\end{minipage}\\par\n" : "\\suppressfloats[t]\n";
  if (line_count > kMaxListedLines)
    out += "\\noindent\\convlabnote{" + std::to_string(line_count - kMaxListedLines) +
           " more lines, in results.json and the notebook.}\\par\n";
  return out;
}

}  // namespace

std::string source_latex(const SourceCell& source) {
  std::string out = "\\noindent\\texttt{" + latex_text(source.path) + "} (sha256 \\texttt{" +
                    latex_text(source.sha256.substr(0, 12)) + "}";
  if (!source.language.empty()) out += ", " + latex_text(source.language);
  for (size_t i = 0; i < source.implementations.size(); ++i)
    out += std::string(i == 0 ? ", implementation " : ", ") + "\\texttt{" +
           latex_text(source.implementations[i]) + "}";
  out += ")\\par\n";
  if (!source.other_versions.empty())
    out += "\\noindent\\convlabnote{" + latex_text(source.other_versions) + "}\\par\n";
  return out + listing(source.text);
}

std::string config_latex(const ConfigCell& config) {
  std::string out;
  if (!config.path.empty())
    out = "\\texttt{" + latex_text(config.path) + "} (sha256 \\texttt{" +
          latex_text(config.sha256.substr(0, 12)) + "})";
  return out + "\\par\n" + listing(config.text);
}

}  // namespace convlab
