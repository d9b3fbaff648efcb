#include "html/html_markdown.hpp"

#include <algorithm>

#include "core/number_text.hpp"
#include "html/html_text.hpp"
#include "notebook/ties.hpp"
#include "query/record_queries.hpp"

namespace convlab {
namespace {

// Links a page may carry: to the web, to mail, or to a path beside it; never a script URL.
bool safe_link(const std::string& url) {
  const size_t colon = url.find(':');
  const size_t slash = url.find_first_of("/?#");
  if (colon == std::string::npos || (slash != std::string::npos && slash < colon)) return true;
  std::string scheme = url.substr(0, colon);
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return scheme == "http" || scheme == "https" || scheme == "mailto";
}

// A no-break space as a character reference, so ties show in the page's source.
std::string prose_html(const std::string& text) {
  std::string escaped = html_escape(text);
  std::string out;
  const std::string tie = kNoBreakSpace;
  for (size_t at = 0; at < escaped.size();) {
    if (escaped.compare(at, tie.size(), tie) == 0) {
      out += "&#160;";
      at += tie.size();
    } else {
      out += escaped[at++];
    }
  }
  return out;
}

class HtmlProse {
 public:
  HtmlProse(const std::vector<ResolvedValue>& values, int heading_level)
      : values_(values), heading_level_(heading_level) {}

  void blocks(const std::vector<MarkdownBlock>& blocks) {
    for (const auto& b : blocks) block(b);
  }
  const std::string& text() const { return out_; }

 private:
  void block(const MarkdownBlock& b) {
    switch (b.kind) {
      case MarkdownBlock::Kind::paragraph:
        out_ += "<p>";
        inlines(b.inlines);
        out_ += "</p>\n";
        break;
      case MarkdownBlock::Kind::heading: {
        const std::string tag = "h" + std::to_string(std::min(6, heading_level_ + b.level - 1));
        out_ += "<" + tag + ">";
        inlines(b.inlines);
        out_ += "</" + tag + ">\n";
        break;
      }
      case MarkdownBlock::Kind::bullet_list:
        out_ += "<ul>\n";
        blocks(b.children);
        out_ += "</ul>\n";
        break;
      case MarkdownBlock::Kind::ordered_list:
        out_ += b.start == 1 ? "<ol>\n" : "<ol start=\"" + std::to_string(b.start) + "\">\n";
        blocks(b.children);
        out_ += "</ol>\n";
        break;
      case MarkdownBlock::Kind::item:
        out_ += "<li>";
        blocks(b.children);
        out_ += "</li>\n";
        break;
      case MarkdownBlock::Kind::quote:
        out_ += "<blockquote>\n";
        blocks(b.children);
        out_ += "</blockquote>\n";
        break;
      case MarkdownBlock::Kind::code:
        out_ += "<pre><code>" + html_escape(b.code) + "</code></pre>\n";
        break;
      case MarkdownBlock::Kind::rule:
        out_ += "<hr />\n";
        break;
    }
  }

  void value(size_t index) {
    if (index >= values_.size()) {
      out_ += "<span class=\"value missing\">?</span>";
      return;
    }
    const ResolvedValue& v = values_[index];
    std::string title = reference_text(v.reference);
    if (v.record) title += "\n" + point_in_words(*v.record);
    if (v.number) title += "\n= " + format_exact(*v.number);  // before its format rounded it
    out_ += "<span class=\"value\" title=\"" + html_escape(title) + "\">" + html_escape(v.text) +
            "</span>";
  }

  void inlines(const RichText& pieces) {
    bool after_number = false;
    for (const auto& piece : pieces) {
      switch (piece.kind) {
        case MarkdownInline::Kind::text:
          out_ += prose_html(tie_spaces(piece.text, after_number));
          after_number = ends_in_number(piece.text);
          continue;
        case MarkdownInline::Kind::code:
          out_ += "<code>" + html_escape(piece.text) + "</code>";
          break;
        case MarkdownInline::Kind::math:
          out_ += "<span class=\"math\">" + html_escape(piece.text) + "</span>";
          break;
        case MarkdownInline::Kind::display_math:
          out_ += "<span class=\"math display\">" + html_escape(piece.text) + "</span>";
          break;
        case MarkdownInline::Kind::value:
          value(piece.value);
          after_number = true;
          continue;
        case MarkdownInline::Kind::emphasis:
          out_ += "<em>";
          inlines(piece.children);
          out_ += "</em>";
          break;
        case MarkdownInline::Kind::strong:
          out_ += "<strong>";
          inlines(piece.children);
          out_ += "</strong>";
          break;
        case MarkdownInline::Kind::link:
          if (safe_link(piece.text)) {
            out_ += "<a href=\"" + html_escape(piece.text) + "\">";
            inlines(piece.children);
            out_ += "</a>";
          } else {
            inlines(piece.children);
          }
          break;
        case MarkdownInline::Kind::soft_break:
          out_ += "\n";
          break;
        case MarkdownInline::Kind::line_break:
          out_ += "<br />\n";
          break;
        case MarkdownInline::Kind::placement:  // a parsed document has its cells placed apart
          break;
      }
      after_number = false;
    }
  }

  const std::vector<ResolvedValue>& values_;
  int heading_level_;
  std::string out_;
};

}  // namespace

std::string markdown_html(const MarkdownDocument& document,
                          const std::vector<ResolvedValue>& values, int heading_level) {
  HtmlProse prose(values, heading_level);
  prose.blocks(document.blocks);
  return prose.text();
}

std::string rich_text_html(const RichText& text) {
  std::string out;
  for (const auto& piece : text) {
    if (piece.kind == MarkdownInline::Kind::math)
      out += "<span class=\"math\">" + html_escape(piece.text) + "</span>";
    else
      out += html_escape(plain_text({piece}));
  }
  return out;
}

}  // namespace convlab
