// The box mean: 1 / K^2 everywhere.
#include "filters/filter_descriptor.hpp"
#include "filters/filter_math.hpp"

namespace convlab {

FilterDescriptor make_box_filter() {
  FilterDescriptor d;
  d.type = "box";
  d.summary = "mean of the KxK window";
  d.parameters = {size_parameter(0), normalize_parameter()};
  d.build = [](const FilterRequest& request, nlohmann::json&, std::vector<double>&) {
    const int size = request.size;
    return FilterMatrix(size * size, 1.0 / (size * size));
  };
  return d;
}

}  // namespace convlab
