// Markdown cells as HTML: paragraphs, headings, lists, quotes, code, emphasis and links (http,
// https, mailto and relative ones only); math as <span class="math"> holding its TeX, which the
// notebook's script typesets with KaTeX; live values as <span class="value"> whose title names the
// query and the point it read. Every piece of text is escaped; no markup of the source survives.
#pragma once

#include <string>
#include <vector>

#include "notebook/markdown.hpp"
#include "notebook/value_references.hpp"

namespace convlab {

// `values`: the resolved value of each of the document's references, in order (may be shorter:
// missing ones read "?"). Headings start at `heading_level` (a page's cells sit under its h1).
std::string markdown_html(const MarkdownDocument& document,
                          const std::vector<ResolvedValue>& values, int heading_level = 3);

// Rich text the notebook writes itself (captions): escaped words, math for KaTeX.
std::string rich_text_html(const RichText& text);

}  // namespace convlab
