#include "impl/word_weights.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace convlab {
namespace {

// Smallest s <= 8 with every weight w = a / 2^s, a a non-negative integer, or -1.
int dyadic_exponent(const std::vector<float>& weights) {
  for (int s = 0; s <= 8; ++s) {
    const bool integral = std::all_of(weights.begin(), weights.end(), [s](float w) {
      const double a = std::ldexp(double(w), s);
      return a >= 0 && a == std::floor(a);
    });
    if (integral) return s;
  }
  return -1;
}

// The largest truncation floor(y) loses from y = v * a / 2^bits over integers v, in units of the
// result: 1 - gcd(a, 2^bits) / 2^bits (0 when a is a multiple of 2^bits, or 0).
double largest_truncation(std::uint32_t a, int bits) {
  const std::uint32_t unit = std::gcd(a, std::uint32_t{1} << bits);
  return 1.0 - std::ldexp(double(unit), -bits);
}

// max(sum of positive, sum of negative) differences between the fixed-point weights a / 2^16 and
// the weights w: the largest |sum (a_k / 2^16 - w_k) x_k| over x_k in [0, 1].
double quantisation_error(const std::vector<std::uint16_t>& a, const std::vector<double>& w) {
  double above = 0, below = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    const double d = std::ldexp(double(a[k]), -16) - w[k];
    (d > 0 ? above : below) += std::fabs(d);
  }
  return std::max(above, below);
}

// Rounds w * 2^16 to an integer weight, or nullopt when negative or too large for 16 bits.
std::optional<std::uint16_t> fixed_point(double w) {
  const double a = std::nearbyint(std::ldexp(w, 16));
  if (!(w >= 0) || a > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(a);
}

// The initial sum that centres the truncations (half their largest total) and the resulting
// error bound of the truncations, in units of the sum.
struct Centred {
  std::uint32_t start;
  double error;
};
Centred centre_truncations(const std::vector<std::uint16_t>& a, int bits) {
  double largest = 0;
  for (std::uint16_t w : a) largest += largest_truncation(w, bits);
  const auto start = static_cast<std::uint32_t>(std::nearbyint(largest / 2));
  return {start, std::max(double(start), largest - start)};
}

}  // namespace

std::optional<WordWeights> exact_word_weights(const Filter& filter, OutputType output) {
  if (output != OutputType::u8 || !filter.separable) return std::nullopt;
  const int s_row = dyadic_exponent(filter.row), s_column = dyadic_exponent(filter.column);
  if (s_row < 0 || s_column < 0) return std::nullopt;
  WordWeights w;
  w.kind = WordWeights::Kind::exact;
  long row_sum = 0, column_sum = 0;
  for (float v : filter.row) w.row.push_back(std::uint16_t(std::ldexp(double(v), s_row)));
  for (float v : filter.column) w.column.push_back(std::uint16_t(std::ldexp(double(v), s_column)));
  for (auto a : w.row) row_sum += a;
  for (auto a : w.column) column_sum += a;
  w.shift = s_row + s_column;
  const long half = w.shift > 0 ? 1L << (w.shift - 1) : 0;
  // Weights summing to at most 1 keep outputs within 0..255; every sum, with the rounding half,
  // must fit 16 bits whole (OpenCV's K = 3 and 5 Gaussians: 255 * 16 * 16 + 128).
  if (row_sum * column_sum > (1L << w.shift) || 255 * row_sum * column_sum + half > 65535)
    return std::nullopt;
  w.column_start = static_cast<std::uint16_t>(half);
  return w;
}

std::optional<WordWeights> fixed_point_word_weights(const Filter& filter, OutputType output) {
  if (output != OutputType::u8 || !filter.separable) return std::nullopt;
  // Rescaled so the row factor sums to 1; the column factor carries the scale.
  double row_sum = 0;
  for (float v : filter.row) row_sum += v;
  if (!(row_sum > 0)) return std::nullopt;
  std::vector<double> row, column;
  for (float v : filter.row) row.push_back(double(v) / row_sum);
  for (float v : filter.column) column.push_back(double(v) * row_sum);
  WordWeights w;
  w.kind = WordWeights::Kind::fixed_point;
  w.input_shift = 8;
  w.shift = 8;
  for (double v : row) {
    const auto a = fixed_point(v);
    if (!a) return std::nullopt;
    w.row.push_back(*a);
  }
  for (double v : column) {
    const auto b = fixed_point(v);
    if (!b) return std::nullopt;
    w.column.push_back(*b);
  }
  const Centred row_trunc = centre_truncations(w.row, 8);
  const Centred column_trunc = centre_truncations(w.column, 16);
  // The largest sums, of an all-255 input (each sum grows with every input value).
  std::uint32_t row_max = row_trunc.start, column_max = 128 + column_trunc.start;
  for (std::uint16_t a : w.row) row_max += (255u * a) >> 8;
  if (row_max > 65535) return std::nullopt;
  for (std::uint16_t b : w.column) column_max += (row_max * b) >> 16;
  if (column_max > 65535) return std::nullopt;
  double column_weight = 0;
  for (std::uint16_t b : w.column) column_weight += std::ldexp(double(b), -16);
  // Row sums are exact within row_error of sum w_k x_k, which lies in 0 .. 255 (sum w_k = 1).
  const double row_error = 255 * quantisation_error(w.row, row) + row_trunc.error / 256;
  // The reference multiplies by the float 2D weights, which differ from the products of the float
  // factors by float rounding: far below the 2^-12 levels added for it.
  w.error_bound = 255 * quantisation_error(w.column, column) + column_weight * row_error +
                  column_trunc.error / 256 + std::ldexp(1.0, -12);
  if (!(w.error_bound < 1.0)) return std::nullopt;
  w.row_start = static_cast<std::uint16_t>(row_trunc.start);
  w.column_start = static_cast<std::uint16_t>(128 + column_trunc.start);
  return w;
}

std::uint32_t word_sum(const WordWeights& weights, const std::uint8_t* window) {
  const bool high = weights.kind == WordWeights::Kind::fixed_point;
  auto product = [high](std::uint32_t value, std::uint32_t weight) {
    return high ? (value * weight) >> 16 : value * weight;
  };
  const size_t k = weights.row.size();
  std::uint32_t sum = weights.column_start;
  for (size_t ky = 0; ky < k; ++ky) {
    std::uint32_t row = weights.row_start;
    for (size_t kx = 0; kx < k; ++kx)
      row += product(std::uint32_t{window[ky * k + kx]} << weights.input_shift, weights.row[kx]);
    sum += product(row, weights.column[ky]);
  }
  return sum;
}

std::optional<WordWeights> word_weights(const Filter& filter, OutputType output) {
  if (auto exact = exact_word_weights(filter, output)) return exact;
  return fixed_point_word_weights(filter, output);
}

}  // namespace convlab
