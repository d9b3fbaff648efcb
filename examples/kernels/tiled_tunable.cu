// A shared-memory tiled kernel with register blocking, every choice a param: how a tuner sees a
// kernel. A block of BLOCK_X x BLOCK_Y threads computes a tile of (BLOCK_X * PX) x (BLOCK_Y * PY)
// output pixels; each thread computes PX x PY of them, strided by the block so that neighbouring
// threads store neighbouring pixels (coalesced). The tile's input footprint is staged in shared
// memory as floats, or as the input bytes themselves (STAGE_U8 = 1: a quarter of the shared
// memory, a conversion per tap instead of one per staged value). Weights in __constant__ memory,
// K and the channel count compile-time constants.
//
// Params: BLOCK: [x, y] threads; PX, PY: outputs per thread along x and y; STAGE_U8: 0 or 1.
// Some combinations ask for more shared memory than a GPU has; those points are skipped with the
// reason, as a tuner must expect (configs/search_grid.yaml sweeps 384 of them).
#include <convlab/kernel.h>

CONVLAB_CONTRACT(1);
CONVLAB_CONSTANT_WEIGHTS(4096);
CONVLAB_MAX_KSIZE(63);

#define K CONVLAB_KSIZE
#define C CONVLAB_CHANNELS
#define TILE_W (BLOCK_X * PX)
#define TILE_H (BLOCK_Y * PY)
#define SPAN_W (TILE_W + K - 1)
#define SPAN_H (TILE_H + K - 1)

#if STAGE_U8
typedef unsigned char staged_t;
#else
typedef float staged_t;
#endif

CONVLAB_CUDA_PASS_SHARED(1, BLOCK_X, BLOCK_Y, TILE_W, TILE_H,
                         SPAN_W * SPAN_H * C * (int)sizeof(staged_t)) {
  extern __shared__ __align__(16) unsigned char shared[];
  staged_t* footprint = (staged_t*)shared;
  const int r = K / 2;
  const int x0 = blockIdx.x * TILE_W;
  const int y0 = blockIdx.y * TILE_H;
  const int row_values = SPAN_W * C;

  // 1. The footprint, all threads of the block over all its values; borders mapped here only.
  const int thread = threadIdx.y * BLOCK_X + threadIdx.x;
  for (int i = thread; i < SPAN_H * row_values; i += BLOCK_X * BLOCK_Y) {
    const int sy = i / row_values;
    const int sx = (i - sy * row_values) / C;
    const int c = i - sy * row_values - sx * C;
    const int gy = convlab_border_index(y0 - r + sy, p.height, p.border);
    const int gx = convlab_border_index(x0 - r + sx, p.width, p.border);
    footprint[i] = (staged_t)(gy < 0 || gx < 0 ? 0 : p.in[gy * p.in_pitch + gx * C + c]);
  }
  __syncthreads();

  // 2. PX x PY outputs per thread, accumulated in registers.
  float sum[PY][PX][C];
#pragma unroll
  for (int j = 0; j < PY; ++j)
#pragma unroll
    for (int i = 0; i < PX; ++i)
#pragma unroll
      for (int c = 0; c < C; ++c) sum[j][i][c] = 0.0f;
  // Rows of taps in a loop, the taps of a row unrolled: a fully unrolled K x K x PX x PY x C
  // body is thousands of instructions, slow to compile and no faster once the tile is staged.
#pragma unroll 1
  for (int ky = 0; ky < K; ++ky) {
#pragma unroll
    for (int kx = 0; kx < K; ++kx) {
      const float w = convlab_constant_weights[ky * K + kx];
#pragma unroll
      for (int j = 0; j < PY; ++j) {
        const staged_t* row = footprint + (threadIdx.y + j * BLOCK_Y + ky) * row_values;
#pragma unroll
        for (int i = 0; i < PX; ++i) {
          const staged_t* pixel = row + (threadIdx.x + i * BLOCK_X + kx) * C;
#pragma unroll
          for (int c = 0; c < C; ++c) sum[j][i][c] = fmaf(w, (float)pixel[c], sum[j][i][c]);
        }
      }
    }
  }

  // 3. Stores, neighbouring threads to neighbouring pixels.
#pragma unroll
  for (int j = 0; j < PY; ++j) {
    const int y = y0 + threadIdx.y + j * BLOCK_Y;
    if (y >= p.height) break;
#pragma unroll
    for (int i = 0; i < PX; ++i) {
      const int x = x0 + threadIdx.x + i * BLOCK_X;
      if (x >= p.width) break;
      const long long first = ((long long)y * p.width + x) * C;
#pragma unroll
      for (int c = 0; c < C; ++c) convlab_store(p.out, first + c, CONVLAB_OUTPUT, sum[j][i][c]);
    }
  }
}
