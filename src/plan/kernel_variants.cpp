#include "plan/kernel_variants.hpp"

#include <set>

#include "plan/search_points.hpp"
#include "user_kernels/user_implementation.hpp"

namespace convlab {

std::optional<VariantRequest> kernel_variant(const Config& config, const Point& point,
                                             int cuda_device) {
  const ImplementationSweep* sweep = sweep_of(config, point);
  if (sweep == nullptr || !sweep->user) return std::nullopt;
  const ImageSpec& image = config.images[point.image];
  VariantRequest request = variant_request(*sweep->user_source, config.filters[point.filter].size,
                                           image.channels, point.output, point.params, cuda_device);
  const MeasureSpec& measure = measure_for(config, sweep->name);
  request.limits = {measure.compile_timeout, measure.compile_memory_gib};
  return request;
}

std::string variant_identity(const Point& point, const VariantRequest& request) {
  return point.implementation->name + "\x1f" +
         nlohmann::json(variant_defines(*request.source, request.params, request.shape)).dump();
}

std::vector<VariantRequest> kernel_variants(const Config& config, const std::vector<Point>& plan,
                                            int cuda_device) {
  std::vector<VariantRequest> variants;
  std::set<std::string> seen;
  for (const Point& point : plan) {
    std::optional<VariantRequest> request = kernel_variant(config, point, cuda_device);
    if (!request) continue;
    if (seen.insert(variant_identity(point, *request)).second)
      variants.push_back(std::move(*request));
  }
  return variants;
}

}  // namespace convlab
