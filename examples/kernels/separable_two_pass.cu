// Two passes for a separable (rank-1) kernel: first every row is filtered with the K horizontal
// factors into a float scratch image, then every column of the scratch image with the K vertical
// factors into the output. 2K multiply-adds per value instead of K^2, for one extra write and
// read of a float image. convlab allocates the scratch image (CONVLAB_NEEDS_SCRATCH) outside the
// timed calls and skips kernels that are not separable.
//
// Params: BLOCK: [x, y] threads per block, one pixel (all channels) per thread in both passes.
#include <convlab/kernel.h>

CONVLAB_CONTRACT(1);
CONVLAB_NEEDS_SEPARABLE();
CONVLAB_NEEDS_SCRATCH();

// Pass 1: scratch(x, y) = sum over k of row[k] * in(x + k - r, y).
CONVLAB_CUDA_PASS(1, BLOCK_X, BLOCK_Y, BLOCK_X, BLOCK_Y) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= p.width || y >= p.height) return;
  const int r = p.ksize / 2;
  float sum[3] = {0.0f, 0.0f, 0.0f};
  const unsigned char* row = p.in + y * p.in_pitch;
  for (int k = 0; k < p.ksize; ++k) {
    const int sx = convlab_border_index(x + k - r, p.width, p.border);
    if (sx < 0) continue;
    for (int c = 0; c < p.channels; ++c) sum[c] = fmaf(p.row[k], (float)row[sx * p.channels + c], sum[c]);
  }
  float* out = (float*)((char*)p.scratch + y * p.scratch_pitch) + x * p.channels;
  for (int c = 0; c < p.channels; ++c) out[c] = sum[c];
}

// Pass 2: out(x, y) = sum over k of column[k] * scratch(x, y + k - r).
CONVLAB_CUDA_PASS(2, BLOCK_X, BLOCK_Y, BLOCK_X, BLOCK_Y) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= p.width || y >= p.height) return;
  const int r = p.ksize / 2;
  float sum[3] = {0.0f, 0.0f, 0.0f};
  for (int k = 0; k < p.ksize; ++k) {
    const int sy = convlab_border_index(y + k - r, p.height, p.border);
    if (sy < 0) continue;
    const float* in = (const float*)((const char*)p.scratch + sy * p.scratch_pitch) + x * p.channels;
    for (int c = 0; c < p.channels; ++c) sum[c] = fmaf(p.column[k], in[c], sum[c]);
  }
  const long long first = ((long long)y * p.width + x) * p.channels;
  for (int c = 0; c < p.channels; ++c) convlab_store(p.out, first + c, p.output, sum[c]);
}
