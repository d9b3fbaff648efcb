#include "notebook/value_format.hpp"

#include <cctype>
#include <cmath>

#include "core/message_text.hpp"
#include "core/number_text.hpp"

namespace convlab {
namespace {

constexpr int kMaxDigits = 17;  // a double has no more

// ".N" followed by one character: N and that character.
bool precision_and_style(const std::string& text, int& digits, char& style) {
  if (text.size() < 3 || text[0] != '.') return false;
  size_t at = 1;
  while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
  if (at == 1 || at + 1 != text.size() || at - 1 > 2) return false;
  digits = std::stoi(text.substr(1, at - 1));
  style = text[at];
  return digits <= kMaxDigits;
}

}  // namespace

std::optional<ValueFormat> parse_value_format(const std::string& text, std::string* error) {
  ValueFormat format;
  if (text.empty()) return format;
  format.given = true;
  if (text == "d") {
    format.style = ValueFormat::Style::whole;
    return format;
  }
  if (text == "%" || text == "x") {
    format.style = text == "%" ? ValueFormat::Style::percent : ValueFormat::Style::ratio;
    return format;
  }
  int digits = 0;
  char style = 0;
  if (precision_and_style(text, digits, style)) {
    format.digits = digits;
    if (style == 'g' && digits > 0) return format;
    format.decimals = true;
    if (style == 'f') format.style = ValueFormat::Style::fixed;
    if (style == '%') format.style = ValueFormat::Style::percent;
    if (style == 'x') format.style = ValueFormat::Style::ratio;
    if (style == 'f' || style == '%' || style == 'x') return format;
  }
  if (error)
    *error = "'| " + clipped(text, 40) +
             "' is not a format: write .3g (significant digits), .2f (decimals), d (a whole "
             "number), % or .1% (a percentage), x or .2x (a ratio)";
  return std::nullopt;
}

std::string format_value(double value, const ValueFormat& format) {
  const auto digits = [&](double v) {
    return format.decimals ? format_fixed(v, format.digits) : format_number(v, format.digits);
  };
  switch (format.style) {
    case ValueFormat::Style::significant:
      if (!format.given && std::floor(value) == value && std::fabs(value) < 1e15)
        return format_fixed(value, 0);  // a count, or a sum of counts
      return format_number(value, format.digits);
    case ValueFormat::Style::fixed:
      return format_fixed(value, format.digits);
    case ValueFormat::Style::whole:
      return format_fixed(std::round(value), 0);
    case ValueFormat::Style::percent:
      return digits(value * 100) + " %";
    case ValueFormat::Style::ratio:
      return digits(value) + "x";
  }
  return format_number(value, 3);
}

}  // namespace convlab
