// The markdown table printed at the end of `convlab run`, one row per point of the plan.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

namespace convlab {

void print_summary_table(const std::vector<nlohmann::json>& records, const nlohmann::json& run,
                         std::ostream& out);

}  // namespace convlab
