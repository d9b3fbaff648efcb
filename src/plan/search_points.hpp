// A search in the plan (plan.hpp): one point per problem, strategy and seed, standing for the
// variants the search will measure, which it chooses as it runs. What the stages that see a
// search's point before it runs ask of it: its block and sweep, the space it walks on its
// problem, the variants it measures at most, and the values a figure's `where:` may ask of its
// params.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "plan/plan.hpp"
#include "plan/search_space.hpp"

namespace convlab {

// The sweep a point belongs to; null for a point of no sweep of `config`.
const ImplementationSweep* sweep_of(const Config& config, const Point& point);
// The search block of a search's point.
const SearchSpec& search_spec_of(const Config& config, const Point& point);

// The space a search's point walks: the domain's restrictions, less the launch shapes no device
// accepts on its problem's image (a built-in implementation's).
SearchSpace search_space_of(const Config& config, const Point& point);

// The variants the search measures at most: its budget, or the space's size where that is
// smaller and counted exactly; nullopt for a search bounded by max_seconds alone (it ends when
// the time is spent or the space used up).
std::optional<std::size_t> search_budget(const Config& config, const Point& point);

// The point's description (Point::description) and, for a search, one more per other value of
// each param, so that a `where:` on any value the search may measure finds one.
std::vector<PointDescription> descriptions_of_values(const Config& config, const Point& point);

}  // namespace convlab
