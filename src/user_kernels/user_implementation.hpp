// A user's own kernel as an implementation (docs/own-kernels.md): the same descriptor as
// convlab's own rungs and peers (impl/implementation.hpp), made from a config entry instead of a
// row of the registry. Its axes are the entry's params (and threads for CPU code); its points are
// compiled through the kernel cache (kernel_compiler.hpp), run in a kernel host process
// (kernel_host_client.hpp) and verified and timed by the runner exactly as every implementation.
#pragma once

#include <memory>
#include <vector>

#include "impl/implementation.hpp"
#include "user_kernels/kernel_compiler.hpp"
#include "user_kernels/kernel_source.hpp"

namespace convlab {

// The implementation of `source` with `axes` (each the values the config sweeps are checked
// against; the config gives the values).
Implementation make_user_implementation(std::shared_ptr<const UserKernelSource> source,
                                        std::vector<AxisSpec> axes);

// The variant one point needs, for the architecture of `cuda_device` (9.0 without a device).
VariantRequest variant_request(const UserKernelSource& source, const Problem& problem,
                               const Params& params, int cuda_device);
VariantRequest variant_request(const UserKernelSource& source, int ksize, int channels,
                               OutputType output, const Params& params, int cuda_device);

// The compute capability user kernels are compiled for on `cuda_device`: the device's, else 90.
int user_kernel_cuda_arch(int cuda_device);

}  // namespace convlab
