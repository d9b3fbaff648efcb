#include "core/utf8_text.hpp"

#include <cstdio>

namespace convlab {

std::size_t first_invalid_utf8(std::string_view text) {
  const auto byte = [&](std::size_t i) {
    return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u;
  };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned c = byte(i);
    std::size_t length = 0;
    unsigned low = 0x80, high = 0xBF;  // the range of the second byte
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) length = 2;
    if (c >= 0xE0 && c <= 0xEF) length = 3;
    if (c >= 0xF0 && c <= 0xF4) length = 4;
    if (c == 0xE0) low = 0xA0;
    if (c == 0xED) high = 0x9F;
    if (c == 0xF0) low = 0x90;
    if (c == 0xF4) high = 0x8F;
    if (length == 0 || byte(i + 1) < low || byte(i + 1) > high) return i;
    for (std::size_t k = 2; k < length; ++k)
      if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return i;
    i += length;
  }
  return std::string_view::npos;
}

std::string invalid_byte_words(std::string_view text, std::size_t at) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X",
                at < text.size() ? static_cast<unsigned char>(text[at]) : 0u);
  return std::string("byte ") + hex + " at " + std::to_string(at + 1);
}

}  // namespace convlab
