// The variants one search chooses among (config/search_spec.hpp): the combinations of an
// implementation's params left after its restrictions, as coordinates on its axes, so that
// strategies can step to a neighbour (one axis one value up or down) or mix two variants.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "impl/implementation.hpp"

namespace convlab {

struct SearchSpace {
  std::vector<std::string> axes;                    // param names, in the variants' order
  std::vector<std::vector<nlohmann::json>> values;  // per axis, in the order the config gives
  std::vector<std::vector<int>> coordinates;        // per variant: its value's index on each axis

  std::size_t size() const { return coordinates.size(); }
  // The variant at `coordinate`; nullopt when restrictions removed it.
  std::optional<std::size_t> find(const std::vector<int>& coordinate) const;

  std::map<std::vector<int>, std::size_t> index;
};

// The space of `variants` (each a full combination of the same params).
SearchSpace make_search_space(const std::vector<Params>& variants);

}  // namespace convlab
