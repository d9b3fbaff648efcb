// convlab's own cuda_shared rung (src/impl/cuda/k3_shared.cu), line for line, as a user's kernel:
// what the own-kernel path costs is measured by running the two side by side
// (configs/own_kernels_overhead_gpu.yaml). Everything the rung knows at compile time is known
// here at compile time (K, channels, output type); what the rung reads at run time, the tile
// edge, is read at run time here too (from a __device__ variable the compiler cannot fold), so
// the two compile to the same instructions. shared_tiled.cu is the same algorithm with the tile
// as a compile-time param, which is a little faster.
//
// Params: TILE, BLOCK: [x, y], as cuda_shared's tile and block.
#include <convlab/kernel.h>

CONVLAB_CONTRACT(1);
CONVLAB_CONSTANT_WEIGHTS(8192);
CONVLAB_MAX_KSIZE(89);

#define KT CONVLAB_KSIZE
#define C CONVLAB_CHANNELS

__device__ int run_time_tile = TILE;  // cuda_shared's `tile` argument

// map_border_index of src/core/border.hpp.
__device__ __forceinline__ int positive_modulo(int p, int n) {
  const int r = p % n;
  return r < 0 ? r + n : r;
}
__device__ __forceinline__ int map_border_index(int p, int n, int border) {
  if (p >= 0 && p < n) return p;
  switch (border) {
    case CONVLAB_BORDER_ZERO:
      return -1;
    case CONVLAB_BORDER_REPLICATE:
      return p < 0 ? 0 : n - 1;
    case CONVLAB_BORDER_REFLECT: {
      if (n == 1) return 0;
      const int period = 2 * n - 2;
      const int q = positive_modulo(p, period);
      return q < n ? q : period - q;
    }
    case CONVLAB_BORDER_SYMMETRIC: {
      const int period = 2 * n;
      const int q = positive_modulo(p, period);
      return q < n ? q : period - 1 - q;
    }
    case CONVLAB_BORDER_WRAP:
      return positive_modulo(p, n);
  }
  return -1;
}

// load_row_span of src/impl/cuda/kernel_plan.cuh.
__device__ __forceinline__ void load_row_span(float* dst, const unsigned char* src_row, int left,
                                              int span, int width, int border, bool span_inside) {
  const int values = span * C;
  if (span_inside) {
    const unsigned char* src = src_row + left * C;
    for (int v = threadIdx.x; v < values; v += blockDim.x) dst[v] = src[v];
    return;
  }
  for (int v = threadIdx.x; v < values; v += blockDim.x) {
    const int sx = v / C;
    const int c = v - sx * C;
    const int gx = map_border_index(left + sx, width, border);
    dst[v] = gx == -1 ? 0.0f : static_cast<float>(src_row[gx * C + c]);
  }
}

// store_output of src/impl/cuda/kernel_plan.cuh.
__device__ __forceinline__ void store_output(void* out, size_t index, float sum) {
#if CONVLAB_OUTPUT == CONVLAB_OUTPUT_U8
  const float rounded = fminf(fmaxf(floorf(sum + 0.5f), 0.0f), 255.0f);
  static_cast<unsigned char*>(out)[index] = static_cast<unsigned char>(rounded);
#else
  static_cast<float*>(out)[index] = sum;
#endif
}

#define SPAN (TILE + KT - 1)
CONVLAB_CUDA_PASS_SHARED(1, BLOCK_X, BLOCK_Y, TILE, TILE, SPAN * SPAN * C * 4) {
  extern __shared__ float s_in[];
  const unsigned char* __restrict__ in = p.in;
  const int width = p.width, height = p.height, border = p.border;
  const int tile = run_time_tile;
  const int K = KT;
  const int r = K / 2;
  const int span = tile + K - 1;
  const int row_values = span * C;
  const int x0 = blockIdx.x * tile;
  const int y0 = blockIdx.y * tile;
  const int left = x0 - r;
  const bool row_inside = left >= 0 && left + span <= width;

  for (int sy = threadIdx.y; sy < span; sy += blockDim.y) {
    float* dst = s_in + sy * row_values;
    const int gy = map_border_index(y0 - r + sy, height, border);
    if (gy == -1) {
      for (int v = threadIdx.x; v < row_values; v += blockDim.x) dst[v] = 0.0f;
      continue;
    }
    const unsigned char* src_row = in + static_cast<size_t>(gy) * width * C;
    load_row_span(dst, src_row, left, span, width, border, row_inside);
  }
  __syncthreads();

  for (int oy = threadIdx.y; oy < tile; oy += blockDim.y) {
    const int y = y0 + oy;
    if (y >= height) break;
    for (int ox = threadIdx.x; ox < tile; ox += blockDim.x) {
      const int x = x0 + ox;
      if (x >= width) break;
      float acc[C];
#pragma unroll
      for (int c = 0; c < C; ++c) acc[c] = 0.0f;
      const float* base = s_in + oy * row_values + ox * C;
#pragma unroll
      for (int ky = 0; ky < K; ++ky) {
#pragma unroll
        for (int kx = 0; kx < K; ++kx) {
          const float w = convlab_constant_weights[ky * K + kx];
#pragma unroll
          for (int c = 0; c < C; ++c) acc[c] = fmaf(w, base[ky * row_values + kx * C + c], acc[c]);
        }
      }
      const size_t o = (static_cast<size_t>(y) * width + x) * C;
#pragma unroll
      for (int c = 0; c < C; ++c) store_output(p.out, o + c, acc[c]);
    }
  }
}
