#include "report/latex_markdown.hpp"

#include <map>
#include <sstream>

#include "notebook/ties.hpp"
#include "report/latex_writer.hpp"

namespace convlab {
namespace {

// Characters beyond ASCII that prose uses, in LaTeX's spelling (pdfLaTeX with T1 fonts).
const std::map<std::string, std::string>& unicode_spellings() {
  static const std::map<std::string, std::string> spellings = {
      {"\xC2\xA0", "~"},               // no-break space
      {"\xC3\x97", "$\\times$"},       // ×
      {"\xE2\x80\x93", "--"},          // –
      {"\xE2\x80\x94", "---"},         // —
      {"\xE2\x80\x9C", "``"},          // “
      {"\xE2\x80\x9D", "''"},          // ”
      {"\xE2\x80\x98", "`"},           // ‘
      {"\xE2\x80\x99", "'"},           // ’
      {"\xE2\x89\xA5", "$\\ge$"},      // ≥
      {"\xE2\x89\xA4", "$\\le$"},      // ≤
      {"\xE2\x80\xA6", "\\dots{}"},    // …
      {"\xC2\xB5", "\\textmu{}"},      // µ
      {"\xE2\x88\x92", "$-$"},         // −
      {"\xE2\x89\x88", "$\\approx$"},  // ≈
  };
  return spellings;
}

// Code keeps its characters: no quotes or dashes are made of it.
std::string code_latex(std::string_view text) {
  std::string out;
  for (char c : text) append_latex_escaped(c, out);
  return out;
}

class LatexProse {
 public:
  explicit LatexProse(const std::vector<std::string>& values) : values_(values) {}

  void blocks(const std::vector<MarkdownBlock>& blocks) {
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (i) out_ << "\n";
      block(blocks[i]);
    }
  }
  std::string text() const { return out_.str(); }

 private:
  void block(const MarkdownBlock& b) {
    switch (b.kind) {
      case MarkdownBlock::Kind::paragraph:
        inlines(b.inlines);
        out_ << "\n";
        break;
      case MarkdownBlock::Kind::heading:
        out_ << (b.level <= 2 ? "\\subsubsection*{" : "\\paragraph{");
        inlines(b.inlines);
        out_ << "}\n";
        break;
      case MarkdownBlock::Kind::bullet_list:
      case MarkdownBlock::Kind::ordered_list: {
        const bool ordered = b.kind == MarkdownBlock::Kind::ordered_list;
        out_ << (ordered ? "\\begin{enumerate}\n" : "\\begin{itemize}\n");
        if (ordered && b.start != 1) out_ << "\\setcounter{enumi}{" << b.start - 1 << "}\n";
        for (const auto& item : b.children) {
          out_ << "\\item ";
          blocks(item.children);
        }
        out_ << (ordered ? "\\end{enumerate}\n" : "\\end{itemize}\n");
        break;
      }
      case MarkdownBlock::Kind::item:
        blocks(b.children);
        break;
      case MarkdownBlock::Kind::quote:
        out_ << "\\begin{quote}\n";
        blocks(b.children);
        out_ << "\\end{quote}\n";
        break;
      case MarkdownBlock::Kind::code:
        code_block(b.code);
        break;
      case MarkdownBlock::Kind::rule:
        out_ << "\\par\\noindent\\rule{\\linewidth}{0.4pt}\\par\n";
        break;
    }
  }

  // Line by line in typewriter type: any text is safe, unlike verbatim.
  void code_block(const std::string& code) {
    out_ << "\\begin{flushleft}\\small\\ttfamily\n";
    std::istringstream lines(code);
    std::string line;
    bool first = true;
    while (std::getline(lines, line)) {
      if (!first) out_ << "\\\\\n";
      first = false;
      std::string escaped;
      for (char c : line) {
        if (c == ' ')
          escaped += "\\ ";
        else
          append_latex_escaped(c, escaped);
      }
      out_ << (escaped.empty() ? "\\mbox{}" : escaped);
    }
    out_ << "\n\\end{flushleft}\n";
  }

  void inlines(const RichText& pieces) {
    bool after_number = false;
    for (const auto& piece : pieces) {
      switch (piece.kind) {
        case MarkdownInline::Kind::text:
          out_ << prose_latex(tie_spaces(piece.text, after_number));
          after_number = ends_in_number(piece.text);
          continue;
        case MarkdownInline::Kind::code:
          out_ << "\\texttt{" << code_latex(piece.text) << "}";
          break;
        case MarkdownInline::Kind::math:
          out_ << "$" << piece.text << "$";
          break;
        case MarkdownInline::Kind::display_math:
          out_ << "\\[" << piece.text << "\\]";
          break;
        case MarkdownInline::Kind::value:
          out_ << latex_text(piece.value < values_.size() ? values_[piece.value] : "");
          after_number = true;
          continue;
        case MarkdownInline::Kind::emphasis:
          out_ << "\\emph{";
          inlines(piece.children);
          out_ << "}";
          break;
        case MarkdownInline::Kind::strong:
          out_ << "\\textbf{";
          inlines(piece.children);
          out_ << "}";
          break;
        case MarkdownInline::Kind::link:
          inlines(piece.children);
          out_ << " (\\texttt{" << code_latex(piece.text) << "})";
          break;
        case MarkdownInline::Kind::soft_break:
          out_ << "\n";
          break;
        case MarkdownInline::Kind::line_break:
          out_ << "\\\\\n";
          break;
      }
      after_number = false;
    }
  }

  const std::vector<std::string>& values_;
  std::ostringstream out_;
};

}  // namespace

void append_latex_escaped(char c, std::string& out) {
  switch (c) {
    case '&':
    case '%':
    case '$':
    case '#':
    case '_':
    case '{':
    case '}':
      out += '\\';
      out += c;
      break;
    case '~':
      out += "\\textasciitilde{}";
      break;
    case '^':
      out += "\\textasciicircum{}";
      break;
    case '\\':
      out += "\\textbackslash{}";
      break;
    case '<':
      out += "\\textless{}";
      break;
    case '>':
      out += "\\textgreater{}";
      break;
    case '|':
      out += "\\textbar{}";
      break;
    default:
      // A control character is no text: a line's end inside an argument would end a paragraph.
      out += static_cast<unsigned char>(c) < 0x20 || c == '\x7f' ? ' ' : c;
  }
}

std::string prose_latex(std::string_view text) {
  std::string out;
  const auto& spellings = unicode_spellings();
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      append_latex_escaped(text[i++], out);
      continue;
    }
    const size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    const std::string character(text.substr(i, length));
    const auto spelled = spellings.find(character);
    out += spelled == spellings.end() ? character : spelled->second;
    i += length;
  }
  return out;
}

std::string markdown_latex(const MarkdownDocument& document,
                           const std::vector<std::string>& values) {
  LatexProse prose(values);
  prose.blocks(document.blocks);
  return prose.text();
}

std::string rich_text_latex(const RichText& text, std::string (*escape)(std::string_view)) {
  std::string out;
  for (const auto& piece : text) {
    if (piece.kind == MarkdownInline::Kind::math)
      out += "$" + piece.text + "$";
    else if (piece.kind == MarkdownInline::Kind::text)
      out += escape(piece.text);
    else
      out += escape(plain_text({piece}));
  }
  return out;
}

}  // namespace convlab
