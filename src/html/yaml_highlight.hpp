// A config's YAML as highlighted HTML: keys, strings, numbers, booleans, comments and punctuation
// in spans of their own class (y-key, y-str, y-num, y-bool, y-com, y-punct). The spans only wrap
// the text: the element's text is the file as written, byte for byte, which the copy button
// copies. A line-by-line reading of the YAML a config uses, not a YAML parser.
#pragma once

#include <string>

namespace convlab {

std::string yaml_html(const std::string& yaml);

}  // namespace convlab
