// How a computed value is written: the format after the bar of {{ expression | format }}.
//
//   (none)  a whole number as one (a count) 269; else 3 significant digits   0.873
//   .4g     4 significant digits            0.8731
//   .2f     2 digits after the point        0.87
//   d       a whole number                  269
//   %       a percentage, 3 significant     87.3 %
//   .1%     a percentage, 1 decimal         87.3 %
//   x       a ratio, 3 significant          2.31x
//   .2x     a ratio, 2 decimals             2.31x
//
// A percentage and a ratio are of plain numbers: a time given one is refused by its unit.
#pragma once

#include <optional>
#include <string>

namespace convlab {

struct ValueFormat {
  enum class Style { significant, fixed, whole, percent, ratio };
  Style style = Style::significant;
  int digits = 3;         // significant digits, or decimals for fixed
  bool decimals = false;  // percent and ratio: `digits` are decimals, not significant digits
  bool given = false;     // written: without a format a whole number is written as one
  bool wants_plain() const { return style == Style::percent || style == Style::ratio; }
};

// nullopt with *error set for a text that is no format.
std::optional<ValueFormat> parse_value_format(const std::string& text, std::string* error);

std::string format_value(double value, const ValueFormat& format);

}  // namespace convlab
