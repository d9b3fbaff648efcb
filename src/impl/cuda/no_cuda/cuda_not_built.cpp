// Stands in for the CUDA kernels when CMake found no nvcc: every CUDA point is skipped by the
// registration, and the run's "cuda" block says CUDA is not built.
#include <stdexcept>

#include "impl/cuda/device_calls.hpp"

namespace convlab::cuda {

namespace {
constexpr const char* kNotBuilt = "no CUDA device: convlab was built without CUDA (nvcc not found)";
}

bool built() {
  return false;
}
bool npp_built() {
  return false;
}

std::optional<std::string> device_unavailable(int) {
  return std::string(kNotBuilt);
}

int device_count() {
  return 0;
}

std::string pci_bus_id(int) {
  return "";
}

std::optional<std::string> variant_unsupported(Variant, const ProblemDesc&, const LaunchParams&,
                                               int) {
  return std::string(kNotBuilt);
}

std::unique_ptr<DeviceRun> prepare(Variant, const ProblemDesc&, const LaunchParams&, int, bool) {
  throw std::runtime_error(kNotBuilt);
}

std::optional<std::string> user_kernel_unsupported(const UserKernelModule&, const ProblemDesc&,
                                                   int) {
  return std::string(kNotBuilt);
}

std::unique_ptr<DeviceRun> prepare_user_kernel(const UserKernelModule&, const ProblemDesc&, int,
                                               bool) {
  throw std::runtime_error(kNotBuilt);
}

std::optional<int> compute_capability(int) {
  return std::nullopt;
}

DeviceFacts describe_device(int) {
  throw std::runtime_error(kNotBuilt);
}

}  // namespace convlab::cuda
