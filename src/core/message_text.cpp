#include "core/message_text.hpp"

#include <algorithm>

namespace convlab {
namespace {

bool continues_character(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The largest cut at or before `at` that does not split a UTF-8 character.
std::size_t boundary_before(std::string_view text, std::size_t at) {
  while (at > 0 && at < text.size() && continues_character(text[at])) --at;
  return at;
}

// The smallest cut at or after `at` that does not split a UTF-8 character.
std::size_t boundary_after(std::string_view text, std::size_t at) {
  while (at < text.size() && continues_character(text[at])) ++at;
  return at;
}

}  // namespace

std::string without_control_characters(std::string_view text) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (byte < 0x20 || byte == 0x7f)
      out += std::string("\\x") + digits[byte >> 4] + digits[byte & 15];
    else
      out += c;
  }
  return out;
}

std::string shortened(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return without_control_characters(text);
  const std::size_t cut = boundary_before(text, limit);
  return without_control_characters(text.substr(0, cut)) + "... (" + std::to_string(text.size()) +
         " bytes)";
}

std::string clipped(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return without_control_characters(text);
  return without_control_characters(text.substr(0, boundary_before(text, limit))) + "...";
}

std::string shortened_path(std::string_view path, std::size_t limit) {
  if (path.size() <= limit) return without_control_characters(path);
  const std::size_t head = boundary_before(path, limit / 3);
  const std::size_t tail = boundary_after(path, path.size() - (limit - limit / 3));
  return without_control_characters(path.substr(0, head)) + "..." +
         without_control_characters(path.substr(tail));
}

std::string bounded_message(std::string_view message, std::size_t line_limit) {
  std::string out;
  std::size_t start = 0;
  while (start <= message.size()) {
    std::size_t end = message.find('\n', start);
    if (end == std::string_view::npos) end = message.size();
    const std::string_view line = message.substr(start, end - start);
    out += shortened_path(line, line_limit);
    if (end == message.size()) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::string excerpt_at(std::string_view text, std::size_t position, std::size_t limit) {
  if (text.size() <= limit) return without_control_characters(text);
  if (position > text.size()) position = text.size();
  // A few characters before the position for context, the rest after it.
  const std::size_t before = std::min(position, limit / 4);
  const std::size_t begin = boundary_after(text, position - before);
  const std::size_t end = boundary_before(text, std::min(text.size(), begin + limit));
  return (begin > 0 ? "..." : "") + without_control_characters(text.substr(begin, end - begin)) +
         (end < text.size() ? "..." : "");
}

}  // namespace convlab
