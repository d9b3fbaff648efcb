// Rung 8's choice of arithmetic (streaming_arithmetic.hpp). The u8 results of dyadic kernels are
// summed in integers where that is the faster path (16-bit pairs) or the kernel is small (32-bit);
// every other point in FP32, which is exact too for the dyadic kernels whose scaled sums stay below
// 2^24 (the larger OpenCV Gaussians, Sobel of size 5 to 11).
#include "impl/cuda/streaming_arithmetic.hpp"

#include <cmath>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <vector>

namespace convlab::cuda::streaming {

namespace {

// Integer factors of a dyadic rank-1 kernel: weights[i][j] = column[i] * row[j] / 2^shift.
struct IntFactors {
  std::vector<int> row, column;
  int shift = 0;
};

// Integer weights of a dyadic kernel: every weight w = n / 2^shift exactly.
constexpr int kMaxShift = 24;

// The smallest shift with every value * 2^shift an integer (exactly, in double), or nullopt.
std::optional<int> dyadic_shift(const std::vector<double>& values) {
  for (int shift = 0; shift <= kMaxShift; ++shift) {
    bool integral = true;
    for (double v : values) {
      const double scaled = std::ldexp(v, shift);
      if (scaled != std::floor(scaled) || std::fabs(scaled) > 1e9) {
        integral = false;
        break;
      }
    }
    if (integral) return shift;
  }
  return std::nullopt;
}

std::vector<int> scaled_integers(const std::vector<double>& values, int shift) {
  std::vector<int> out;
  for (double v : values) out.push_back(static_cast<int>(std::ldexp(v, shift)));
  return out;
}

double abs_sum(const std::vector<int>& values) {
  double sum = 0.0;
  for (int v : values) sum += std::fabs(static_cast<double>(v));
  return sum;
}

// The sums of u8 values (at most 255) with these integer weights, plus the rounding bias, fit a
// signed 32-bit integer.
bool fits_int32(double weight_abs_sum, int shift) {
  return 255.0 * weight_abs_sum + std::ldexp(1.0, shift) < 2147483647.0;
}

}  // namespace

bool rank1(const ProblemDesc& p) {
  return p.ksize == 1 || (p.separable && p.row != nullptr && p.column != nullptr);
}

namespace {

// The weights scaled to integers by their common shift factor into integer vectors: the pivot's
// column divided by the greatest common divisor of its entries, and the pivot's row divided by
// that column's entry there; they must multiply back to the matrix exactly. (Dividing by the pivot
// itself, as a factorisation over the reals does, leaves thirds and sixths wherever the centre
// weight is no power of two: OpenCV's 5x5 Gaussian, whose centre is 36/256, then missed the
// 16-bit path its sums fit.)
std::optional<IntFactors> dyadic_factors(const ProblemDesc& p) {
  const int k = p.ksize;
  const std::vector<double> weights(p.weights, p.weights + k * k);
  const auto shift = dyadic_shift(weights);
  if (!shift) return std::nullopt;
  const std::vector<int> m = scaled_integers(weights, *shift);
  int pivot = 0;
  for (int i = 0; i < k * k; ++i)
    if (std::abs(m[i]) > std::abs(m[pivot])) pivot = i;
  if (m[pivot] == 0) return std::nullopt;
  const int pivot_row = pivot / k, pivot_column = pivot % k;
  int divisor = 0;
  for (int i = 0; i < k; ++i) divisor = std::gcd(divisor, std::abs(m[i * k + pivot_column]));
  IntFactors f{{}, {}, *shift};
  for (int i = 0; i < k; ++i) f.column.push_back(m[i * k + pivot_column] / divisor);
  const int at_pivot = f.column[pivot_row];
  for (int j = 0; j < k; ++j) {
    if (m[pivot_row * k + j] % at_pivot != 0) return std::nullopt;
    f.row.push_back(m[pivot_row * k + j] / at_pivot);
  }
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)
      if (static_cast<long long>(f.column[i]) * f.row[j] != m[i * k + j]) return std::nullopt;
  return f;
}

bool non_negative(const std::vector<int>& values) {
  for (int v : values)
    if (v < 0) return false;
  return true;
}

// 16-bit pairs: non-negative factors, total shift at most 8 (the row factor is scaled up to
// exactly 8), column sums and the scaled full sums plus the rounding bias below 2^16.
std::optional<Arithmetic> paired_arithmetic(const IntFactors& f, int k) {
  if (k > kMaxPairsK || f.shift > 8 || !non_negative(f.row) || !non_negative(f.column))
    return std::nullopt;
  const double column_sum = abs_sum(f.column);
  const double row_sum = abs_sum(f.row) * std::ldexp(1.0, 8 - f.shift);
  if (255.0 * column_sum >= 65536.0 || 255.0 * column_sum * row_sum + 128.0 >= 65536.0)
    return std::nullopt;
  Arithmetic a;
  a.separable = true;
  a.kind = StreamArithmetic::int16_pairs;
  a.shift = 8;
  for (int j = 0; j < k; ++j) a.int_taps[j] = f.row[j] << (8 - f.shift);
  for (int i = 0; i < k; ++i) a.int_taps[k + i] = f.column[i];
  return a;
}

// 32-bit integers, for the small kernels with signed weights (Sobel, Prewitt, Laplacian): rank 1
// as two passes, otherwise direct.
std::optional<Arithmetic> int32_arithmetic(const ProblemDesc& p,
                                           const std::optional<IntFactors>& f) {
  const int k = p.ksize;
  if (k > kMaxInt32K) return std::nullopt;
  Arithmetic a;
  a.kind = StreamArithmetic::int32;
  if (f && rank1(p)) {
    if (!fits_int32(abs_sum(f->row), 0) ||
        !fits_int32(abs_sum(f->row) * abs_sum(f->column), f->shift))
      return std::nullopt;
    a.separable = true;
    a.shift = f->shift;
    for (int j = 0; j < k; ++j) a.int_taps[j] = f->row[j];
    for (int i = 0; i < k; ++i) a.int_taps[k + i] = f->column[i];
    return a;
  }
  const std::vector<double> weights(p.weights, p.weights + k * k);
  const auto shift = dyadic_shift(weights);
  if (!shift) return std::nullopt;
  const std::vector<int> ints = scaled_integers(weights, *shift);
  if (!fits_int32(abs_sum(ints), *shift)) return std::nullopt;
  a.shift = *shift;
  for (int i = 0; i < k * k; ++i) a.int_taps[i] = ints[i];
  return a;
}

}  // namespace

Arithmetic choose_arithmetic(const ProblemDesc& p) {
  if (p.output == OutputType::u8) {
    const auto factors = rank1(p) ? dyadic_factors(p) : std::nullopt;
    if (factors)
      if (auto a = paired_arithmetic(*factors, p.ksize)) return *a;
    if (auto a = int32_arithmetic(p, factors)) return *a;
  }
  Arithmetic a;
  if (rank1(p)) {
    a.separable = true;
    for (int j = 0; j < p.ksize; ++j) {
      a.float_taps[j] = p.ksize == 1 ? p.weights[0] : p.row[j];
      a.float_taps[p.ksize + j] = p.ksize == 1 ? 1.0f : p.column[j];
    }
    return a;
  }
  for (int i = 0; i < p.ksize * p.ksize && i < kMaxTaps; ++i) a.float_taps[i] = p.weights[i];
  return a;
}

Arithmetic choose_arithmetic(const Filter& filter, OutputType output) {
  ProblemDesc desc;
  desc.ksize = filter.size;
  desc.weights = filter.weights.data();
  desc.separable = filter.separable;
  desc.column = filter.separable ? filter.column.data() : nullptr;
  desc.row = filter.separable ? filter.row.data() : nullptr;
  desc.output = output;
  return choose_arithmetic(desc);
}

}  // namespace convlab::cuda::streaming
