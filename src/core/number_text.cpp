#include "core/number_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace convlab {

std::string format_exact(double value) {
  if (std::isnan(value)) return "NaN";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string format_fixed(double value, int decimals) {
  if (std::isnan(value)) return "NaN";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string format_number(double value, int significant) {
  if (std::isnan(value)) return "NaN";
  if (value == 0) return "0";
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e9 || magnitude < 1e-4) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
    return buffer;
  }
  // Digits are counted after rounding, so 0.9996 and 1.0004 both print as 1.00.
  char rounded_text[64];
  std::snprintf(rounded_text, sizeof rounded_text, "%.*e", std::max(0, significant - 1), magnitude);
  const double rounded = std::strtod(rounded_text, nullptr);
  const int integer_digits = static_cast<int>(std::floor(std::log10(rounded))) + 1;
  const int decimals = std::max(0, significant - integer_digits);
  std::string text = format_fixed(value, decimals);
  return text;
}

}  // namespace convlab
