/* convlab's kernel contract, version 1: what a user's own convolution kernel includes.
 *
 * A config names a source file as an implementation (docs/own-kernels.md):
 *
 *   implementations:
 *     my_tiled: {source: kernels/my_tiled.cu, params: {TILE: [16, 32]}}
 *     my_loop:  {source: kernels/my_loop.cpp, threads: [1, 2], params: {ROWS: [1, 8]}}
 *
 * convlab compiles the source once per combination of params (each param is a macro: TILE=16; a
 * pair BLOCK: [32, 8] gives BLOCK_X=32 and BLOCK_Y=8), .cu with NVRTC, .c/.cpp with the system
 * compiler into a shared library, then verifies and times it like its own implementations. The
 * source talks to convlab through this header only, in C, C++ and CUDA alike:
 *
 *   - the problem it gets (convlab_problem): image, weights, border, output, scratch, threads;
 *   - what it declares (the CONVLAB_* declaration macros below): the contract version it is
 *     written for, which borders, outputs and channel counts it handles, what it needs (a
 *     separable kernel, a scratch image, weights in __constant__ memory), and for CUDA each pass's
 *     launch geometry;
 *   - its entry points: CONVLAB_CPU_ENTRY for a .c/.cpp, CONVLAB_CUDA_PASS(1, ...) (and 2) for a .cu.
 *
 * Problem facts as compile-time constants: a source that mentions CONVLAB_KSIZE, CONVLAB_CHANNELS
 * or CONVLAB_OUTPUT is compiled once per kernel size, channel count or output type it meets, with
 * that macro defined, so loops over taps unroll as in convlab's own kernels. Sources that do not
 * mention them are compiled once and read the values from the problem at run time.
 */
#ifndef CONVLAB_KERNEL_H
#define CONVLAB_KERNEL_H

/* The version of this header. A source states the version it is written for with
 * CONVLAB_CONTRACT(1); convlab refuses a source written for another version, naming it. */
#define CONVLAB_CONTRACT_VERSION 1

/* ---- The problem ------------------------------------------------------------------------------ */

/* Borders: how pixels outside the image are read (OpenCV's names in brackets). */
#define CONVLAB_BORDER_ZERO 0      /* constant 0                000|abcdefgh|000 */
#define CONVLAB_BORDER_REPLICATE 1 /* BORDER_REPLICATE          aaa|abcdefgh|hhh */
#define CONVLAB_BORDER_REFLECT 2   /* BORDER_REFLECT_101        dcb|abcdefgh|gfe */
#define CONVLAB_BORDER_SYMMETRIC 3 /* BORDER_REFLECT            cba|abcdefgh|hgf */
#define CONVLAB_BORDER_WRAP 4      /* BORDER_WRAP               fgh|abcdefgh|abc */

/* Output types. u8: round half up and clamp to 0..255, as convlab_store_u8 does; f32: the sum. */
#define CONVLAB_OUTPUT_U8 0
#define CONVLAB_OUTPUT_F32 1

/* One convolution. On the GPU every pointer is a device pointer. The input and output are
 * interleaved (all channels of a pixel side by side), rows `in_pitch` and `out_pitch` bytes apart.
 * Correlation, as OpenCV's filter2D: out(x, y) = sum over ky, kx of
 * weights[ky * ksize + kx] * in(x + kx - ksize / 2, y + ky - ksize / 2). */
typedef struct convlab_problem {
  int width, height, channels; /* pixels; channels is 1 or 3 */
  long long in_pitch;          /* bytes from one input row to the next */
  long long out_pitch;         /* bytes from one output row to the next */
  const unsigned char *in;     /* u8 input */
  void *out;                   /* unsigned char (CONVLAB_OUTPUT_U8) or float (CONVLAB_OUTPUT_F32) */
  int output;                  /* CONVLAB_OUTPUT_* */
  int border;                  /* CONVLAB_BORDER_* */
  int ksize;                   /* K, odd; the kernel is K x K and may be larger than the image */
  const float *weights;        /* K * K, row-major, correlation orientation */
  int separable;               /* 1 when weights[ky * K + kx] == column[ky] * row[kx] */
  const float *column;         /* K vertical factors when separable, else null */
  const float *row;            /* K horizontal factors when separable, else null */
  float *scratch;              /* with CONVLAB_NEEDS_SCRATCH: width * height * channels floats */
  long long scratch_pitch;     /* bytes from one scratch row to the next */
  int threads;                 /* CPU: the point's `threads` (already set for OpenMP); GPU: 0 */
} convlab_problem;

/* ---- Helpers that agree with convlab's reference ------------------------------------------ */

#if defined(__CUDACC__)
#define CONVLAB_FN static __host__ __device__ __forceinline__
#else
#define CONVLAB_FN static inline
#endif

/* Where pixel p of a row or column of n pixels is read from, or -1 (read 0) for the zero border.
 * Valid for any p, also when the kernel is larger than the image. */
CONVLAB_FN int convlab_border_index(int p, int n, int border) {
  int period, q;
  if (p >= 0 && p < n) return p;
  switch (border) {
    case CONVLAB_BORDER_ZERO:
      return -1;
    case CONVLAB_BORDER_REPLICATE:
      return p < 0 ? 0 : n - 1;
    case CONVLAB_BORDER_REFLECT:
      if (n == 1) return 0;
      period = 2 * n - 2;
      q = p % period;
      if (q < 0) q += period;
      return q < n ? q : period - q;
    case CONVLAB_BORDER_SYMMETRIC:
      period = 2 * n;
      q = p % period;
      if (q < 0) q += period;
      return q < n ? q : period - 1 - q;
    default: /* CONVLAB_BORDER_WRAP */
      q = p % n;
      return q < 0 ? q + n : q;
  }
}

/* A sum as a u8 output value: floor(sum + 0.5) clamped to 0..255 (what the verifier expects). */
CONVLAB_FN unsigned char convlab_to_u8(float sum) {
  float v = sum + 0.5f;
  v = v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v);
  return (unsigned char)(int)v;
}

/* Stores `sum` as value `index` (counted in values, not bytes) of a dense output of type `output`. */
CONVLAB_FN void convlab_store(void *out, long long index, int output, float sum) {
  if (output == CONVLAB_OUTPUT_U8)
    ((unsigned char *)out)[index] = convlab_to_u8(sum);
  else
    ((float *)out)[index] = sum;
}

/* ---- Declarations --------------------------------------------------------------------------- */
/* Each declaration is one named constant that convlab reads from the compiled source (from the
 * PTX of a .cu, from the shared library of a .c/.cpp). Only CONVLAB_CONTRACT is required. */

#ifdef __cplusplus
#define CONVLAB_EXTERN_C extern "C"
#else
#define CONVLAB_EXTERN_C
#endif
#if defined(__CUDACC__)
#define CONVLAB_DECLARE_INT(name, value) CONVLAB_EXTERN_C __device__ const int name = (value)
#define CONVLAB_EXPORT
#else
#define CONVLAB_EXPORT __attribute__((visibility("default"), used))
#define CONVLAB_DECLARE_INT(name, value) CONVLAB_EXTERN_C CONVLAB_EXPORT const int name = (value)
#endif

/* Masks for CONVLAB_SUPPORTS: CONVLAB_BIT(CONVLAB_BORDER_ZERO) | CONVLAB_BIT(...), or the sets. */
#define CONVLAB_BIT(value) (1 << (value))
#define CONVLAB_ALL_BORDERS 31
#define CONVLAB_U8 CONVLAB_BIT(CONVLAB_OUTPUT_U8)
#define CONVLAB_F32 CONVLAB_BIT(CONVLAB_OUTPUT_F32)
#define CONVLAB_ALL_OUTPUTS 3
#define CONVLAB_ONE_CHANNEL 2    /* 1 << 1 */
#define CONVLAB_THREE_CHANNELS 8 /* 1 << 3 */
#define CONVLAB_ALL_CHANNELS 10

/* Required: the contract version the source is written for. */
#define CONVLAB_CONTRACT(version) CONVLAB_DECLARE_INT(convlab_contract, version)

/* What the source handles (default: everything). Points it does not handle are skipped with the
 * reason, e.g. CONVLAB_SUPPORTS(CONVLAB_BIT(CONVLAB_BORDER_REPLICATE), CONVLAB_U8,
 * CONVLAB_ALL_CHANNELS). */
#define CONVLAB_SUPPORTS(borders, outputs, channels)              \
  CONVLAB_DECLARE_INT(convlab_supported_borders, borders);        \
  CONVLAB_DECLARE_INT(convlab_supported_outputs, outputs);        \
  CONVLAB_DECLARE_INT(convlab_supported_channels, channels)

/* Only kernels of rank 1 (problem.column and problem.row are set); others are skipped. */
#define CONVLAB_NEEDS_SEPARABLE() CONVLAB_DECLARE_INT(convlab_needs_separable, 1)
/* The largest K handled; larger kernels are skipped. */
#define CONVLAB_MAX_KSIZE(k) CONVLAB_DECLARE_INT(convlab_max_ksize, k)
/* problem.scratch: a float image the size of the input, allocated by convlab outside timing. */
#define CONVLAB_NEEDS_SCRATCH() CONVLAB_DECLARE_INT(convlab_needs_scratch, 1)

/* ---- Entry points --------------------------------------------------------------------------- */

/* A .c/.cpp: one function computing the whole output; returns 0, or a non-zero code that fails
 * the point. For OpenMP, convlab has set the thread count to problem->threads before the call:
 *
 *   CONVLAB_CONTRACT(1);
 *   CONVLAB_CPU_ENTRY(const convlab_problem *p) { ... return 0; }
 */
#define CONVLAB_CPU_ENTRY CONVLAB_EXTERN_C CONVLAB_EXPORT int convlab_convolve

#if defined(__CUDACC__)
/* A .cu: one or two kernels run in order (pass 1, then pass 2 through problem.scratch). Each pass
 * declares its launch: a block of block_x x block_y threads covers pixels_x x pixels_y output
 * pixels, so the grid is ceil(width / pixels_x) x ceil(height / pixels_y). Values may be params:
 *
 *   CONVLAB_CUDA_PASS(1, BLOCK_X, BLOCK_Y, TILE, TILE) { ... uses p.width, p.in, ... }
 *
 * CONVLAB_CUDA_PASS_SHARED adds the bytes of dynamic shared memory (extern __shared__) a block
 * gets, a compile-time constant (of params, CONVLAB_KSIZE, CONVLAB_CHANNELS). Beyond 48 KB convlab
 * opts the kernel in to more; beyond the device's limit the point is skipped with the reason. */
#define CONVLAB_CUDA_PASS_SHARED(n, block_x, block_y, pixels_x, pixels_y, shared_bytes) \
  CONVLAB_DECLARE_INT(convlab_pass##n##_block_x, block_x);                             \
  CONVLAB_DECLARE_INT(convlab_pass##n##_block_y, block_y);                             \
  CONVLAB_DECLARE_INT(convlab_pass##n##_pixels_x, pixels_x);                           \
  CONVLAB_DECLARE_INT(convlab_pass##n##_pixels_y, pixels_y);                           \
  CONVLAB_DECLARE_INT(convlab_pass##n##_shared_bytes, shared_bytes);                   \
  CONVLAB_EXTERN_C __global__ void __launch_bounds__((block_x) * (block_y))            \
      convlab_pass##n(const convlab_problem p)
#define CONVLAB_CUDA_PASS(n, block_x, block_y, pixels_x, pixels_y) \
  CONVLAB_CUDA_PASS_SHARED(n, block_x, block_y, pixels_x, pixels_y, 0)

/* The weights in __constant__ memory as well, for up to `capacity` floats: convlab copies the
 * K * K weights to convlab_constant_weights before the timed calls (then, when separable, the K
 * column and the K row factors after them); larger kernels are skipped. */
#define CONVLAB_CONSTANT_WEIGHTS(capacity)                   \
  CONVLAB_DECLARE_INT(convlab_constant_capacity, capacity); \
  extern "C" {                                              \
  __constant__ float convlab_constant_weights[capacity];    \
  }
#endif

#endif /* CONVLAB_KERNEL_H */
