#include "plan/search_space.hpp"

#include <algorithm>

namespace convlab {

std::optional<std::size_t> SearchSpace::find(const std::vector<int>& coordinate) const {
  const auto found = index.find(coordinate);
  if (found == index.end()) return std::nullopt;
  return found->second;
}

SearchSpace make_search_space(const std::vector<Params>& variants) {
  SearchSpace space;
  if (variants.empty()) return space;
  for (const auto& [name, value] : variants.front().items()) space.axes.push_back(name);
  space.values.resize(space.axes.size());
  for (const Params& params : variants)
    for (std::size_t a = 0; a < space.axes.size(); ++a) {
      auto& values = space.values[a];
      const nlohmann::json& value = params.at(space.axes[a]);
      if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
    }
  for (const Params& params : variants) {
    std::vector<int> coordinate;
    for (std::size_t a = 0; a < space.axes.size(); ++a) {
      const auto& values = space.values[a];
      coordinate.push_back(static_cast<int>(
          std::find(values.begin(), values.end(), params.at(space.axes[a])) - values.begin()));
    }
    space.index.emplace(coordinate, space.coordinates.size());
    space.coordinates.push_back(std::move(coordinate));
  }
  return space;
}

}  // namespace convlab
