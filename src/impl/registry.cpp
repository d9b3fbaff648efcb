#include "impl/registry.hpp"

namespace convlab {

const std::vector<Implementation>& implementation_registry() {
  static const std::vector<Implementation> registry = [] {
    std::vector<Implementation> all{
        make_sequential_implementation(), make_openmp_implementation(),
        make_cpu_rows_implementation(),   make_cpu_separable_implementation(),
        make_cpu_fused_implementation(),  make_cpu_direct_implementation()};
    for (auto& peer : make_opencv_implementations()) all.push_back(std::move(peer));
    for (auto& cuda : make_cuda_implementations()) all.push_back(std::move(cuda));
    return all;
  }();
  return registry;
}

const Implementation* find_implementation(std::string_view name) {
  for (const auto& impl : implementation_registry())
    if (impl.name == name) return &impl;
  return nullptr;
}

}  // namespace convlab
