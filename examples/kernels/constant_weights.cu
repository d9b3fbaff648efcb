// The naive kernel with its weights in __constant__ memory. Every thread of a warp reads the same
// weight at the same time, which the constant cache serves as one broadcast instead of a global
// load per thread; the kernel size is a compile-time constant (CONVLAB_KSIZE), so the tap loops
// unroll and each weight becomes an operand of its multiply-add.
//
// Params: BLOCK: [x, y] threads per block. Kernels up to 64 x 64 (4096 weights).
#include <convlab/kernel.h>

CONVLAB_CONTRACT(1);
CONVLAB_CONSTANT_WEIGHTS(4096);
CONVLAB_MAX_KSIZE(63);

CONVLAB_CUDA_PASS(1, BLOCK_X, BLOCK_Y, BLOCK_X, BLOCK_Y) {
  const int K = CONVLAB_KSIZE;
  const int C = CONVLAB_CHANNELS;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= p.width || y >= p.height) return;
  const int r = K / 2;
  float sum[C];
#pragma unroll
  for (int c = 0; c < C; ++c) sum[c] = 0.0f;
#pragma unroll
  for (int ky = 0; ky < K; ++ky) {
    const int sy = convlab_border_index(y + ky - r, p.height, p.border);
    if (sy < 0) continue;
#pragma unroll
    for (int kx = 0; kx < K; ++kx) {
      const int sx = convlab_border_index(x + kx - r, p.width, p.border);
      if (sx < 0) continue;
      const float w = convlab_constant_weights[ky * K + kx];
      const unsigned char* pixel = p.in + sy * p.in_pitch + sx * C;
#pragma unroll
      for (int c = 0; c < C; ++c) sum[c] = fmaf(w, (float)pixel[c], sum[c]);
    }
  }
  const long long first = ((long long)y * p.width + x) * C;
#pragma unroll
  for (int c = 0; c < C; ++c) convlab_store(p.out, first + c, CONVLAB_OUTPUT, sum[c]);
}
