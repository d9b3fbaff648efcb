// Sobel derivatives of any odd size >= 3, built as OpenCV builds them.
#include "filters/filter_descriptor.hpp"
#include "filters/filter_math.hpp"

namespace convlab {
namespace {

// Binomial smoothing across, and a binomial of order K-3 convolved with the central difference
// [-1, 0, 1] along the derivative.
std::pair<std::vector<double>, std::vector<double>> sobel_factors(int size) {
  const std::vector<double> smooth = binomial(size - 1);
  const std::vector<double> base = binomial(size - 3);
  std::vector<double> derivative(size, 0.0);
  const double difference[3] = {-1.0, 0.0, 1.0};
  for (size_t i = 0; i < base.size(); ++i)
    for (int j = 0; j < 3; ++j) derivative[i + j] += base[i] * difference[j];
  return {smooth, derivative};
}

FilterDescriptor sobel(const std::string& type, const std::string& summary, bool along_x) {
  FilterDescriptor d;
  d.type = type;
  d.summary = summary;
  d.min_size = 3;
  d.gallery_signed = true;
  d.parameters = {size_parameter(0), normalize_parameter()};
  d.build = [along_x](const FilterRequest& request, nlohmann::json&, std::vector<double>&) {
    const auto [smooth, derivative] = sobel_factors(request.size);
    const FilterMatrix x = outer(smooth, derivative);
    return along_x ? x : transpose(x, request.size);
  };
  return d;
}

}  // namespace

FilterDescriptor make_sobel_x_filter() {
  return sobel("sobel_x", "Sobel x derivative, any odd K >= 3 (OpenCV's construction)", true);
}

FilterDescriptor make_sobel_y_filter() {
  return sobel("sobel_y", "Sobel y derivative, any odd K >= 3", false);
}

}  // namespace convlab
