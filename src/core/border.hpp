// Index mapping for out-of-range reads: where pixel p of a row or column of n pixels comes from.
// Host and device code share these so every implementation agrees with the reference.
#pragma once

#include "core/types.hpp"

#if defined(__CUDACC__)
#define CONVLAB_HOST_DEVICE __host__ __device__
#else
#define CONVLAB_HOST_DEVICE
#endif

namespace convlab {

// Returned for the zero border when p is outside [0, n): the caller reads 0.
constexpr int kOutsideImage = -1;

CONVLAB_HOST_DEVICE inline int positive_modulo(int p, int n) {
  const int r = p % n;
  return r < 0 ? r + n : r;
}

// Maps p to [0, n), or to kOutsideImage for the zero border. n must be positive.
// reflect and symmetric repeat their mirror as often as needed, so any p is valid, also
// when the kernel is larger than the image.
CONVLAB_HOST_DEVICE inline int map_border_index(int p, int n, Border border) {
  if (p >= 0 && p < n) return p;
  switch (border) {
    case Border::zero:
      return kOutsideImage;
    case Border::replicate:
      return p < 0 ? 0 : n - 1;
    case Border::reflect: {  // OpenCV REFLECT_101: period 2n-2, edge pixel not repeated
      if (n == 1) return 0;
      const int period = 2 * n - 2;
      const int q = positive_modulo(p, period);
      return q < n ? q : period - q;
    }
    case Border::symmetric: {  // OpenCV REFLECT: period 2n, edge pixel repeated
      const int period = 2 * n;
      const int q = positive_modulo(p, period);
      return q < n ? q : period - 1 - q;
    }
    case Border::wrap:
      return positive_modulo(p, n);
  }
  return kOutsideImage;
}

}  // namespace convlab
