// The plan: the cartesian product of a config's images, kernels, borders, outputs and
// implementation parameter combinations (a search one point per strategy and seed), in the order
// the runner executes it (image outermost, so each image is generated or loaded once and its
// reference reused by every implementation).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "config/config.hpp"
#include "impl/registry.hpp"

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
};

std::vector<Point> expand_plan(const Config& config);

// The point as a JSON object with the fields a point filter and a record share:
// implementation, family, params, image {name, width, height, channels}, kernel {name, type, size,
// separable}, border, output; and search {strategy, seed} for a searched variant.
nlohmann::json describe_point(const Config& config, const Point& point);

// 16 hex digits of the SHA-256 of a point description (describe_point, or describe_record of the
// point's record): how shard and worker files list the points they plan, without the images.
std::string point_digest(const nlohmann::json& description);

// Multiply-accumulates of the direct algorithm for the point.
double point_macs(const Config& config, const Point& point);

}  // namespace convlab
