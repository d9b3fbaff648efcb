#include "plan/kernel_variants.hpp"

#include <set>

#include "user_kernels/user_implementation.hpp"

namespace convlab {

std::vector<VariantRequest> kernel_variants(const Config& config, const std::vector<Point>& plan,
                                            int cuda_device) {
  std::vector<VariantRequest> variants;
  std::set<std::string> seen;
  for (const Point& point : plan) {
    const auto sweep = std::find_if(config.implementations.begin(), config.implementations.end(),
                                    [&](const ImplementationSweep& s) {
                                      return s.user && s.user.get() == point.implementation;
                                    });
    if (sweep == config.implementations.end()) continue;
    const ImageSpec& image = config.images[point.image];
    VariantRequest request =
        variant_request(*sweep->user_source, config.filters[point.filter].size, image.channels,
                        point.output, point.params, cuda_device);
    const MeasureSpec& measure = measure_for(config, sweep->name);
    request.limits = {measure.compile_timeout, measure.compile_memory_gib};
    const std::string identity =
        sweep->name + "\x1f" +
        nlohmann::json(variant_defines(*request.source, request.params, request.shape)).dump();
    if (seen.insert(identity).second) variants.push_back(std::move(request));
  }
  return variants;
}

}  // namespace convlab
