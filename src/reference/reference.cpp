#include "reference/reference.hpp"

#include <algorithm>
#include <cmath>

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

Reference compute_reference(const Problem& problem) {
  const Image& in = problem.input;
  const Filter& filter = problem.filter;
  const long width = in.width, height = in.height, channels = in.channels;
  const long k = filter.size, r = filter.size / 2;
  Reference reference;
  reference.type = problem.output;
  reference.values.resize(in.value_count());
#pragma omp parallel for schedule(dynamic, 4)
  for (long y = 0; y < height; ++y)
    for (long x = 0; x < width; ++x)
      for (long c = 0; c < channels; ++c) {
        double sum = 0.0;
        for (long ky = 0; ky < k; ++ky) {
          const long sy = reference_index(y + ky - r, height, problem.border);
          if (sy < 0) continue;
          for (long kx = 0; kx < k; ++kx) {
            const long sx = reference_index(x + kx - r, width, problem.border);
            if (sx < 0) continue;
            sum += static_cast<double>(filter.weights[ky * k + kx]) *
                   static_cast<double>(in.pixels[(sy * width + sx) * channels + c]);
          }
        }
        if (problem.output == OutputType::u8) sum = std::clamp(std::floor(sum + 0.5), 0.0, 255.0);
        reference.values[(y * width + x) * channels + c] = sum;
      }
  return reference;
}

}  // namespace convlab
