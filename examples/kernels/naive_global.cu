// A naive CUDA convolution, as a first CUDA version usually is: one thread per output pixel,
// every tap read straight from global memory, the weights too. Nothing is cached by hand, so it
// is the baseline the other examples improve on.
//
// Params: BLOCK: [x, y] threads per block; one block covers BLOCK_X x BLOCK_Y pixels.
#include <convlab/kernel.h>

CONVLAB_CONTRACT(1);

CONVLAB_CUDA_PASS(1, BLOCK_X, BLOCK_Y, BLOCK_X, BLOCK_Y) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= p.width || y >= p.height) return;
  const int r = p.ksize / 2;
  float sum[3] = {0.0f, 0.0f, 0.0f};
  for (int ky = 0; ky < p.ksize; ++ky) {
    const int sy = convlab_border_index(y + ky - r, p.height, p.border);
    if (sy < 0) continue;  // zero border: outside reads 0
    for (int kx = 0; kx < p.ksize; ++kx) {
      const int sx = convlab_border_index(x + kx - r, p.width, p.border);
      if (sx < 0) continue;
      const float w = p.weights[ky * p.ksize + kx];
      const unsigned char* pixel = p.in + sy * p.in_pitch + sx * p.channels;
      for (int c = 0; c < p.channels; ++c) sum[c] += w * pixel[c];
    }
  }
  const long long first = ((long long)y * p.width + x) * p.channels;
  for (int c = 0; c < p.channels; ++c) convlab_store(p.out, first + c, p.output, sum[c]);
}
