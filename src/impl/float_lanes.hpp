// One vector register of floats as one value, for the hot loops of the CPU rungs that keep their
// sums in registers. Arithmetic uses GCC/Clang vector extensions, sized to the target's widest
// registers: 16 floats with AVX-512 (32 zmm registers), 8 with AVX2 (16 ymm), 4 otherwise (SSE or
// any other target). The rungs size their register blocks from kWidth and kRegisters, so the same
// source is right for each. Memory is reached through memcpy, which compiles to an unaligned
// vector load or store. Only the conversions between bytes and floats need intrinsics (AVX-512,
// AVX2): GCC 12 turns __builtin_convertvector between bytes and wider lanes into scalar code. The
// portable branch applies the same rule one value at a time.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace convlab::lanes {

#if defined(__AVX512F__)
constexpr int kWidth = 16;
constexpr int kRegisters = 32;
#elif defined(__AVX2__)
constexpr int kWidth = 8;
constexpr int kRegisters = 16;
#else
constexpr int kWidth = 4;
constexpr int kRegisters = 16;
#endif

using Floats = float __attribute__((vector_size(kWidth * sizeof(float))));
using Ints = std::int32_t __attribute__((vector_size(kWidth * sizeof(std::int32_t))));

inline Floats load(const float* p) {
  Floats v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store(float* p, Floats v) {
  std::memcpy(p, &v, sizeof v);
}

// w in every lane. (Floats{} + w would keep a scalar 0 + w, which is not w when w is -0.)
inline Floats splat(float w) {
  return w - Floats{};
}

// kWidth bytes widened to floats (vpmovzxbd, vcvtdq2ps).
inline Floats load_u8(const std::uint8_t* p) {
#if defined(__AVX512F__)
  // The maskz form: GCC 12 warns about the unmasked intrinsic's undefined pass-through operand.
  const __m512i ints =
      _mm512_maskz_cvtepu8_epi32(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  return __builtin_convertvector(reinterpret_cast<Ints>(ints), Floats);
#elif defined(__AVX2__)
  const __m256i ints = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
  return __builtin_convertvector(reinterpret_cast<Ints>(ints), Floats);
#else
  Floats v;
  for (int i = 0; i < kWidth; ++i) v[i] = static_cast<float>(p[i]);
  return v;
#endif
}

// convlab's u8 rule, floor(v + 0.5) clamped to 0..255, for kWidth values.
// Stream: write around the caches (a non-temporal store where the target has one and p is
// aligned for it), for output that is not read again soon. It spares the read of each output line
// that an ordinary store makes before writing it. End a thread's streaming with stream_fence().
inline void store_u8(std::uint8_t* p, Floats v, bool stream = false) {
  v += 0.5f;
#if defined(__AVX512F__)
  // Truncation is the floor for v >= 0; negative values become 0 (vpmaxsd), and the narrowing
  // saturates above 255 (vpmovusdb). The cap first keeps huge sums off the conversion's overflow
  // value (INT_MIN).
  v = v < 256.f ? v : 256.f;
  Ints ints = __builtin_convertvector(v, Ints);
  ints = ints > 0 ? ints : 0;
  const __m128i bytes = _mm512_maskz_cvtusepi32_epi8(0xFFFF, reinterpret_cast<__m512i>(ints));
  if (stream && reinterpret_cast<std::uintptr_t>(p) % 16 == 0)
    _mm_stream_si128(reinterpret_cast<__m128i*>(p), bytes);
  else
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), bytes);
#else
  // After the clamp the value is non-negative, so truncation is the floor.
  v = v > 0.f ? v : 0.f;
  v = v < 255.f ? v : 255.f;
  const Ints ints = __builtin_convertvector(v, Ints);  // truncation (vcvttps2dq)
#if defined(__AVX2__)
  const __m256i all = reinterpret_cast<__m256i>(ints);
  const __m128i words =
      _mm_packus_epi32(_mm256_castsi256_si128(all), _mm256_extracti128_si256(all, 1));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_packus_epi16(words, words));
#else
  for (int i = 0; i < kWidth; ++i) p[i] = static_cast<std::uint8_t>(ints[i]);
#endif
  (void)stream;
#endif
}

inline void store(float* p, Floats v, bool stream) {
#if defined(__AVX512F__)
  if (stream && reinterpret_cast<std::uintptr_t>(p) % 64 == 0) {
    _mm512_stream_ps(p, reinterpret_cast<__m512>(v));
    return;
  }
#elif defined(__AVX2__)
  if (stream && reinterpret_cast<std::uintptr_t>(p) % 32 == 0) {
    _mm256_stream_ps(p, reinterpret_cast<__m256>(v));
    return;
  }
#endif
  (void)stream;
  store(p, v);
}

// Orders this thread's streamed stores before what follows (the end of the parallel region).
inline void stream_fence() {
#if defined(__AVX2__)
  _mm_sfence();
#endif
}

// A float buffer on a 64-byte boundary (a cache line, an AVX-512 register), zero-filled, so
// rounded-up vector loops read initialised memory past the last useful value.
class AlignedFloats {
 public:
  AlignedFloats() = default;
  explicit AlignedFloats(size_t count)
      : count_(count),
        data_(static_cast<float*>(std::aligned_alloc(64, bytes_for(count))), &std::free) {
    if (!data_) throw std::bad_alloc();
    std::memset(data_.get(), 0, bytes_for(count));
  }
  float* data() { return data_.get(); }
  const float* data() const { return data_.get(); }
  size_t size() const { return count_; }

 private:
  static size_t bytes_for(size_t count) { return (count * sizeof(float) + 63) / 64 * 64 + 64; }
  size_t count_ = 0;
  std::unique_ptr<float, decltype(&std::free)> data_{nullptr, &std::free};
};

inline int round_up(int value, int multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

}  // namespace convlab::lanes
