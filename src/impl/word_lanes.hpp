// One vector register of unsigned 16-bit integers as one value, for exact integer arithmetic on
// u8 images (cpu_fused's path for kernels whose weights are small dyadic fractions, such as
// OpenCV's default Gaussians for K = 3 and 5): twice the lanes of a float register, and no
// rounding until the one final shift. As float_lanes.hpp: GCC/Clang vector extensions sized to the
// target (32 words with AVX-512BW, 16 with AVX2, 8 otherwise), intrinsics only for the
// conversions between bytes and words, each with a portable branch.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace convlab::lanes {

#if defined(__AVX512BW__)
constexpr int kWordWidth = 32;
#elif defined(__AVX2__)
constexpr int kWordWidth = 16;
#else
constexpr int kWordWidth = 8;
#endif

using Words = std::uint16_t __attribute__((vector_size(kWordWidth * sizeof(std::uint16_t))));

inline Words load(const std::uint16_t* p) {
  Words v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store(std::uint16_t* p, Words v) {
  std::memcpy(p, &v, sizeof v);
}

inline Words splat_word(std::uint16_t w) {
  return w + Words{};
}

// kWordWidth bytes widened to words (vpmovzxbw).
inline Words load_u8_words(const std::uint8_t* p) {
#if defined(__AVX512BW__)
  const __m512i words = _mm512_maskz_cvtepu8_epi16(
      0xFFFFFFFFu, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  return reinterpret_cast<Words>(words);
#elif defined(__AVX2__)
  return reinterpret_cast<Words>(
      _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
#else
  Words v;
  for (int i = 0; i < kWordWidth; ++i) v[i] = p[i];
  return v;
#endif
}

// 2 kWordWidth bytes as they lie in memory, each word holding two neighbouring bytes (the first in
// its low half: x86 and every other target here are little-endian), and back. Splitting a word
// into its low byte (v & 0xFF) and high byte (v >> 8) widens the even and the odd bytes with one
// operation each and no shuffle; joining them (low | high << 8) narrows them back in order.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "words split into bytes by position");
inline Words load_byte_pairs(const std::uint8_t* p) {
  Words v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Streamed past the caches when p is aligned for it (see lanes::store_u8); end with
// lanes::stream_fence().
inline void store_byte_pairs(std::uint8_t* p, Words v, bool stream) {
#if defined(__AVX512BW__)
  if (stream && reinterpret_cast<std::uintptr_t>(p) % 64 == 0)
    return _mm512_stream_si512(reinterpret_cast<__m512i*>(p), reinterpret_cast<__m512i>(v));
#elif defined(__AVX2__)
  if (stream && reinterpret_cast<std::uintptr_t>(p) % 32 == 0)
    return _mm256_stream_si256(reinterpret_cast<__m256i*>(p), reinterpret_cast<__m256i>(v));
#elif defined(__SSE2__)
  if (stream && reinterpret_cast<std::uintptr_t>(p) % 16 == 0)
    return _mm_stream_si128(reinterpret_cast<__m128i*>(p), reinterpret_cast<__m128i>(v));
#endif
  (void)stream;
  std::memcpy(p, &v, sizeof v);
}

// The high half of each 32-bit product a * b (vpmulhuw): floor(a b / 2^16), for fixed-point
// weights in units of 2^-16.
inline Words mulhi(Words a, Words b) {
#if defined(__AVX512BW__)
  return reinterpret_cast<Words>(
      _mm512_mulhi_epu16(reinterpret_cast<__m512i>(a), reinterpret_cast<__m512i>(b)));
#elif defined(__AVX2__)
  return reinterpret_cast<Words>(
      _mm256_mulhi_epu16(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(b)));
#elif defined(__SSE2__)
  return reinterpret_cast<Words>(
      _mm_mulhi_epu16(reinterpret_cast<__m128i>(a), reinterpret_cast<__m128i>(b)));
#else
  using Wide = std::uint32_t __attribute__((vector_size(kWordWidth * sizeof(std::uint32_t))));
  return __builtin_convertvector(
      (__builtin_convertvector(a, Wide) * __builtin_convertvector(b, Wide)) >> 16, Words);
#endif
}

// Words holding values 0..255 narrowed to bytes (vpmovwb), streamed past the caches when p is
// aligned for it (see lanes::store_u8); end with lanes::stream_fence().
inline void store_words_u8(std::uint8_t* p, Words v, bool stream) {
#if defined(__AVX512BW__)
  const __m256i bytes = _mm512_maskz_cvtepi16_epi8(0xFFFFFFFFu, reinterpret_cast<__m512i>(v));
  if (stream && reinterpret_cast<std::uintptr_t>(p) % 32 == 0)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), bytes);
  else
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), bytes);
#elif defined(__AVX2__)
  const __m256i all = reinterpret_cast<__m256i>(v);
  const __m128i bytes =
      _mm_packus_epi16(_mm256_castsi256_si128(all), _mm256_extracti128_si256(all, 1));
  if (stream && reinterpret_cast<std::uintptr_t>(p) % 16 == 0)
    _mm_stream_si128(reinterpret_cast<__m128i*>(p), bytes);
  else
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), bytes);
#else
  (void)stream;
  for (int i = 0; i < kWordWidth; ++i) p[i] = static_cast<std::uint8_t>(v[i]);
#endif
}

}  // namespace convlab::lanes
