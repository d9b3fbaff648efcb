// `convlab run --dry-run`: the plan, its size and a rough cost estimate.
#pragma once

#include <ostream>
#include <vector>

#include "plan/plan.hpp"

namespace convlab {

// A rough upper estimate of one point's wall time: warm-up plus repetitions at a nominal rate per
// implementation family, capped by the measure block's time budget. Only for planning.
double estimated_point_seconds(const Config& config, const Point& point);
// Per point of the plan: its estimate plus, for the first point of an image, kernel, border and
// output, the reference computation it waits for.
std::vector<double> estimated_plan_seconds(const Config& config, const std::vector<Point>& plan);
void print_plan(const Config& config, const std::vector<Point>& plan, std::ostream& out);

}  // namespace convlab
