#include "core/shell_quote.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace convlab {
namespace {

bool plain_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("_-./+,:=@%").find(c) != std::string_view::npos;
}

}  // namespace

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string shell_word(const std::string& text) {
  if (!text.empty() && std::all_of(text.begin(), text.end(), plain_character)) return text;
  return shell_quoted(text);
}

}  // namespace convlab
