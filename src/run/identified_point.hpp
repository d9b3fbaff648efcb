// A point of the plan as a run names it: what the point executor (run/point_executor.hpp) makes
// of a plan index and what the observers (run/observers.hpp) are told about.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "plan/plan.hpp"

namespace convlab {

// A point of the plan as a run names it.
struct IdentifiedPoint {
  std::size_t index = 0;  // into the plan (a search's variant: the search's point)
  std::string label;      // "openmp threads=2 schedule=static | noise-16x16 | gaussian3 | ..."
  std::string id;         // what is measured, hashed (record.point_id)
  std::string key;        // the point on this build, machine and device (record.key)
  std::string digest;     // of the point's description (PointDescription::digest)
  // A search's variant (plan/search_points.hpp) is no point of the plan: its point is here, and
  // it stands in the progress for the step it is (from 1) of the search's places; 0 for others.
  std::optional<Point> variant;
  std::size_t search_step = 0;
};

}  // namespace convlab
