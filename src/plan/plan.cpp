#include "plan/plan.hpp"

#include "core/sha256.hpp"

namespace convlab {

std::vector<Point> expand_plan(const Config& config) {
  std::vector<Point> points;
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
                  points.push_back(
                      {image, filter, border, output, impl, first, SearchTag{strategy, seed}});
              continue;
            }
            for (const Params& params : sweep.combinations)
              points.push_back({image, filter, border, output, impl, params, std::nullopt});
          }
  return points;
}

nlohmann::json describe_point(const Config& config, const Point& point) {
  const ImageSpec& image = config.images[point.image];
  const Filter& filter = config.filters[point.filter];
  nlohmann::json description{{"implementation", point.implementation->name},
                             {"family", family_name(point.implementation->family)},
                             {"params", point.params},
                             {"image",
                              {{"name", image.name},
                               {"width", image.width},
                               {"height", image.height},
                               {"channels", image.channels}}},
                             {"kernel",
                              {{"name", filter.name},
                               {"type", filter.type},
                               {"size", filter.size},
                               {"separable", filter.separable}}},
                             {"border", std::string(to_string(point.border))},
                             {"output", std::string(to_string(point.output))}};
  if (point.search)
    description["search"] = {{"strategy", std::string(to_string(point.search->strategy))},
                             {"seed", point.search->seed}};
  return description;
}

std::string point_digest(const nlohmann::json& description) {
  return sha256_hex(description.dump()).substr(0, 16);
}

double point_macs(const Config& config, const Point& point) {
  const ImageSpec& image = config.images[point.image];
  const Filter& filter = config.filters[point.filter];
  return double(image.width) * image.height * image.channels * filter.size * filter.size;
}

}  // namespace convlab
