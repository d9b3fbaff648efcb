// The plan: the cartesian product of a config's images, kernels, borders, outputs and
// implementation parameter combinations (a search one point per strategy and seed), in the order
// the runner executes it (image outermost, so each image is generated or loaded once and its
// reference reused by every implementation).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "config/config.hpp"
#include "impl/registry.hpp"
#include "plan/point_description.hpp"

namespace convlab {

struct Point {
  size_t image = 0;   // index into Config::images
  size_t filter = 0;  // index into Config::filters
  Border border = Border::replicate;
  OutputType output = OutputType::u8;
  const Implementation* implementation = nullptr;
  Params params;
  // A search (config/search_spec.hpp), by strategy and seed: the point stands for the variants it
  // will measure of one problem, chosen as it runs (plan/search_points.hpp); its params are the
  // space's first variant, a stand-in for what every variant shares (the implementation, the
  // problem). Part of the identity of each variant the search measures, so that each search keeps
  // its own records; none for a plain sweep.
  std::optional<SearchTag> search;
  // What the point is, typed, made once with the plan: what filters and labels read.
  PointDescription description;
  // The description as JSON and its digest, made once with the plan, so that a run turns each
  // point into JSON once: the point's id (record.point_id) is hashed from `described`, and
  // shard, worker and hand-out files and the points already measured name it by `digest`.
  nlohmann::json described;
  std::string digest;
};

std::vector<Point> expand_plan(const Config& config);

// Fills the point's description, its JSON and its digest from its other fields: what expand_plan
// does for each point, and a search for each variant it makes as it runs (a new `params`).
void describe(const Config& config, Point& point);

// Whether the point filter keeps the point.
bool point_matches(const PointFilter& filter, const Point& point);
// The first field of `filter` that no point of `plan` has, as unknown_field words; nullopt when
// every field exists.
std::optional<std::string> unknown_plan_field(const PointFilter& filter,
                                              const std::vector<Point>& plan);

// Multiply-accumulates of the direct algorithm for the point.
double point_macs(const Config& config, const Point& point);

}  // namespace convlab
