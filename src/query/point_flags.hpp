// Points whose numbers a reader should doubt before drawing a conclusion from them: a parallel
// efficiency above 1 (P threads more than P times faster than one: usually the one-thread time was
// slowed, by load or a lower clock, rather than a real superlinear effect) and timing samples so
// spread that the median says little (coefficient of variation above 50 %). Tables mark them with
// a footnote, the notebook's hover and the summary at the end of a run name them.
#pragma once

#include <string>
#include <vector>

#include "store/record.hpp"

namespace convlab {

enum class PointFlag { efficiency_above_one, very_noisy };

// An efficiency is flagged above 1 when it reads so with the significant digits every table and
// message prints it with: 1.004 prints as 1.00 and is not listed "above 1".
inline constexpr int kEfficiencyDigits = 3;

// A CV above this is very noisy (print_noisy_points lists CVs above 10 % as noisy already).
inline constexpr double kVeryNoisyCv = 0.5;

// The flags of a usable record, in the order of PointFlag; none for records without timing.
std::vector<PointFlag> point_flags(const Record& record);

// The footnote mark of a flag in tables: "\u2020" (dagger) or "\u2021" (double dagger).
const char* flag_mark(PointFlag flag);

// The flag in words with the record's number: "parallel efficiency 1.12 is above 1: the
// one-thread time was probably slowed (load, clock)"; "CV 63 % is above 50 %: the median is
// unreliable".
std::string flag_words(PointFlag flag, const Record& record);

// A generic footnote for a table's legend, without a record's number.
std::string flag_legend(PointFlag flag);

}  // namespace convlab
