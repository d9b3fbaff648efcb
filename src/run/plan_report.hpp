// `convlab run --dry-run`: the plan, its size and a rough cost estimate.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "plan/plan.hpp"
#include "plan/skips.hpp"

namespace convlab {

// A rough upper estimate of one point's wall time: warm-up plus repetitions at a nominal rate per
// implementation family, capped by the measure block's time budget. Only for planning.
double estimated_point_seconds(const Config& config, const Point& point);
// Per point of the plan: its estimate plus, for the first point of an image, kernel, border and
// output, the reference computation it waits for.
std::vector<double> estimated_plan_seconds(const Config& config, const std::vector<Point>& plan);
// The same with the points `skips` names (plan/skips.hpp) at 0: a skipped point costs nothing,
// and the reference is computed for the first point of a problem that runs.
std::vector<double> estimated_plan_seconds(const Config& config, const std::vector<Point>& plan,
                                           const std::vector<std::optional<PlannedSkip>>& skips);
// The plan as a table, skipped points marked with their reason, then its counts and cost.
void print_plan(const Config& config, const std::vector<Point>& plan,
                const std::vector<std::optional<PlannedSkip>>& skips, std::ostream& out);

// With measure.interleave: a warning when points of more than one thread pool run with several
// threads (OpenMP and OpenCV's), since one pool's idle workers spin for a while after its call and
// slow the next point's threads; nullopt otherwise.
std::optional<std::string> mixed_thread_pools_warning(const Config& config,
                                                      const std::vector<Point>& plan);

}  // namespace convlab
