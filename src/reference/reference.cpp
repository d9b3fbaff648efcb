#include "reference/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace convlab {
namespace {

// Written independently of core/border.hpp so a mistake there cannot hide in both.
long reference_index(long p, long n, Border border) {
  if (p >= 0 && p < n) return p;
  switch (border) {
    case Border::zero:
      return -1;
    case Border::replicate:
      return std::clamp(p, 0L, n - 1);
    case Border::reflect:  // ... d c b | a b c d ... (edge not repeated)
      if (n == 1) return 0;
      while (p < 0 || p >= n) p = p < 0 ? -p : 2 * (n - 1) - p;
      return p;
    case Border::symmetric:  // ... c b a | a b c ... (edge repeated)
      while (p < 0 || p >= n) p = p < 0 ? -p - 1 : 2 * n - 1 - p;
      return p;
    case Border::wrap:
      return ((p % n) + n) % n;
  }
  return -1;
}

}  // namespace

Reference sized_reference(const Problem& problem) {
  Reference reference;
  reference.type = problem.output;
  reference.values.resize(problem.input.value_count());
  return reference;
}

ReferenceRows::ReferenceRows(const Problem& problem) : problem_(problem) {
  const long width = problem.input.width, k = problem.filter.size, r = k / 2;
  columns_.resize(static_cast<std::size_t>(width * k));
  for (long x = 0; x < width; ++x)
    for (long kx = 0; kx < k; ++kx)
      columns_[x * k + kx] = reference_index(x + kx - r, width, problem.border);
  weights_.assign(problem.filter.weights.begin(), problem.filter.weights.end());
}

// Pixels [x, x + Block) of row y, `Channels` channels each: every value a scalar double sum over
// the taps in (ky, kx) order, a tap outside a zero border skipped. The Block * Channels sums are
// independent of each other, held in registers, so they proceed side by side instead of each
// waiting for its previous addition.
template <int Channels, int Block>
void ReferenceRows::pixels(long y, long x, const long* rows, Reference& reference) const {
  const Image& in = problem_.input;
  const long width = in.width, k = problem_.filter.size;
  double sum[Block][Channels] = {};
  for (long ky = 0; ky < k; ++ky) {
    if (rows[ky] < 0) continue;
    const std::uint8_t* source_row = in.pixels.data() + rows[ky] * width * Channels;
    const double* weight = weights_.data() + ky * k;
    const long* column = columns_.data() + x * k;
    for (long kx = 0; kx < k; ++kx) {
      const double w = weight[kx];
#pragma GCC unroll 8
      for (int p = 0; p < Block; ++p) {
        const long source_column = column[p * k + kx];
        if (source_column < 0) continue;
        const std::uint8_t* source = source_row + source_column * Channels;
#pragma GCC unroll 4
        for (int c = 0; c < Channels; ++c) sum[p][c] += w * static_cast<double>(source[c]);
      }
    }
  }
  double* out = reference.values.data() + (y * width + x) * Channels;
  for (int p = 0; p < Block; ++p)
    for (int c = 0; c < Channels; ++c) out[p * Channels + c] = finished(sum[p][c]);
}

// Any other channel count: one value at a time.
void ReferenceRows::values(long y, const long* rows, Reference& reference) const {
  const Image& in = problem_.input;
  const long width = in.width, channels = in.channels, k = problem_.filter.size;
  for (long x = 0; x < width; ++x)
    for (long c = 0; c < channels; ++c) {
      double sum = 0.0;
      for (long ky = 0; ky < k; ++ky) {
        if (rows[ky] < 0) continue;
        for (long kx = 0; kx < k; ++kx) {
          const long column = columns_[x * k + kx];
          if (column < 0) continue;
          sum += weights_[ky * k + kx] *
                 static_cast<double>(in.pixels[(rows[ky] * width + column) * channels + c]);
        }
      }
      reference.values[(y * width + x) * channels + c] = finished(sum);
    }
}

double ReferenceRows::finished(double sum) const {
  return problem_.output == OutputType::u8 ? std::clamp(std::floor(sum + 0.5), 0.0, 255.0) : sum;
}

template <int Channels>
void ReferenceRows::row(long y, const long* rows, Reference& reference) const {
  constexpr int kBlock = 4;
  const long width = problem_.input.width;
  long x = 0;
  for (; x + kBlock <= width; x += kBlock) pixels<Channels, kBlock>(y, x, rows, reference);
  for (; x < width; ++x) pixels<Channels, 1>(y, x, rows, reference);
}

void ReferenceRows::compute(long first, long last, Reference& reference) const {
  const long height = problem_.input.height, k = problem_.filter.size, r = k / 2;
  std::vector<long> rows(static_cast<std::size_t>(k));
  for (long y = first; y < last; ++y) {
    for (long ky = 0; ky < k; ++ky) rows[ky] = reference_index(y + ky - r, height, problem_.border);
    if (problem_.input.channels == 3)
      row<3>(y, rows.data(), reference);
    else if (problem_.input.channels == 1)
      row<1>(y, rows.data(), reference);
    else
      values(y, rows.data(), reference);
  }
}

Reference compute_reference(const Problem& problem) {
  Reference reference = sized_reference(problem);
  const ReferenceRows rows(problem);
  const long height = problem.input.height;
#pragma omp parallel for schedule(dynamic, 4)
  for (long y = 0; y < height; ++y) rows.compute(y, y + 1, reference);
  return reference;
}

}  // namespace convlab
