#include "plan/search_points.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace convlab {

const ImplementationSweep* sweep_of(const Config& config, const Point& point) {
  for (const auto& sweep : config.implementations)
    if (&implementation_of(sweep) == point.implementation) return &sweep;
  return nullptr;
}

const SearchSpec& search_spec_of(const Config& config, const Point& point) {
  const ImplementationSweep* sweep = sweep_of(config, point);
  if (sweep == nullptr || !sweep->search || !sweep->domain)
    throw std::logic_error("a searched point of an implementation without a search");
  return *sweep->search;
}

SearchSpace search_space_of(const Config& config, const Point& point) {
  search_spec_of(config, point);
  const ImplementationSweep& sweep = *sweep_of(config, point);
  const Implementation* impl = point.implementation;
  if (!impl->impossible) return SearchSpace(sweep.domain);
  const ImageSpec& image = config.images[point.image];
  return SearchSpace(sweep.domain, [impl, image](const Params& params) {
    return impl->impossible(params, image.width, image.height, image.channels).has_value();
  });
}

std::optional<std::size_t> search_budget(const Config& config, const Point& point) {
  const SearchSpec& spec = search_spec_of(config, point);
  if (!spec.budget) return std::nullopt;
  const auto budget = static_cast<std::size_t>(*spec.budget);
  const SpaceSize& size = sweep_of(config, point)->domain->size;
  if (size.exact && size.variants < double(budget)) return static_cast<std::size_t>(size.variants);
  return budget;
}

std::vector<PointDescription> descriptions_of_values(const Config& config, const Point& point) {
  std::vector<PointDescription> descriptions{point.description};
  if (!point.search) return descriptions;
  for (const SearchAxis& axis : sweep_of(config, point)->domain->axes)
    for (const nlohmann::json& value : axis.values) {
      if (point.params.at(axis.name) == value) continue;
      PointDescription other = point.description;
      other.params[axis.name] = value;
      descriptions.push_back(std::move(other));
    }
  return descriptions;
}

}  // namespace convlab
