// The separable factors of a kernel as 16-bit integers, for cpu_fused's arithmetic in 16-bit lanes
// (twice the lanes of a float vector) on u8 output. Two forms, chosen per kernel when the point is
// prepared:
//
// Exact (dyadic): every weight is a / 2^s with small integer a (OpenCV's default Gaussians up to
// K = 5: [1 2 1]/4, [1 4 6 4 1]/16). The row pass sums a * byte, the column pass a * row sum, all
// in exact integers (the low half of each 16-bit product), and one shift rounds half up at the end:
// the output is the correctly rounded reference. Used only where every sum fits 16 bits whole.
//
// Fixed point: any kernel whose two factors are non-negative (every Gaussian, box, binomial...).
// Weights are rounded to units of 2^-16 (a = round(w 2^16)), input bytes enter as x 2^8, and each
// product keeps the high half of the 32-bit product (vpmulhuw), truncated: the row pass gives
// R = start_r + sum floor(x_k a_k / 2^8), the row sum in units of 2^-8 levels; the column pass
// S = start_c + sum floor(R_j b_j / 2^16), the output floor(S / 2^8), start_c holding the 2^7 that
// makes that floor a round-half-up. Error bound, in levels, before that final rounding (so an
// output is within 1 of the correctly rounded reference whenever it is below 1):
//   row:    |R / 2^8 - sum w_k x_k| <= 255 * max(sum of positive d_k, sum of negative d_k)
//                                      + max(start_r, T_r - start_r) / 2^8 =: E_r
//           with d_k = a_k / 2^16 - w_k, T_r the sum over taps of the largest possible truncation
//           (1 - gcd(a_k, 2^8) / 2^8; 0 for a weight that is a multiple of 2^-8) and x_k in 0..255;
//   column: |S / 2^8 - 1/2 - sum v_j rho_j| <= 255 max(sum of positive e_j, sum of negative e_j)
//                                      + (sum b_j / 2^16) E_r + max(start_c', T_c - start_c') / 2^8
//           with e_j = b_j / 2^16 - v_j, rho_j the exact row sums (0 .. 255, as sum w_k = 1),
//           T_c = sum (1 - gcd(b_j, 2^16) / 2^16) and start_c' = start_c - 2^7.
// Each start is the nearest integer to half its T, which centres the truncations. No sum wraps:
// every product and sum is non-negative and grows with the input, so the largest R and S are those
// of an all-255 input, computed exactly here and required to fit 16 bits. The factors are first
// rescaled so the row factor sums to 1 (the column factor takes the scale). For K = 21 Gaussians
// the bound is about 0.15 levels; a kernel whose bound reaches 1 stays on the float path.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/filter.hpp"
#include "core/types.hpp"

namespace convlab {

struct WordWeights {
  enum class Kind { exact, fixed_point };
  Kind kind = Kind::exact;
  std::vector<std::uint16_t> row, column;
  int input_shift = 0;             // input bytes enter as x << input_shift
  int shift = 0;                   // the column sums are shifted right by this to give the output
  std::uint16_t row_start = 0;     // initial row sum: the truncation bias (fixed point)
  std::uint16_t column_start = 0;  // initial column sum: rounding half of shift, truncation bias
  double error_bound = 0.0;        // levels, before the final rounding (0: exact)
};

// The exact form, or nullopt when the factors are not small dyadic fractions whose sums fit
// 16 bits whole.
std::optional<WordWeights> exact_word_weights(const Filter& filter, OutputType output);

// The fixed-point form, or nullopt when a factor has a negative weight, a sum could exceed 16 bits
// or the error bound is not below 1 level.
std::optional<WordWeights> fixed_point_word_weights(const Filter& filter, OutputType output);

// The arithmetic of one output value done one value at a time, as the vector lanes do it: the
// column sum S from a K x K window of input bytes (window[ky * K + kx], every row inside the
// image); the output is S >> shift. For tests (the vector code must give the same bytes) and for
// checking the error bound on chosen windows.
std::uint32_t word_sum(const WordWeights& weights, const std::uint8_t* window);

// What cpu_fused runs: the exact form where it exists, else the fixed-point form, else nullopt
// (float arithmetic).
std::optional<WordWeights> word_weights(const Filter& filter, OutputType output);

}  // namespace convlab
