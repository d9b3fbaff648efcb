// Non-breaking spaces in prose, so that a number never ends a line with its unit on the next
// ("15.5 ms", "201 MB") and "seed 000" or "Table 5" stay together: a tie that both renderers set,
// LaTeX as ~ and HTML as a no-break space. Written by hand as ~ in LaTeX before; in Markdown the
// plain space reads better and the rule finds them.
#pragma once

#include <string>

namespace convlab {

// U+00A0, which renderers set as their own tie.
extern const char* const kNoBreakSpace;

// `text` with the spaces that take a tie replaced by U+00A0. `after_number`: the text follows a
// number (a live value) directly, so a unit at its start is tied to it.
std::string tie_spaces(const std::string& text, bool after_number);

// Whether `text` ends in a digit (a number a following unit belongs to).
bool ends_in_number(const std::string& text);

}  // namespace convlab
