#include "filters/filter_library.hpp"

#include <cmath>

#include "filters/filter_math.hpp"

namespace convlab {
namespace {

std::string generic_display_name(const FilterRequest& request) {
  std::string name = request.type + std::to_string(request.size);
  if (request.sigma) name += "-s" + number_words(*request.sigma);
  if (request.sigma2) name += "-t" + number_words(*request.sigma2);
  if (request.normalize) name += "-n";
  return name;
}

}  // namespace

std::optional<Separation> factor_rank1(const std::vector<double>& weights, int size,
                                       double relative_tolerance) {
  size_t pivot = 0;
  for (size_t i = 1; i < weights.size(); ++i)
    if (std::fabs(weights[i]) > std::fabs(weights[pivot])) pivot = i;
  const double p = weights[pivot];
  if (p == 0.0) return std::nullopt;  // the zero matrix: nothing worth separating
  const int pivot_row = static_cast<int>(pivot) / size;
  const int pivot_col = static_cast<int>(pivot) % size;
  // Split the pivot's magnitude evenly so both factors have similar scale.
  const double scale = std::sqrt(std::fabs(p));
  Separation s{std::vector<double>(size), std::vector<double>(size)};
  for (int i = 0; i < size; ++i) s.column[i] = weights[i * size + pivot_col] / scale;
  for (int j = 0; j < size; ++j)
    s.row[j] = weights[pivot_row * size + j] / scale * (p > 0 ? 1 : -1);
  const double bound = relative_tolerance * std::fabs(p);
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j)
      if (std::fabs(weights[i * size + j] - s.column[i] * s.row[j]) > bound) return std::nullopt;
  return s;
}

Filter make_filter(const FilterRequest& request) {
  const FilterDescriptor* descriptor = find_filter_type(request.type);
  if (descriptor == nullptr) throw FilterError("unknown kernel type '" + request.type + "'");
  if (const auto problem = filter_request_problem(request, *descriptor))
    throw FilterError(problem->message);

  Filter filter;
  filter.type = request.type;
  filter.name =
      descriptor->display_name ? descriptor->display_name(request) : generic_display_name(request);
  filter.size = request.size;
  filter.parameters = nlohmann::json::object();
  std::vector<double> factor;
  FilterMatrix m = descriptor->build(request, filter.parameters, factor);
  if (request.normalize) {
    double sum = 0.0;
    for (double v : m) sum += v;
    if (std::fabs(sum) < 1e-12)
      throw FilterError("normalize: the weights sum to 0, they cannot be normalised");
    for (double& v : m) v /= sum;
  }
  filter.parameters["normalize"] = request.normalize;

  filter.weights.assign(m.begin(), m.end());
  // Separability is judged on the float weights every implementation actually uses.
  const std::vector<double> used(filter.weights.begin(), filter.weights.end());
  if (auto separation = factor_rank1(used, filter.size)) {
    filter.separable = true;
    filter.column.assign(separation->column.begin(), separation->column.end());
    filter.row.assign(separation->row.begin(), separation->row.end());
    // A Gaussian's factors are its one-dimensional kernel itself (OpenCV's, without a sigma).
    if (!factor.empty() && !request.normalize) {
      filter.column.assign(factor.begin(), factor.end());
      filter.row = filter.column;
    }
  }
  return filter;
}

}  // namespace convlab
