#include "figures/fastest_series.hpp"

#include <algorithm>
#include <map>

#include "query/record_fields.hpp"

namespace convlab {
namespace {

struct FastestAtX {
  const Record* fastest = nullptr;
  double median_ms = 0.0;
  std::vector<std::string> images;
};

}  // namespace

FastestPoints fastest_per_x(const std::vector<const Record*>& points, const std::string& x_field,
                            const BestDeclaration& best) {
  FastestPoints split;
  std::vector<std::string> order;  // x values in the order met
  std::map<std::string, FastestAtX> by_x;
  for (const Record* record : points) {
    if (std::find(best.except.begin(), best.except.end(), record->implementation) !=
        best.except.end()) {
      split.set_aside.push_back(record);
      continue;
    }
    const auto x = field_value(*record, x_field);
    const auto median = field_value(*record, "median_ms");
    if (!x || !median || !median->numeric) continue;
    auto [found, added] = by_x.try_emplace(x->text);
    FastestAtX& candidates = found->second;
    if (added) order.push_back(x->text);
    if (candidates.fastest == nullptr || median->number < candidates.median_ms) {
      candidates.fastest = record;
      candidates.median_ms = median->number;
    }
    if (std::find(candidates.images.begin(), candidates.images.end(), record->image.name) ==
        candidates.images.end())
      candidates.images.push_back(record->image.name);
  }
  for (const auto& x : order) {
    const FastestAtX& candidates = by_x.at(x);
    split.fastest.push_back(candidates.fastest);
    if (candidates.images.size() < 2) continue;
    for (const auto& image : candidates.images)
      if (std::find(split.merged_images.begin(), split.merged_images.end(), image) ==
          split.merged_images.end())
        split.merged_images.push_back(image);
  }
  return split;
}

Grid fastest_series_grid(const FigureDeclaration& declaration,
                         const std::vector<const Record*>& points, const std::string& context) {
  const FastestPoints split = fastest_per_x(points, declaration.x, *declaration.best);
  const LeadRow lead{declaration.best->label, split.fastest};
  Grid grid = value_grid(split.set_aside, declaration.series, declaration.y, {declaration.x},
                         declaration.error_bars, declaration.reduce, context, &lead);
  for (const auto& image : split.merged_images)
    if (std::find(grid.merged_images.begin(), grid.merged_images.end(), image) ==
        grid.merged_images.end())
      grid.merged_images.push_back(image);
  return grid;
}

}  // namespace convlab
