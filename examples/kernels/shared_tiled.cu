// Shared-memory tiling: a block computes a TILE x TILE tile of output pixels. Its threads first
// copy the tile's input footprint, (TILE + K - 1)^2 pixels with all channels, into shared memory:
// each footprint row is a contiguous run of bytes in the interleaved image, read by consecutive
// threads (coalesced) and converted to float once. Borders are handled only while loading, so the
// multiply-add loop never checks a bound. Each input byte is then read from global memory
// (1 + (K - 1) / TILE)^2 times instead of K^2 times. Weights in __constant__ memory.
//
// This is the algorithm of convlab's own cuda_shared rung, written against the contract: the two
// measure alike (docs/own-kernels.md, "What the path costs").
//
// Params: TILE (output tile edge in pixels), BLOCK: [x, y] threads (each thread computes
// ceil(TILE / BLOCK_X) x ceil(TILE / BLOCK_Y) outputs).
#include <convlab/kernel.h>

CONVLAB_CONTRACT(1);
CONVLAB_CONSTANT_WEIGHTS(8192);
CONVLAB_MAX_KSIZE(89);

#define K CONVLAB_KSIZE
#define C CONVLAB_CHANNELS
#define SPAN (TILE + K - 1)

CONVLAB_CUDA_PASS_SHARED(1, BLOCK_X, BLOCK_Y, TILE, TILE, SPAN * SPAN * C * 4) {
  extern __shared__ float footprint[];  // SPAN rows of SPAN pixels x C channels
  const int r = K / 2;
  const int row_values = SPAN * C;
  const int x0 = blockIdx.x * TILE;
  const int y0 = blockIdx.y * TILE;
  const int left = x0 - r;
  const bool row_inside = left >= 0 && left + SPAN <= p.width;

  // 1. The footprint: rows strided over threadIdx.y, the values of a row over threadIdx.x.
  for (int sy = threadIdx.y; sy < SPAN; sy += blockDim.y) {
    float* dst = footprint + sy * row_values;
    const int gy = convlab_border_index(y0 - r + sy, p.height, p.border);
    if (gy < 0) {
      for (int v = threadIdx.x; v < row_values; v += blockDim.x) dst[v] = 0.0f;
      continue;
    }
    const unsigned char* src_row = p.in + gy * p.in_pitch;
    if (row_inside) {
      const unsigned char* src = src_row + left * C;
      for (int v = threadIdx.x; v < row_values; v += blockDim.x) dst[v] = src[v];
    } else {
      for (int v = threadIdx.x; v < row_values; v += blockDim.x) {
        const int sx = v / C;
        const int gx = convlab_border_index(left + sx, p.width, p.border);
        dst[v] = gx < 0 ? 0.0f : (float)src_row[gx * C + (v - sx * C)];
      }
    }
  }
  __syncthreads();

  // 2. The tile's outputs from shared memory.
  for (int oy = threadIdx.y; oy < TILE; oy += blockDim.y) {
    const int y = y0 + oy;
    if (y >= p.height) break;
    for (int ox = threadIdx.x; ox < TILE; ox += blockDim.x) {
      const int x = x0 + ox;
      if (x >= p.width) break;
      float sum[C];
#pragma unroll
      for (int c = 0; c < C; ++c) sum[c] = 0.0f;
      const float* base = footprint + oy * row_values + ox * C;
#pragma unroll
      for (int ky = 0; ky < K; ++ky) {
#pragma unroll
        for (int kx = 0; kx < K; ++kx) {
          const float w = convlab_constant_weights[ky * K + kx];
#pragma unroll
          for (int c = 0; c < C; ++c) sum[c] = fmaf(w, base[ky * row_values + kx * C + c], sum[c]);
        }
      }
      const long long first = ((long long)y * p.width + x) * C;
#pragma unroll
      for (int c = 0; c < C; ++c) convlab_store(p.out, first + c, CONVLAB_OUTPUT, sum[c]);
    }
  }
}
