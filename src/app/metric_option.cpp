#include "app/metric_option.hpp"

#include "app/command_line.hpp"
#include "query/record_fields.hpp"

namespace convlab {

std::string checked_metric(const std::string& text) {
  if (!field_has_quartiles(text))
    throw ArgumentValueError("not a timed field (median_ms, end_to_end_ms, h2d_ms, d2h_ms)");
  return text;
}

}  // namespace convlab
