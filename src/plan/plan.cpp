#include "plan/plan.hpp"

namespace convlab {
namespace {

// What the point is: its implementation's, image's and kernel's facts as the config gives them.
PointDescription description_of(const Config& config, const Point& point) {
  const ImageSpec& image = config.images[point.image];
  const Filter& filter = config.filters[point.filter];
  const Implementation& implementation = *point.implementation;
  PointDescription description;
  description.implementation = implementation.name;
  description.family = family_name(implementation.family);
  description.params = point.params;
  description.image = {image.name, image.width, image.height, image.channels};
  description.kernel = {filter.name, filter.type, filter.size, filter.separable};
  description.border = to_string(point.border);
  description.output = to_string(point.output);
  if (point.search)
    description.search =
        DescribedSearch{std::string(to_string(point.search->strategy)), point.search->seed};
  description.source_version = implementation.source_sha256;
  return description;
}

}  // namespace

void describe(const Config& config, Point& point) {
  point.description = description_of(config, point);
  point.described = point.description.to_json();
  point.digest = point_digest(point.described);
}

std::vector<Point> expand_plan(const Config& config) {
  std::vector<Point> points;
  const auto add = [&](Point point) {
    describe(config, point);
    points.push_back(std::move(point));
  };
  for (size_t image = 0; image < config.images.size(); ++image)
    for (size_t filter = 0; filter < config.filters.size(); ++filter)
      for (Border border : config.borders)
        for (OutputType output : config.outputs)
          for (const auto& sweep : config.implementations) {
            const Implementation* impl = &implementation_of(sweep);
            if (sweep.domain) {  // walked as it runs (plan/search_points.hpp)
              const Params first = sweep.domain->params_of(sweep.domain->first);
              for (SearchStrategy strategy : sweep.search->strategies)
                for (std::uint64_t seed : sweep.search->seeds)
                  add({image,
                       filter,
                       border,
                       output,
                       impl,
                       first,
                       SearchTag{strategy, seed},
                       {},
                       {},
                       {}});
              continue;
            }
            for (const Params& params : sweep.combinations)
              add({image, filter, border, output, impl, params, std::nullopt, {}, {}, {}});
          }
  return points;
}

bool point_matches(const PointFilter& filter, const Point& point) {
  return matches(
      filter, [&point](std::string_view field) { return point.description.filter_value(field); });
}

std::optional<std::string> unknown_plan_field(const PointFilter& filter,
                                              const std::vector<Point>& plan) {
  std::vector<std::string> paths;
  for (const Point& point : plan) point.description.add_field_paths(paths);
  return unknown_field(filter, paths);
}

double point_macs(const Config& config, const Point& point) {
  const ImageSpec& image = config.images[point.image];
  const Filter& filter = config.filters[point.filter];
  return double(image.width) * image.height * image.channels * filter.size * filter.size;
}

}  // namespace convlab
