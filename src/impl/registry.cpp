#include "impl/registry.hpp"

namespace convlab {

const std::vector<Implementation>& implementation_registry() {
  static const std::vector<Implementation> registry = [] {
#define CONVLAB_CPU_MADE(row) make_##row##_implementation(),
    std::vector<Implementation> all{CONVLAB_CPU_IMPLEMENTATIONS(CONVLAB_CPU_MADE)};
#undef CONVLAB_CPU_MADE
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
