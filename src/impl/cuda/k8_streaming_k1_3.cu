// Instantiates cuda_streaming (k8_streaming.cu) for K = 1, 3: the kernel sizes are split
// between translation units so they compile in parallel.
#include "impl/cuda/streaming_kernel.cuh"

namespace convlab::cuda::streaming {
template void launch_streaming<1>(const StreamLaunch&, cudaStream_t);
template void launch_streaming<3>(const StreamLaunch&, cudaStream_t);
}  // namespace convlab::cuda::streaming
