// Error checking for every CUDA API call and kernel launch. A failure throws std::runtime_error
// naming the file, the line, the call as written and CUDA's error string, so the runner records the
// point as failed with a reason a person can act on.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace convlab::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t error, const char* call, const char* file,
                                          int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                           " failed: " + cudaGetErrorName(error) + " (" +
                           cudaGetErrorString(error) + ")");
}

}  // namespace convlab::cuda

// Wraps one CUDA runtime call: CONVLAB_CUDA_CHECK(cudaMalloc(&p, n));
#define CONVLAB_CUDA_CHECK(call)                                                          \
  do {                                                                                    \
    const cudaError_t convlab_cuda_status_ = (call);                                      \
    if (convlab_cuda_status_ != cudaSuccess)                                              \
      ::convlab::cuda::throw_cuda_error(convlab_cuda_status_, #call, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: reports launch-configuration errors (too many threads, too much shared
// memory) at once; errors during execution surface at the next synchronising call.
#define CONVLAB_CUDA_CHECK_LAUNCH(kernel_name)                                                    \
  do {                                                                                            \
    const cudaError_t convlab_cuda_status_ = cudaGetLastError();                                  \
    if (convlab_cuda_status_ != cudaSuccess)                                                      \
      ::convlab::cuda::throw_cuda_error(convlab_cuda_status_, "launch of " kernel_name, __FILE__, \
                                        __LINE__);                                                \
  } while (0)
