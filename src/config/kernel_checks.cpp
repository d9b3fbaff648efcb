#include "config/kernel_checks.hpp"

#include <cfloat>
#include <cmath>
#include <sstream>

namespace convlab {
namespace {

std::string number_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

// The key a problem with the built weights is reported at: what the user chose that made them.
struct Culprit {
  YAML::Node node;
  YamlLocation at;
  std::string what;  // "sigma 1e-200", "the matrix", "size 7"
};

// The weights come from the matrix when the filter has one, else from the first number given
// (sigma before sigma2, in the descriptor's order), else from the size alone.
Culprit culprit_of(const FilterRequest& request, const FilterDescriptor& descriptor,
                   const YAML::Node& entry, const YamlLocation& at, const YAML::Node& size_node,
                   const YamlLocation& size_at) {
  for (const auto& parameter : descriptor.parameters)
    if (parameter.kind == FilterParameterKind::matrix)
      return {entry[parameter.key], at.child(parameter.key), "the " + parameter.key};
  for (const auto& parameter : descriptor.parameters)
    if (parameter.kind == FilterParameterKind::positive_number && entry[parameter.key])
      return {entry[parameter.key], at.child(parameter.key),
              parameter.key + " " + number_text(*(request.*(parameter.number)))};
  return {size_node, size_at, "size " + std::to_string(request.size)};
}

}  // namespace

void check_kernel_request(const FilterRequest& request, const FilterDescriptor& descriptor,
                          const YAML::Node& entry, const YamlLocation& at,
                          const YAML::Node& size_node, const YamlLocation& size_at) {
  const auto problem = filter_request_problem(request, descriptor);
  if (!problem) return;
  if (problem->key == "size") size_at.fail(size_node, problem->message);
  at.child(problem->key).fail(entry[problem->key], problem->message);
}

void check_kernel_numbers(const Filter& filter, const FilterRequest& request,
                          const FilterDescriptor& descriptor, const YAML::Node& entry,
                          const YamlLocation& at, const YAML::Node& size_node,
                          const YamlLocation& size_at) {
  const Culprit culprit = culprit_of(request, descriptor, entry, at, size_node, size_at);
  const bool gaussian_based = descriptor.takes("sigma");
  const std::string kernel = std::to_string(filter.size) + "x" + std::to_string(filter.size);
  // Gaussian-based weights degenerate only when sigma is far too small for the grid.
  const bool sigma_at_fault = gaussian_based && culprit.what.rfind("sigma", 0) == 0;
  const std::string gives = sigma_at_fault
                                ? culprit.what + " is too small for a " + kernel + " kernel: its "
                                : culprit.what + " gives a " + kernel + " kernel whose ";
  double magnitude = 0.0;
  bool any_nonzero = false, any_beside_centre = false;
  const size_t centre = filter.weights.size() / 2;
  for (size_t i = 0; i < filter.weights.size(); ++i) {
    const float w = filter.weights[i];
    if (!std::isfinite(w))
      culprit.at.fail(culprit.node, gives + "weights are not finite in float (" + number_text(w) +
                                        "), the type every implementation computes with");
    magnitude += std::fabs(static_cast<double>(w));
    any_nonzero = any_nonzero || w != 0.0f;
    any_beside_centre = any_beside_centre || (i != centre && w != 0.0f);
  }
  // The largest output a kernel can produce from 8-bit input must stay within float.
  if (255.0 * magnitude > FLT_MAX) {
    const Culprit blamed = request.normalize
                               ? Culprit{entry["normalize"], at.child("normalize"), "normalize"}
                               : culprit;
    blamed.at.fail(blamed.node, blamed.what + " gives weights whose magnitudes sum to " +
                                    number_text(magnitude) +
                                    ": outputs of 8-bit input would overflow float");
  }
  if (!any_nonzero)
    culprit.at.fail(culprit.node, gives +
                                      "weights are all 0 in float, so every output "
                                      "would be 0");
  if (gaussian_based && filter.size > 1 && !any_beside_centre)
    culprit.at.fail(culprit.node, culprit.what + " is too small for a " + kernel +
                                      " kernel: every weight but the centre is 0 in float, so "
                                      "it would copy the image; use a sigma of at least 0.07");
}

}  // namespace convlab
