// Numbers as a person reads them, for tables, figures and the terminal.
#pragma once

#include <string>

namespace convlab {

// `significant` significant digits in plain decimal (13594, 2.60, 0.0123); an exponent only for
// magnitudes of 1e9 and above or below 1e-4. NaN prints as NaN.
std::string format_number(double value, int significant = 3);
std::string format_fixed(double value, int decimals);
// The shortest text that reads back as the same double.
std::string format_exact(double value);

}  // namespace convlab
