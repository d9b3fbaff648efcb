// Markdown cells, typed: CommonMark parsed by cmark (Debian's libcmark) into blocks and inlines
// that the renderers (LaTeX, HTML) walk, with two additions that prose about results needs: math
// spans ($...$, $$...$$), kept as TeX source for both outputs, and live values ({{field[filter]}},
// value_references.hpp). Raw HTML is kept as text (shown escaped), except comments, which are
// dropped; nothing of a Markdown file reaches a page as markup.
#pragma once

#include <string>
#include <vector>

#include "notebook/value_references.hpp"

namespace convlab {

struct MarkdownInline {
  enum class Kind {
    text,
    code,          // `code`
    math,          // $tex$
    display_math,  // $$tex$$
    value,         // {{field[filter]}}: `value` indexes MarkdownDocument::values
    emphasis,
    strong,
    link,  // text: the destination; children: the link text
    soft_break,
    line_break,
    placement  // while a paragraph is read only: {{figure: NAME}} (MarkdownDocument::placed)
  };
  Kind kind = Kind::text;
  std::string text;
  std::vector<MarkdownInline> children;
  size_t value = 0;
};

using RichText = std::vector<MarkdownInline>;

struct MarkdownBlock {
  enum class Kind { paragraph, heading, bullet_list, ordered_list, item, quote, code, rule };
  Kind kind = Kind::paragraph;
  int level = 0;                        // heading level
  int start = 1;                        // first number of an ordered list
  std::string code;                     // code block text
  RichText inlines;                     // paragraph, heading
  std::vector<MarkdownBlock> children;  // lists, items, quotes
};

// A cell a discussion places between its top-level blocks: {{figure: NAME}} on a line of its own.
struct PlacedCell {
  size_t before = 0;  // the number of top-level blocks before it
  CellPlacement placement;
};

struct MarkdownDocument {
  std::string file;  // for messages
  std::vector<MarkdownBlock> blocks;
  std::vector<ValueReference> values;  // in order of appearance
  std::vector<PlacedCell> placed;      // in order of appearance
};

// Throws ResultsError "file:line: ..." for a malformed value reference, and for a cell placed
// anywhere but on a line of its own at the top level (not in a heading, a list or a quote);
// invalid UTF-8 is replaced.
MarkdownDocument parse_markdown(const std::string& text, const std::string& file);

// Plain text as one paragraph (a config's description): no Markdown is interpreted.
MarkdownDocument plain_text_document(const std::string& text);

// Inline helpers for text the notebook writes itself (captions).
MarkdownInline text_inline(std::string text);
MarkdownInline math_inline(std::string tex);

// The text of inlines without markup: values as `values[i]`, math as its TeX.
std::string plain_text(const RichText& inlines, const std::vector<std::string>& values = {});

}  // namespace convlab
