// A kernel the config writes out: a square matrix of odd size, under a name of its own.
#include "filters/filter_descriptor.hpp"
#include "filters/filter_math.hpp"

namespace convlab {

FilterDescriptor make_custom_filter() {
  FilterDescriptor d;
  d.type = "custom";
  d.summary = "your own square matrix of odd size";
  d.parameters = {
      {"name", FilterParameterKind::name,
       "the kernel's name in results and file names (letters, digits, '_', '-', '.')", true},
      {"matrix", FilterParameterKind::matrix,
       "the weights as a list of rows, square and of odd size; its size is the kernel's", true},
      normalize_parameter()};
  d.check = [](const FilterRequest& request) -> std::optional<FilterProblem> {
    if (request.matrix.size() != static_cast<size_t>(request.size))
      return FilterProblem{"matrix", "matrix must be square with an odd number of rows"};
    for (const auto& row : request.matrix)
      if (row.size() != request.matrix.size())
        return FilterProblem{"matrix", "matrix must be square: every row needs " +
                                           std::to_string(request.matrix.size()) + " values"};
    return std::nullopt;
  };
  d.build = [](const FilterRequest& request, nlohmann::json& parameters, std::vector<double>&) {
    parameters["matrix"] = request.matrix;
    FilterMatrix m;
    for (const auto& row : request.matrix) m.insert(m.end(), row.begin(), row.end());
    return m;
  };
  d.display_name = [](const FilterRequest& request) { return request.custom_name; };
  return d;
}

}  // namespace convlab
