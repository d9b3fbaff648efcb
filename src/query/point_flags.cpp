#include "query/point_flags.hpp"

#include <string>

#include "core/number_text.hpp"

namespace convlab {
namespace {

// Whether an efficiency reads above 1 as every table prints it (three significant digits): 1.004
// prints as 1.00, which is not above 1.
bool reads_above_one(double efficiency) {
  return efficiency > 1.0 && std::stod(format_number(efficiency, kEfficiencyDigits)) > 1.0;
}

}  // namespace

std::vector<PointFlag> point_flags(const Record& record) {
  std::vector<PointFlag> flags;
  if (!record.usable()) return flags;
  if (record.derived.efficiency && reads_above_one(*record.derived.efficiency))
    flags.push_back(PointFlag::efficiency_above_one);
  if (record.timing->compute.stats.cv > kVeryNoisyCv) flags.push_back(PointFlag::very_noisy);
  return flags;
}

const char* flag_mark(PointFlag flag) {
  return flag == PointFlag::efficiency_above_one ? "\u2020" : "\u2021";
}

std::string flag_words(PointFlag flag, const Record& record) {
  if (flag == PointFlag::efficiency_above_one)
    return "parallel efficiency " +
           format_number(record.derived.efficiency.value_or(0.0), kEfficiencyDigits) +
           " is above 1: the one-thread time was probably slowed (load, clock)";
  const double cv = record.timing ? record.timing->compute.stats.cv : 0.0;
  return "CV " + format_number(cv * 100, 2) + " % is above " +
         format_number(kVeryNoisyCv * 100, 2) + " %: the median is unreliable";
}

std::string flag_legend(PointFlag flag) {
  if (flag == PointFlag::efficiency_above_one)
    return "parallel efficiency above 1: P threads more than P times faster than one, usually "
           "because the one-thread time was slowed (load, clock); measure again on an idle "
           "machine";
  return "coefficient of variation above " + format_number(kVeryNoisyCv * 100, 2) +
         " %: the samples are so spread that the median is unreliable";
}

}  // namespace convlab
