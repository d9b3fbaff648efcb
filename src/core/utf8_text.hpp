// Whether bytes are UTF-8 text. results.json is JSON, which holds UTF-8 only: a path, a name or a
// source that is not UTF-8 is refused where it comes in, naming the byte, before anything is
// measured that could not then be recorded.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace convlab {

// Where `text` stops being UTF-8 (RFC 3629: no overlong forms, surrogates or code points above
// U+10FFFF), or npos.
std::size_t first_invalid_utf8(std::string_view text);

// "byte 0xFF at 3": the byte at `at` and its position from 1, for a message.
std::string invalid_byte_words(std::string_view text, std::size_t at);

}  // namespace convlab
