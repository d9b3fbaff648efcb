// A user's own kernel (src/user_kernels, docs/own-kernels.md) on the device: not a rung, but run by the
// same point runner (point_runner.cu), so its upload, launches, download and event timing are
// those of every rung. The module is a cubin NVRTC compiled for this device, loaded with the
// runtime's library calls (cudaLibraryLoadData): convlab never links the driver library itself.
//
// A pass is launched as its source declares: block_x x block_y threads, one block per
// pixels_x x pixels_y output pixels, shared_bytes of dynamic shared memory (opted in above 48 KB);
// its one argument is the convlab_problem of include/convlab/kernel.h, with device pointers. The
// weights (and factors) are copied to the device once, at prepare, and to convlab_constant_weights
// before every repetition when the source declares that buffer, as rungs 2 and 3 copy theirs.
#include <cstring>
#include <vector>

#include "impl/cuda/buffers.cuh"
#include "impl/cuda/device_calls.hpp"
#include "impl/cuda/kernel_plan.cuh"

namespace convlab::cuda {
namespace {

// The problem as the kernel receives it, field for field as in include/convlab/kernel.h.
struct KernelProblem {
  int width, height, channels;
  long long in_pitch;
  long long out_pitch;
  const unsigned char* in;
  void* out;
  int output;
  int border;
  int ksize;
  const float* weights;
  int separable;
  const float* column;
  const float* row;
  float* scratch;
  long long scratch_pitch;
  int threads;
};

class Library {
 public:
  explicit Library(const std::string& image) {
    CONVLAB_CUDA_CHECK(
        cudaLibraryLoadData(&library_, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  }
  ~Library() { cudaLibraryUnload(library_); }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  cudaLibrary_t get() const { return library_; }

 private:
  cudaLibrary_t library_ = nullptr;
};

class UserKernelPlan final : public KernelPlan {
 public:
  UserKernelPlan(const UserKernelModule& module, const ProblemDesc& problem, int device)
      : module_(module), library_(module.image), problem_(problem), device_(device) {
    for (size_t i = 0; i < module.passes.size(); ++i) {
      cudaKernel_t kernel = nullptr;
      const std::string name = "convlab_pass" + std::to_string(i + 1);
      CONVLAB_CUDA_CHECK(cudaLibraryGetKernel(&kernel, library_.get(), name.c_str()));
      allow_shared_bytes(reinterpret_cast<const void*>(kernel),
                         static_cast<size_t>(module.passes[i].shared_bytes));
      kernels_.push_back(kernel);
    }
    upload_weights();
  }

  bool needs_scratch() const override { return module_.needs_scratch; }

  void before_timing(cudaStream_t stream) override {
    if (module_.constant_capacity == 0) return;
    void* symbol = nullptr;
    size_t bytes = 0;
    CONVLAB_CUDA_CHECK(
        cudaLibraryGetGlobal(&symbol, &bytes, library_.get(), "convlab_constant_weights"));
    const size_t wanted = constant_values_.size() * sizeof(float);
    if (wanted > bytes) throw std::runtime_error("convlab_constant_weights is too small");
    CONVLAB_CUDA_CHECK(
        cudaMemcpyAsync(symbol, constant_values_.data(), wanted, cudaMemcpyHostToDevice, stream));
  }

  void launch(const DeviceImage& image, cudaStream_t stream) override {
    KernelProblem p = problem_for(image);
    void* arguments[] = {&p};
    for (size_t i = 0; i < kernels_.size(); ++i) {
      const UserKernelPass& pass = module_.passes[i];
      const dim3 block(pass.block_x, pass.block_y);
      const dim3 grid(ceil_div(image.width, pass.pixels_x), ceil_div(image.height, pass.pixels_y));
      CONVLAB_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernels_[i]), grid, block,
                                          arguments, pass.shared_bytes, stream));
    }
  }

 private:
  void upload_weights() {
    const int k = problem_.ksize;
    std::vector<float> values(problem_.weights, problem_.weights + k * k);
    if (problem_.separable) {
      values.insert(values.end(), problem_.column, problem_.column + k);
      values.insert(values.end(), problem_.row, problem_.row + k);
    }
    copy_to_device(weights_, values.data(), values.size());
    constant_values_ = std::move(values);
  }

  KernelProblem problem_for(const DeviceImage& image) const {
    const int k = problem_.ksize;
    const size_t row_values = static_cast<size_t>(image.width) * image.channels;
    KernelProblem p{};
    p.width = image.width;
    p.height = image.height;
    p.channels = image.channels;
    p.in_pitch = static_cast<long long>(row_values);
    p.out_pitch = static_cast<long long>(row_values * bytes_per_value(problem_.output));
    p.in = image.in;
    p.out = image.out;
    p.output = problem_.output == OutputType::u8 ? 0 : 1;
    p.border = static_cast<int>(problem_.border);
    p.ksize = k;
    const float* weights = weights_.as<float>();
    p.weights = weights;
    p.separable = problem_.separable ? 1 : 0;
    p.column = problem_.separable ? weights + k * k : nullptr;
    p.row = problem_.separable ? weights + k * k + k : nullptr;
    p.scratch = image.scratch;
    p.scratch_pitch = image.scratch ? static_cast<long long>(row_values * sizeof(float)) : 0;
    p.threads = 0;
    return p;
  }

  UserKernelModule module_;
  Library library_;
  ProblemDesc problem_;
  int device_;
  std::vector<cudaKernel_t> kernels_;
  DeviceBuffer weights_;
  std::vector<float> constant_values_;
};

}  // namespace

std::optional<std::string> user_kernel_unsupported(const UserKernelModule& module,
                                                   const ProblemDesc&, int device) {
  const DeviceLimits& limits = device_limits(device);
  for (size_t i = 0; i < module.passes.size(); ++i) {
    const UserKernelPass& pass = module.passes[i];
    const std::string name = "pass " + std::to_string(i + 1);
    const long long threads = static_cast<long long>(pass.block_x) * pass.block_y;
    if (threads > limits.max_threads_per_block)
      return name + ": block " + std::to_string(pass.block_x) + "x" + std::to_string(pass.block_y) +
             " = " + std::to_string(threads) + " threads exceeds the device's " +
             std::to_string(limits.max_threads_per_block) + " threads per block";
    if (static_cast<size_t>(pass.shared_bytes) > limits.shared_per_block_optin)
      return name + " asks for " + std::to_string(pass.shared_bytes) +
             " bytes of shared memory, more than the device's " +
             std::to_string(limits.shared_per_block_optin) + " per block";
  }
  return std::nullopt;
}

std::unique_ptr<DeviceRun> prepare_user_kernel(const UserKernelModule& module,
                                               const ProblemDesc& problem, int device,
                                               bool l2_flush) {
  CONVLAB_CUDA_CHECK(cudaSetDevice(device));
  auto plan = std::make_unique<UserKernelPlan>(module, problem, device);
  return prepare_with_plan(std::move(plan), problem, device, l2_flush);
}

std::optional<int> compute_capability(int device) {
  if (device_unavailable(device)) return std::nullopt;
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
    return std::nullopt;
  return major * 10 + minor;
}

}  // namespace convlab::cuda
