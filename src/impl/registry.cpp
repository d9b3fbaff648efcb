#include "impl/registry.hpp"

#include <utility>

#include "impl/vendor_peers.hpp"

namespace convlab {
namespace {

Implementation appearing(Implementation implementation, Appearance appearance) {
  implementation.appearance = std::move(appearance);
  return implementation;
}

}  // namespace

const std::vector<Implementation>& implementation_registry() {
  static const std::vector<Implementation> registry = [] {
#define CONVLAB_CPU_MADE(row, words, colour, point_type) \
  appearing(make_##row##_implementation(), {words, colour, point_type}),
    std::vector<Implementation> all{CONVLAB_CPU_IMPLEMENTATIONS(CONVLAB_CPU_MADE)};
#undef CONVLAB_CPU_MADE
#define CONVLAB_PEER_MADE(folder, title) \
  for (auto& peer : make_##folder##_implementations()) all.push_back(std::move(peer));
    CONVLAB_VENDOR_PEERS(CONVLAB_PEER_MADE)
#undef CONVLAB_PEER_MADE
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
