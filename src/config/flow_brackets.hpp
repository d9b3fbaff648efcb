// Finding a `{` or `[` that is never closed, to say so when a YAML document does not parse:
// yaml-cpp reads on past such a bracket and fails somewhere later ("end of map flow not found",
// or a key that is a mapping), far from the mistake.
#pragma once

#include <optional>
#include <string>

namespace convlab {

struct UnclosedBracket {
  char bracket = '{';
  int line = 0;        // 1-based, where it opened
  int column = 0;      // 1-based
  int found_line = 0;  // 1-based: where the document goes on as if it had been closed (0: the end)
};

// The innermost flow bracket of `text` still open where the document goes back to block
// structure (a line indented no deeper than the line the bracket opened on) or ends; nullopt when
// every bracket is closed. Quoted scalars, comments and block scalars (| and >) are skipped; a
// bracket counts only where a flow collection can start (after `:`, `-`, `,`, `[`, `{`, `?` or at
// the start of a line), so braces inside plain text are not brackets.
std::optional<UnclosedBracket> find_unclosed_bracket(const std::string& text);

}  // namespace convlab
