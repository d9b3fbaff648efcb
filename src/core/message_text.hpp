// Text from outside (a path, a value, an expression) as an error message quotes it: a line's worth
// at most, cut on a character boundary with "...", control characters as escapes, so that no
// message carries megabytes of its input or breaks a line of the terminal or page it goes to.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace convlab {

// What a message quotes of one value at most, in bytes.
inline constexpr std::size_t kQuotedValueBytes = 100;

// Control characters written as \n, \t or \xNN; everything else as it is.
std::string without_control_characters(std::string_view text);

// `text` for a message: whole when it is at most `limit` bytes, else its first `limit` bytes
// (cut before a character that would not fit) and "... (N bytes)". Control characters as
// escapes.
std::string shortened(std::string_view text, std::size_t limit = kQuotedValueBytes);

// The same cut with "..." alone, for a piece of text whose length does not matter.
std::string clipped(std::string_view text, std::size_t limit = kQuotedValueBytes);

// A path for a message: whole when it is at most `limit` bytes, else its start and its end (where
// the file name is) around "...". Control characters as escapes.
std::string shortened_path(std::string_view path, std::size_t limit = 2 * kQuotedValueBytes);

// An error message as a command prints it: each line of it at most `line_limit` bytes, a longer
// one (a path of 128 KB in it) cut in its middle, its start and its end (the reason) kept around
// "...". Control characters other than the line breaks as escapes.
std::string bounded_message(std::string_view message,
                            std::size_t line_limit = 4 * kQuotedValueBytes);

// The part of `text` around byte `position` that fits in `limit` bytes, with "..." where it was
// cut on either side: where in a long expression an error is.
std::string excerpt_at(std::string_view text, std::size_t position,
                       std::size_t limit = kQuotedValueBytes);

}  // namespace convlab
