// Markdown cells as LaTeX: paragraphs, lists, quotes, code, emphasis, math as written, live values
// as their numbers, typographic quotes, dashes and ties as LaTeX spells them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "notebook/markdown.hpp"

namespace convlab {

// Appends one ASCII character as LaTeX sets it in running text: the TeX specials escaped, and
// ~ ^ \ < > | spelled out so that no font needs them.
void append_latex_escaped(char c, std::string& out);

// Prose text for LaTeX: TeX specials escaped, “quotes”, dashes, ×, ≥, ≤ and no-break spaces in
// LaTeX's spelling; "16x16" stays as written (latex_text, for generated labels, sets a ×).
std::string prose_latex(std::string_view text);

// `values`: the text of each of the document's live values, in order.
std::string markdown_latex(const MarkdownDocument& document,
                           const std::vector<std::string>& values);

// Rich text the notebook writes itself (captions): words through `escape`, math as written.
std::string rich_text_latex(const RichText& text, std::string (*escape)(std::string_view));

}  // namespace convlab
