// The kernel of rung 8 (cuda_streaming, k8_streaming.cu): one warp walks down a vertical strip of
// the image with the whole filter window in registers. Included by the files that instantiate it
// (k8_streaming_k*.cu), which split the compile-time kernel sizes between translation units.
//
// Geometry of a warp. The rows are treated as rows of bytes (width * C values, channels
// interleaved); lane l holds V consecutive bytes of a row (V = kLaneValues<K>: 16 for K <= 7,
// 8 above, to bound the registers), loaded as one vector. A value's horizontal neighbours are C,
// 2C, ... bytes away, inside the lane or in the H = ceil(r C / V) lanes on either side, whose
// values arrive by warp shuffles. The H lanes at each end of the warp only supply that halo: the
// warp's output strip is the (32 - 2H) * V bytes of the lanes in between, and consecutive warps'
// strips abut, so their loads overlap by 2H vectors (L1/L2 hits, not DRAM traffic).
//
// Rolling accumulators. Input row t contributes to the K output rows t - r .. t + r. Each lane
// keeps one accumulator per (output row in flight, value): K x V registers. The steps of the row
// loop are unrolled in groups of K, so the accumulator slot of every output row is a compile-time
// index: no register array is ever indexed at run time. After the step of input row t, output row t
// - r is complete and is stored; its slot starts output row t + r + 1 on the next step. Each input
// value is loaded once and converted once per warp.
//
// Separable kernels (rank 1): each input row is filtered along x first (K multiply-adds per value,
// from the shuffled window) and the filtered row feeds the K rolling accumulators (K more): 2K per
// value. Direct kernels: each input row feeds K x K multiply-adds per value into the accumulators.
//
// Prefetch. Each lane copies (cp.async, 16 bytes) the row kRingRows = 8 steps ahead into its own
// slot of a per-warp ring in shared memory and reads a row back when its turn comes, so 7 rows per
// lane are in flight while it computes, without holding registers. (Holding the prefetched rows in
// registers made the register allocator copy them between steps, and each copy waited for its
// load: the first version ran at a third of DRAM bandwidth.) Only the lane that copied a slot reads
// it, so the ring needs no barrier.
//
// Borders. A warp whose strip and halo lie inside the image rows, with rows 16-byte aligned,
// ("interior") loads and stores whole vectors with no index arithmetic; only the row pointer of
// each step is computed (the vertical border mapping, done once per row and warp, is a no-op inside
// the image; the test is uniform across the warp). In the warps at the left or right edge, the
// lanes whose bytes reach outside the row, and every lane of an image whose rows are not 16-byte
// multiples, take the border path: each of the lane's bytes has its column mapped by the border
// rule once, before the row loop, and a row's bytes are then loaded all at once. That path
// diverges from the vector path only inside the two edge warps of each row of warps.
//
// Arithmetic. FloatArithmetic: bytes become floats exactly with a byte permute and an add
// (planar_staging.cuh), FP32 FMAs with the weights as kernel-parameter (constant bank) operands.
// A u8 result starts from 0.5 (folded into the first FMA) and is rounded by one round-down add of
// 1.5 * 2^23, which leaves floor(sum + 0.5) in the low mantissa bits: no FRND, no F2I. The clamp to
// 0..255 is two integer min/max on those bits; four results are packed with byte permutes.
// IntArithmetic (dyadic kernels, u8 output): weights are integers over 2^shift, bytes are extracted
// with a byte permute and summed exactly in 32-bit integers starting from 2^(shift - 1), so
// (sum >> shift) is the correctly rounded result (round half up, as the reference).
#pragma once

#include <cstdint>

#include "core/border.hpp"
#include "impl/cuda/kernel_plan.cuh"
#include "impl/cuda/planar_staging.cuh"
#include "impl/cuda/streaming_arithmetic.hpp"

namespace convlab::cuda {
namespace streaming {

constexpr int kMaxWarps = 8;  // warps per block (each its own strip)

// Bytes per lane: 16 (one 16-byte vector) up to K = 7, 8 above, which bounds the K x V rolling
// accumulators to 88 registers at K = 11.
template <int K>
constexpr int kLaneValues = K <= 7 ? 16 : 8;

// Lanes of halo on each side of a warp: the r C bytes a value's window reaches past its lane.
__host__ __device__ constexpr int halo_lanes(int ksize, int channels, int values) {
  return ((ksize / 2) * channels + values - 1) / values;
}

// Output bytes of one warp's strip.
__host__ __device__ constexpr int strip_bytes(int ksize, int channels, int values) {
  return (32 - 2 * halo_lanes(ksize, channels, values)) * values;
}

// Rows in flight per lane: each lane copies the row kRingRows steps ahead into its own slot of a
// per-warp ring in shared memory (cp.async, no registers held), so kRingRows - 1 rows are on their
// way while it computes.
constexpr int kRingRows = 8;

// Shared memory of a block: each warp's ring of kRingRows rows x 32 lanes x V bytes.
__host__ __device__ constexpr int ring_bytes(int values, int warps) {
  return warps * kRingRows * 32 * values;
}

// The weights travel as a kernel parameter: they land in the constant bank and the FMAs take them
// as operands, with no shared state between points and no copy before each launch.
// Direct: taps[ky * K + kx]. Separable: taps[kx] the row factor, taps[K + ky] the column factor.
template <typename T>
struct Taps {
  T w[kMaxTaps];
};

struct FloatArithmetic {
  using Acc = float;
  __device__ __forceinline__ static float value(std::uint32_t word, int byte) {
    return byte_to_float(word, byte);
  }
  __device__ __forceinline__ static float mad(float w, float x, float acc) {
    return fmaf(w, x, acc);
  }
  // Bits whose low byte is the u8 result; `sum` already holds the + 0.5 of round-half-up.
  __device__ __forceinline__ static std::uint32_t u8_bits(float sum, int) {
    const int bits = __float_as_int(__fadd_rd(sum, 12582912.0f));  // 1.5 * 2^23
    return static_cast<std::uint32_t>(min(max(bits, 0x4B400000), 0x4B4000FF));
  }
};

struct IntArithmetic {
  using Acc = int;
  __device__ __forceinline__ static int value(std::uint32_t word, int byte) {
    return static_cast<int>(__byte_perm(word, 0u, 0x4440u | static_cast<unsigned>(byte)));
  }
  __device__ __forceinline__ static int mad(int w, int x, int acc) { return w * x + acc; }
  __device__ __forceinline__ static std::uint32_t u8_bits(int sum, int shift) {
    return static_cast<std::uint32_t>(min(max(sum >> shift, 0), 255));
  }
};

// Four results' low bytes as one word.
__device__ __forceinline__ std::uint32_t pack4(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                               std::uint32_t d) {
  return __byte_perm(__byte_perm(a, b, 0x0040u), __byte_perm(c, d, 0x0040u), 0x5410u);
}

template <class Arith>
struct StreamArgs {
  const std::uint8_t* in;
  void* out;
  int width;
  int height;
  int rows;    // output rows per warp (segment height)
  int strips;  // strips across a row
  Border border;
  bool vector_rows;          // rows start 16-byte aligned in the input and the output
  typename Arith::Acc init;  // 0.5 or 2^(shift - 1) for u8 output, 0 for f32
  int shift;                 // IntArithmetic: the weights are integers over 2^shift
  Taps<typename Arith::Acc> taps;
};

// A lane's V bytes of a row.
template <int V>
struct RawRow {
  std::uint32_t word[V / 4];
};

// Border path: where byte b of a row comes from (b may lie outside [0, width * C)): its column
// mapped by the border rule, or -1 for the zero border. The same for every row, so a border lane
// maps its V bytes once, before the row loop.
template <int C>
__device__ int border_source(int b, int width, Border border) {
  if (b >= 0 && b < width * C) return b;
  const int p = b >= 0 ? b / C : -((C - 1 - b) / C);  // floor(b / C)
  const int c = b - p * C;
  const int m = map_border_index(p, width, border);
  return m == kOutsideImage ? -1 : m * C + c;
}

// A border lane's V bytes of one row (null for a row the zero border makes 0), all loads in
// flight at once.
template <int V>
__device__ __noinline__ RawRow<V> load_border(const std::uint8_t* row, const int (&source)[V]) {
  RawRow<V> r{};
  if (row == nullptr) return r;
  std::uint32_t bytes[V];
#pragma unroll
  for (int j = 0; j < V; ++j) bytes[j] = source[j] >= 0 ? row[source[j]] : 0u;
#pragma unroll
  for (int q = 0; q < V / 4; ++q)
    r.word[q] = bytes[4 * q] | (bytes[4 * q + 1] << 8) | (bytes[4 * q + 2] << 16) |
                (bytes[4 * q + 3] << 24);
  return r;
}

// Where input row t comes from: the row itself inside the image, else the border rule's row, or
// null for the zero border.
// (The border rule is called, not inlined: it runs for 2r rows per warp, and inlined into each
// unrolled step it would multiply the loop's code.)
static __device__ __noinline__ int border_row(int t, int height, Border border) {
  return map_border_index(t, height, border);
}

__device__ __forceinline__ const std::uint8_t* source_row(const std::uint8_t* in, int t, int height,
                                                          int row_bytes, Border border) {
  int y = t;
  if (t < 0 || t >= height) {
    y = border_row(t, height, border);
    if (y == kOutsideImage) return nullptr;
  }
  return in + static_cast<size_t>(y) * row_bytes;
}

// Border path of the stores: a lane's V results (u8 packed four to a word, or floats), each
// written if its byte lies inside the row.
template <int V>
struct FloatRow {
  float v[V];
};
template <int V>
__device__ __noinline__ void store_border(std::uint8_t* row, int first_byte, int row_bytes,
                                          RawRow<V> words) {
#pragma unroll
  for (int j = 0; j < V; ++j) {
    const int b = first_byte + j;
    if (b >= 0 && b < row_bytes)
      row[b] = static_cast<std::uint8_t>(words.word[j / 4] >> (8 * (j % 4)));
  }
}
template <int V>
__device__ __noinline__ void store_border(float* row, int first_byte, int row_bytes,
                                          FloatRow<V> values) {
#pragma unroll
  for (int j = 0; j < V; ++j) {
    const int b = first_byte + j;
    if (b >= 0 && b < row_bytes) row[b] = values.v[j];
  }
}

// A lane's slots of its warp's ring, and the rows that pass through them: row t of the image (its
// index already border-mapped) is copied asynchronously into slot t mod kRingRows, one commit
// group per row, so waiting until at most kRingRows - 1 groups are pending means the oldest row
// has landed. A lane reads back only the bytes it copied itself: no barrier among the lanes.
// Lanes of the border path (and rows the zero border makes 0) do not use the ring.
template <int C, int V>
struct RowRing {
  std::uint8_t* lane_slots;  // slot k at lane_slots + k * 32 * V
  const std::uint8_t* in;
  int height, width, row_bytes, first_byte;
  Border border;
  bool vector_lane;
  int source[V];  // border lanes: where each of the lane's bytes comes from in a row

  __device__ RowRing(std::uint8_t* slots, const std::uint8_t* in_, int height_, int width_,
                     int first_byte_, Border border_, bool vector_lane_)
      : lane_slots(slots),
        in(in_),
        height(height_),
        width(width_),
        row_bytes(width_ * C),
        first_byte(first_byte_),
        border(border_),
        vector_lane(vector_lane_) {
    if (!vector_lane)
#pragma unroll
      for (int j = 0; j < V; ++j) source[j] = border_source<C>(first_byte + j, width, border);
  }

  __device__ std::uint8_t* slot(int t) const {
    return lane_slots + (static_cast<unsigned>(t + kRingRows * 1024) % kRingRows) * 32 * V;
  }
  // Starts the copy of row t (always one commit group, possibly empty).
  __device__ void issue(int t) const {
    if (vector_lane) {
      const std::uint8_t* row = source_row(in, t, height, row_bytes, border);
      if (row != nullptr) {
        const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(slot(t)));
        if constexpr (V == 16) {
          asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(address),
                       "l"(row + first_byte));
        } else {
          asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(address),
                       "l"(row + first_byte));
        }
      }
    }
    commit_async_copies();
  }
  // Row t's V bytes, once its copy has landed (wait first).
  __device__ RawRow<V> fetch(int t) const {
    const std::uint8_t* row = source_row(in, t, height, row_bytes, border);
    if (!vector_lane) return load_border<V>(row, source);
    RawRow<V> r{};
    if (row == nullptr) return r;
    if constexpr (V == 16) {
      const uint4 v = *reinterpret_cast<const uint4*>(slot(t));
      r.word[0] = v.x;
      r.word[1] = v.y;
      r.word[2] = v.z;
      r.word[3] = v.w;
    } else {
      const uint2 v = *reinterpret_cast<const uint2*>(slot(t));
      r.word[0] = v.x;
      r.word[1] = v.y;
    }
    return r;
  }
};

template <int K, int C, bool kSeparable, class Arith, typename OutT>
__global__ void __launch_bounds__(kMaxWarps * 32) streaming_kernel(const StreamArgs<Arith> args) {
  using Acc = typename Arith::Acc;
  constexpr int V = kLaneValues<K>;
  constexpr int R = K / 2;
  constexpr int H = halo_lanes(K, C, V);
  constexpr int kStrip = strip_bytes(K, C, V);
  constexpr int kWindow = V + 2 * R * C;  // values a lane's outputs read, its own in the middle
  extern __shared__ __align__(16) std::uint8_t s_ring[];

  const int lane = threadIdx.x & 31;
  const int strip = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (strip >= args.strips) return;  // whole warp: no barrier follows
  const int ys = blockIdx.y * args.rows;
  const int ye = min(ys + args.rows, args.height);
  const int row_bytes = args.width * C;
  const int first_byte = strip * kStrip + (lane - H) * V;  // this lane's first byte in a row
  // A lane whose V bytes lie inside the row (all lanes of an interior warp) moves whole vectors;
  // the lanes at the image's left and right edges, and every lane of an image whose rows are not
  // 16-byte aligned, map each byte by the border rule.
  const bool vector_lane = args.vector_rows && first_byte >= 0 && first_byte + V <= row_bytes;
  const bool output_lane = lane >= H && lane < 32 - H;

  const RowRing<C, V> ring(s_ring + ((threadIdx.x >> 5) * kRingRows * 32 + lane) * V, args.in,
                           args.height, args.width, first_byte, args.border, vector_lane);

  Acc acc[K][V];
#pragma unroll
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int j = 0; j < V; ++j) acc[k][j] = Acc(0);

  const int steps = (ye - ys) + 2 * R;  // input rows ys - r .. ye + r - 1
  const int t0 = ys - R;
#pragma unroll 1
  for (int k = 0; k < kRingRows; ++k) {
    if (k < steps) {
      ring.issue(t0 + k);
    } else {
      commit_async_copies();
    }
  }

  // Steps in groups of K, so that every output row's accumulator slot is a compile-time index.
  for (int i0 = 0; i0 < steps; i0 += K) {
#pragma unroll
    for (int s = 0; s < K; ++s) {
      const int i = i0 + s;
      if (i >= steps) break;
      // The window: own values in the middle, r C values of the neighbouring lanes either side.
      // The slot is refilled (row i + kRingRows) only after its bytes have been converted.
      wait_async_copies<kRingRows - 1>();
      const RawRow<V> cur = ring.fetch(t0 + i);
      Acc x[kWindow];
#pragma unroll
      for (int j = 0; j < V; ++j) x[R * C + j] = Arith::value(cur.word[j / 4], j % 4);
      if (i + kRingRows < steps) {
        ring.issue(t0 + i + kRingRows);
      } else {
        commit_async_copies();
      }
#pragma unroll
      for (int q = 0; q < R * C; ++q) {
        const int p = q - R * C;         // position left of the lane, -r C .. -1
        const int d = (-p + V - 1) / V;  // lanes to the left
        x[q] = __shfl_up_sync(0xffffffffu, x[R * C + p + d * V], d);
        const int pr = V + q;  // position right of the lane
        const int dr = pr / V;
        x[R * C + V + q] = __shfl_down_sync(0xffffffffu, x[R * C + pr - dr * V], dr);
      }

      if constexpr (kSeparable) {
        Acc h[V];
#pragma unroll
        for (int j = 0; j < V; ++j) {
          Acc sum = Arith::mad(args.taps.w[0], x[j], Acc(0));
#pragma unroll
          for (int kx = 1; kx < K; ++kx) sum = Arith::mad(args.taps.w[kx], x[j + kx * C], sum);
          h[j] = sum;
        }
#pragma unroll
        for (int ky = 0; ky < K; ++ky) {
          const int slot = ((s - ky) % K + K) % K;
#pragma unroll
          for (int j = 0; j < V; ++j)
            acc[slot][j] =
                Arith::mad(args.taps.w[K + ky], h[j], ky == 0 ? args.init : acc[slot][j]);
        }
      } else {
#pragma unroll
        for (int ky = 0; ky < K; ++ky) {
          const int slot = ((s - ky) % K + K) % K;
#pragma unroll
          for (int j = 0; j < V; ++j) {
            Acc sum = ky == 0 ? args.init : acc[slot][j];
#pragma unroll
            for (int kx = 0; kx < K; ++kx)
              sum = Arith::mad(args.taps.w[ky * K + kx], x[j + kx * C], sum);
            acc[slot][j] = sum;
          }
        }
      }

      if (i < K - 1) continue;  // the first 2r steps complete no output row
      const int done = (s + 1) % K;
      const int y = ys + i - (K - 1);
      OutT* out_row = static_cast<OutT*>(args.out) + static_cast<size_t>(y) * row_bytes;
      if (!output_lane) continue;
      if constexpr (sizeof(OutT) == 1) {
        RawRow<V> words;
#pragma unroll
        for (int q = 0; q < V / 4; ++q)
          words.word[q] = pack4(Arith::u8_bits(acc[done][4 * q], args.shift),
                                Arith::u8_bits(acc[done][4 * q + 1], args.shift),
                                Arith::u8_bits(acc[done][4 * q + 2], args.shift),
                                Arith::u8_bits(acc[done][4 * q + 3], args.shift));
        if (!vector_lane) {
          store_border<V>(out_row, first_byte, row_bytes, words);
        } else if constexpr (V == 16) {
          __stcs(reinterpret_cast<uint4*>(out_row + first_byte),
                 make_uint4(words.word[0], words.word[1], words.word[2], words.word[3]));
        } else {
          __stcs(reinterpret_cast<uint2*>(out_row + first_byte),
                 make_uint2(words.word[0], words.word[1]));
        }
      } else {
        if (!vector_lane) {
          FloatRow<V> values;
#pragma unroll
          for (int j = 0; j < V; ++j) values.v[j] = acc[done][j];
          store_border<V>(out_row, first_byte, row_bytes, values);
          continue;
        }
#pragma unroll
        for (int q = 0; q < V / 4; ++q)
          __stcs(reinterpret_cast<float4*>(out_row + first_byte) + q,
                 make_float4(acc[done][4 * q], acc[done][4 * q + 1], acc[done][4 * q + 2],
                             acc[done][4 * q + 3]));
      }
    }
  }
}

// Dyadic rank-1 kernels with non-negative integer factors whose sums fit 16 bits: two values per
// 32-bit register (bytes 2m and 2m + 1 of a lane as the low and high 16-bit halves), summed with
// one integer multiply-add per pair and tap. The column pass runs first, on the raw bytes (no
// shuffles: the rows are the lane's own); the finished column sums are row-filtered once per output
// row, their halo pairs arriving by shuffles and an odd shift of the pairs by one byte permute.
// The factors are scaled so the total shift is 8: the rounded result is the high byte of each half,
// picked out by the byte permute that packs four results into a word. No half ever carries into
// the other: the host admits only factors with 255 * sum(column) and 255 * 256 + 128 below 2^16.
template <int K, int C>
__global__ void __launch_bounds__(kMaxWarps * 32)
    paired_kernel(const StreamArgs<IntArithmetic> args) {
  constexpr int V = 16;
  constexpr int kPairs = V / 2;
  constexpr int R = K / 2;
  constexpr int H = halo_lanes(K, C, V);
  constexpr int kStrip = strip_bytes(K, C, V);
  constexpr int E0 = (R * C + 1) / 2;  // halo pairs on each side
  extern __shared__ __align__(16) std::uint8_t s_ring[];

  const int lane = threadIdx.x & 31;
  const int strip = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (strip >= args.strips) return;
  const int ys = blockIdx.y * args.rows;
  const int ye = min(ys + args.rows, args.height);
  const int row_bytes = args.width * C;
  const int first_byte = strip * kStrip + (lane - H) * V;
  const bool vector_lane = args.vector_rows && first_byte >= 0 && first_byte + V <= row_bytes;
  const bool output_lane = lane >= H && lane < 32 - H;

  const RowRing<C, V> ring(s_ring + ((threadIdx.x >> 5) * kRingRows * 32 + lane) * V, args.in,
                           args.height, args.width, first_byte, args.border, vector_lane);

  std::uint32_t acc[K][kPairs];
#pragma unroll
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int m = 0; m < kPairs; ++m) acc[k][m] = 0;

  const int steps = (ye - ys) + 2 * R;
  const int t0 = ys - R;
#pragma unroll 1
  for (int k = 0; k < kRingRows; ++k) {
    if (k < steps) {
      ring.issue(t0 + k);
    } else {
      commit_async_copies();
    }
  }

  for (int i0 = 0; i0 < steps; i0 += K) {
#pragma unroll
    for (int s = 0; s < K; ++s) {
      const int i = i0 + s;
      if (i >= steps) break;
      wait_async_copies<kRingRows - 1>();
      const RawRow<V> cur = ring.fetch(t0 + i);
      std::uint32_t pair[kPairs];
#pragma unroll
      for (int q = 0; q < V / 4; ++q) {
        pair[2 * q] = __byte_perm(cur.word[q], 0u, 0x4140u);      // bytes 4q, 4q + 1
        pair[2 * q + 1] = __byte_perm(cur.word[q], 0u, 0x4342u);  // bytes 4q + 2, 4q + 3
      }
      if (i + kRingRows < steps) {
        ring.issue(t0 + i + kRingRows);  // into the slot just read
      } else {
        commit_async_copies();
      }
#pragma unroll
      for (int ky = 0; ky < K; ++ky) {
        const int slot = ((s - ky) % K + K) % K;
        const std::uint32_t w = static_cast<std::uint32_t>(args.taps.w[K + ky]);
#pragma unroll
        for (int m = 0; m < kPairs; ++m) acc[slot][m] = w * pair[m] + (ky == 0 ? 0u : acc[slot][m]);
      }
      if (i < K - 1) continue;
      const int done = (s + 1) % K;

      // Row pass on the finished column sums: pairs -E0 .. kPairs + E0 of the window.
      std::uint32_t window[kPairs + 2 * E0];
#pragma unroll
      for (int m = 0; m < kPairs; ++m) window[E0 + m] = acc[done][m];
#pragma unroll
      for (int e = 0; e < E0; ++e) {
        window[e] = __shfl_up_sync(0xffffffffu, acc[done][kPairs - E0 + e], 1);
        window[E0 + kPairs + e] = __shfl_down_sync(0xffffffffu, acc[done][e], 1);
      }
      std::uint32_t result[kPairs];
#pragma unroll
      for (int m = 0; m < kPairs; ++m) {
        std::uint32_t sum = static_cast<std::uint32_t>(args.init) * 0x10001u;
#pragma unroll
        for (int kx = 0; kx < K; ++kx) {
          const int shift = (kx - R) * C;  // values: even moves whole pairs, odd straddles two
          std::uint32_t shifted;
          if (shift % 2 == 0) {
            shifted = window[E0 + m + shift / 2];
          } else {
            shifted = __byte_perm(window[E0 + m + (shift - 1) / 2],
                                  window[E0 + m + (shift + 1) / 2], 0x5432u);
          }
          sum = static_cast<std::uint32_t>(args.taps.w[kx]) * shifted + sum;
        }
        result[m] = sum;
      }
      if (!output_lane) continue;
      std::uint8_t* out_row =
          static_cast<std::uint8_t*>(args.out) + static_cast<size_t>(ys + i - (K - 1)) * row_bytes;
      RawRow<V> words;  // the high byte of each half: four results per word
#pragma unroll
      for (int q = 0; q < V / 4; ++q)
        words.word[q] = __byte_perm(result[2 * q], result[2 * q + 1], 0x7531u);
      if (vector_lane) {
        __stcs(reinterpret_cast<uint4*>(out_row + first_byte),
               make_uint4(words.word[0], words.word[1], words.word[2], words.word[3]));
      } else {
        store_border<V>(out_row, first_byte, row_bytes, words);
      }
    }
  }
}

// Launch geometry: strips across a row, warps per block, segments of `rows` down the image.
template <int K, int C>
inline int strips_across(int width) {
  constexpr int kStrip = strip_bytes(K, C, kLaneValues<K>);
  return (width * C + kStrip - 1) / kStrip;
}

// What a launch needs, for one compile-time K (the k8_streaming_k*.cu files instantiate it).
struct StreamLaunch {
  const std::uint8_t* in;
  void* out;
  int width, height, channels;
  int rows, warps;
  Border border;
  bool separable;
  StreamArithmetic arithmetic;
  bool f32_out;
  int shift;                // integer paths: weights are integers over 2^shift
  const float* float_taps;  // kMaxTaps
  const int* int_taps;
};

template <class Arith, int K, int C>
StreamArgs<Arith> stream_args(const StreamLaunch& l, const typename Arith::Acc* taps,
                              typename Arith::Acc init, int out_size) {
  StreamArgs<Arith> args;
  args.in = l.in;
  args.out = l.out;
  args.width = l.width;
  args.height = l.height;
  args.rows = l.rows;
  args.strips = strips_across<K, C>(l.width);
  args.border = l.border;
  args.vector_rows = (l.width * C) % 16 == 0 && reinterpret_cast<std::uintptr_t>(l.in) % 16 == 0 &&
                     reinterpret_cast<std::uintptr_t>(l.out) % 16 == 0 && out_size > 0;
  args.init = init;
  args.shift = l.shift;
  for (int i = 0; i < kMaxTaps; ++i) args.taps.w[i] = taps[i];
  return args;
}

inline dim3 stream_grid(const StreamLaunch& l, int strips) {
  return dim3(ceil_div(strips, l.warps), ceil_div(l.height, l.rows));
}

template <int K, int C, bool kSeparable, class Arith, typename OutT>
void launch_one(const StreamLaunch& l, const typename Arith::Acc* taps, typename Arith::Acc init,
                cudaStream_t stream) {
  const auto args = stream_args<Arith, K, C>(l, taps, init, static_cast<int>(sizeof(OutT)));
  streaming_kernel<K, C, kSeparable, Arith, OutT>
      <<<stream_grid(l, args.strips), 32 * l.warps, ring_bytes(kLaneValues<K>, l.warps), stream>>>(
          args);
  CONVLAB_CUDA_CHECK_LAUNCH("streaming_kernel");
}

template <int K, int C, bool kSeparable>
void launch_arith(const StreamLaunch& l, cudaStream_t stream) {
  const int int_init = l.shift > 0 ? 1 << (l.shift - 1) : 0;
  if constexpr (K <= kMaxPairsK && kSeparable) {
    if (l.arithmetic == StreamArithmetic::int16_pairs) {
      const auto args = stream_args<IntArithmetic, K, C>(l, l.int_taps, int_init, 1);
      paired_kernel<K, C>
          <<<stream_grid(l, args.strips), 32 * l.warps, ring_bytes(16, l.warps), stream>>>(args);
      CONVLAB_CUDA_CHECK_LAUNCH("paired_kernel");
      return;
    }
  }
  if constexpr (K <= kMaxInt32K) {
    if (l.arithmetic == StreamArithmetic::int32) {
      launch_one<K, C, kSeparable, IntArithmetic, std::uint8_t>(l, l.int_taps, int_init, stream);
      return;
    }
  }
  if (l.f32_out) {
    launch_one<K, C, kSeparable, FloatArithmetic, float>(l, l.float_taps, 0.0f, stream);
  } else {
    launch_one<K, C, kSeparable, FloatArithmetic, std::uint8_t>(l, l.float_taps, 0.5f, stream);
  }
}

template <int K>
void launch_streaming(const StreamLaunch& l, cudaStream_t stream) {
  auto with_c = [&](auto c) {
    constexpr int C = decltype(c)::value;
    if constexpr (K <= kMaxDirectK) {
      if (!l.separable) {
        launch_arith<K, C, false>(l, stream);
        return;
      }
    }
    launch_arith<K, C, true>(l, stream);
  };
  with_static_channels(l.channels, with_c);
}

}  // namespace streaming
}  // namespace convlab::cuda
