// A kernel source (C, C++ or CUDA) as highlighted HTML: comments, string and character literals,
// keywords, preprocessor lines and numbers in spans of their own class (c-com, c-str, c-kw, c-pre,
// c-num). As with the config's YAML (yaml_highlight.hpp) the spans only wrap the text: the
// element's text is the source as written, which the copy button copies. A reading of the tokens a
// highlighter needs, not a C++ lexer: what it does not recognise stays plain text.
#pragma once

#include <string>

namespace convlab {

std::string cpp_html(const std::string& source);

}  // namespace convlab
