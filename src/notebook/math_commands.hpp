// What a discussion's math ($...$, $$...$$) may say. The same TeX goes to two renderers: KaTeX on
// the notebook's pages and pdflatex in the report, where TeX is a programming language that can
// read and write files (\input, \openin, \write18) and change how everything after it reads
// (\def, \catcode, \csname). So math may use only a list of commands both of them set as math:
// KaTeX's documented functions and symbols (https://katex.org/docs/supported.html) less those that
// define, read, write, link or style, and less those LaTeX with amsmath and amssymb lacks. Its
// environments are the matrices, cases, aligned, gathered and array. A formula with anything else
// is refused where it is written, before either renderer sees it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace convlab {

// Why `tex` may not be set, in words (the first command or character refused and what to write
// instead); empty when every command and character is allowed. Refused besides unknown commands:
// TeX's ^^ notation, an unescaped % or #, unbalanced braces, an environment that is not closed or
// not allowed, & and \\ outside an environment, $ inside math, and characters outside printable
// ASCII (pdflatex sets none of them in math: write \alpha, not α).
std::string math_refusal(std::string_view tex);

// The allowed commands without their backslash, sorted: for the documentation and the tests.
const std::vector<std::string>& allowed_math_commands();
const std::vector<std::string>& allowed_math_environments();

}  // namespace convlab
