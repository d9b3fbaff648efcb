#include <cmath>

#include "filters/filter_descriptor.hpp"
#include "filters/filter_math.hpp"

namespace convlab {

const FilterParameter* FilterDescriptor::parameter(const std::string& key) const {
  for (const auto& p : parameters)
    if (p.key == key) return &p;
  return nullptr;
}

FilterParameter size_parameter(int fixed_size) {
  if (fixed_size != 0)
    return {"size", FilterParameterKind::size,
            "kernel edge; this kernel exists only in size " + std::to_string(fixed_size)};
  return {"size", FilterParameterKind::size,
          "odd kernel edge K, or a list of them (a sweep); default 3"};
}

FilterParameter sigma_parameter(const std::string& description) {
  return {"sigma", FilterParameterKind::positive_number, description, false, &FilterRequest::sigma};
}

FilterParameter normalize_parameter() {
  return {"normalize",
          FilterParameterKind::boolean,
          "divide the weights by their sum (default false)",
          false,
          nullptr,
          &FilterRequest::normalize};
}

const std::vector<FilterDescriptor>& filter_types() {
  static const std::vector<FilterDescriptor> types{
#define CONVLAB_FILTER_MADE(row) make_##row##_filter(),
      CONVLAB_FILTER_TYPES(CONVLAB_FILTER_MADE)
#undef CONVLAB_FILTER_MADE
  };
  return types;
}

const FilterDescriptor* find_filter_type(const std::string& type) {
  for (const auto& descriptor : filter_types())
    if (descriptor.type == type) return &descriptor;
  return nullptr;
}

std::optional<FilterProblem> filter_request_problem(const FilterRequest& request,
                                                    const FilterDescriptor& descriptor) {
  if (request.size <= 0 || request.size % 2 == 0)
    return FilterProblem{"size",
                         "size must be a positive odd number, got " + std::to_string(request.size)};
  if (descriptor.fixed_size != 0 && request.size != descriptor.fixed_size)
    return FilterProblem{"size", "'" + descriptor.type + "' exists only in size " +
                                     std::to_string(descriptor.fixed_size) + ", got " +
                                     std::to_string(request.size)};
  if (request.size < descriptor.min_size)
    return FilterProblem{"size", "'" + descriptor.type +
                                     "' needs size >= " + std::to_string(descriptor.min_size) +
                                     ", got " + std::to_string(request.size)};
  for (const auto& parameter : descriptor.parameters) {
    if (parameter.kind != FilterParameterKind::positive_number || !parameter.number) continue;
    const std::optional<double>& value = request.*(parameter.number);
    if (value && !(*value > 0.0 && std::isfinite(*value)))
      return FilterProblem{
          parameter.key, parameter.key + " must be a positive number, got " + number_words(*value)};
  }
  if (descriptor.check) return descriptor.check(request);
  return std::nullopt;
}

}  // namespace convlab
