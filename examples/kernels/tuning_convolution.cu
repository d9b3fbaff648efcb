// A convolution kernel for the autotuning literature's standard tuning space: the params of Kernel
// Tuner's convolution example (also in the BAT suite), with their names, values and restrictions
// (configs/tuning_convolution.yaml); the code is convlab's own, written against the kernel
// contract. A block of block_size_x x block_size_y threads computes a tile of
// (block_size_x * tile_size_x) x (block_size_y * tile_size_y) output pixels; each thread computes
// tile_size_x x tile_size_y of them, strided by the block so that neighbouring threads store
// neighbouring pixels. The tile's input footprint is staged in shared memory as floats, its rows
// padded (use_padding = 1) so that the rows one warp reads start in different banks; the input is
// read through the read-only data cache (read_only = 1) or plainly. Weights in __constant__
// memory, the kernel size and the channel count compile-time constants.
//
// The literature's problem is a 4096 x 4096 float image and a 15 x 15 filter; the contract gives
// u8 interleaved input, so the config measures one channel of u8 (a grey 4096 x 4096 image) with
// a float output, the zero border, and a 15 x 15 Gaussian. Every variant of the restricted space
// fits the shared memory of a GPU with 227 KB per block (the largest asks for 167 KB).
#include <convlab/kernel.h>

CONVLAB_CONTRACT(1);
CONVLAB_CONSTANT_WEIGHTS(4096);
CONVLAB_MAX_KSIZE(63);

#define K CONVLAB_KSIZE
#define C CONVLAB_CHANNELS
#define TILE_W (block_size_x * tile_size_x)
#define TILE_H (block_size_y * tile_size_y)
#define SPAN_W (TILE_W + K - 1)
#define SPAN_H (TILE_H + K - 1)
#define SPAN_VALUES (SPAN_W * C)

// A warp of block_size_x < 32 threads per row reads 32 / block_size_x rows at once: a row
// stride of block_size_x modulo the 32 banks puts them side by side instead of on each other.
#if use_padding && block_size_x < 32
#define ROW_STRIDE (SPAN_VALUES + ((block_size_x - SPAN_VALUES % 32) % 32 + 32) % 32)
#else
#define ROW_STRIDE SPAN_VALUES
#endif

#if read_only
#define LOAD_INPUT(pointer) __ldg(pointer)
#else
#define LOAD_INPUT(pointer) (*(pointer))
#endif

CONVLAB_CUDA_PASS_SHARED(1, block_size_x, block_size_y, TILE_W, TILE_H,
                         SPAN_H* ROW_STRIDE*(int)sizeof(float)) {
  extern __shared__ float staged[];
  const int r = K / 2;
  const int x0 = blockIdx.x * TILE_W;
  const int y0 = blockIdx.y * TILE_H;

  // 1. The footprint, every thread of the block over its values; borders mapped here only.
  const int thread = threadIdx.y * block_size_x + threadIdx.x;
  for (int i = thread; i < SPAN_H * SPAN_VALUES; i += block_size_x * block_size_y) {
    const int sy = i / SPAN_VALUES;
    const int value = i - sy * SPAN_VALUES;
    const int sx = value / C;
    const int c = value - sx * C;
    const int gy = convlab_border_index(y0 - r + sy, p.height, p.border);
    const int gx = convlab_border_index(x0 - r + sx, p.width, p.border);
    staged[sy * ROW_STRIDE + value] =
        gy < 0 || gx < 0 ? 0.0f : (float)LOAD_INPUT(p.in + gy * p.in_pitch + gx * C + c);
  }
  __syncthreads();

  // 2. tile_size_x x tile_size_y outputs per thread, accumulated in registers; the rows of taps
  // in a loop, the taps of a row unrolled.
  float sum[tile_size_y][tile_size_x][C];
#pragma unroll
  for (int j = 0; j < tile_size_y; ++j)
#pragma unroll
    for (int i = 0; i < tile_size_x; ++i)
#pragma unroll
      for (int c = 0; c < C; ++c) sum[j][i][c] = 0.0f;
#pragma unroll 1
  for (int ky = 0; ky < K; ++ky) {
#pragma unroll
    for (int kx = 0; kx < K; ++kx) {
      const float w = convlab_constant_weights[ky * K + kx];
#pragma unroll
      for (int j = 0; j < tile_size_y; ++j) {
        const float* row = staged + (threadIdx.y + j * block_size_y + ky) * ROW_STRIDE;
#pragma unroll
        for (int i = 0; i < tile_size_x; ++i) {
          const float* pixel = row + (threadIdx.x + i * block_size_x + kx) * C;
#pragma unroll
          for (int c = 0; c < C; ++c) sum[j][i][c] = fmaf(w, pixel[c], sum[j][i][c]);
        }
      }
    }
  }

  // 3. Stores, neighbouring threads to neighbouring pixels.
#pragma unroll
  for (int j = 0; j < tile_size_y; ++j) {
    const int y = y0 + threadIdx.y + j * block_size_y;
    if (y >= p.height) break;
#pragma unroll
    for (int i = 0; i < tile_size_x; ++i) {
      const int x = x0 + threadIdx.x + i * block_size_x;
      if (x >= p.width) break;
      const long long first = ((long long)y * p.width + x) * C;
#pragma unroll
      for (int c = 0; c < C; ++c) convlab_store(p.out, first + c, CONVLAB_OUTPUT, sum[j][i][c]);
    }
  }
}
