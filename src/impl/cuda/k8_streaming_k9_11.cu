// Instantiates cuda_streaming (k8_streaming.cu) for K = 9, 11: the kernel sizes are split
// between translation units so they compile in parallel.
#include "impl/cuda/streaming_kernel.cuh"

namespace convlab::cuda::streaming {
template void launch_streaming<9>(const StreamLaunch&, cudaStream_t);
template void launch_streaming<11>(const StreamLaunch&, cudaStream_t);
}  // namespace convlab::cuda::streaming
