// convlab's own openmp rung (src/impl/openmp.cpp with direct_loops.hpp and cpu_output.hpp), line
// for line, as a user's kernel: what the own-kernel path costs is measured by running the two side
// by side (configs/own_kernels_overhead_cpu.yaml). The rung's types are mirrored by small ones of
// the same shape, so that the compiler sees the same loops. openmp_rows.cpp is the same algorithm
// written plainly against the contract.
//
// Params: none; threads: the config's `threads`, as openmp's (static schedule, default chunk).
#include <convlab/kernel.h>
#include <omp.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

CONVLAB_CONTRACT(1);

namespace {

struct Image {
  int width, height, channels;
  const std::uint8_t* pixels;
};
struct Filter {
  int size;
  const float* weights;
  int radius() const { return size / 2; }
  float at(int ky, int kx) const { return weights[static_cast<size_t>(ky) * size + kx]; }
};

inline int positive_modulo(int p, int n) {
  const int r = p % n;
  return r < 0 ? r + n : r;
}
inline int map_border_index(int p, int n, int border) {
  if (p >= 0 && p < n) return p;
  switch (border) {
    case CONVLAB_BORDER_ZERO:
      return -1;
    case CONVLAB_BORDER_REPLICATE:
      return p < 0 ? 0 : n - 1;
    case CONVLAB_BORDER_REFLECT: {
      if (n == 1) return 0;
      const int period = 2 * n - 2;
      const int q = positive_modulo(p, period);
      return q < n ? q : period - q;
    }
    case CONVLAB_BORDER_SYMMETRIC: {
      const int period = 2 * n;
      const int q = positive_modulo(p, period);
      return q < n ? q : period - 1 - q;
    }
    case CONVLAB_BORDER_WRAP:
      return positive_modulo(p, n);
  }
  return -1;
}

inline std::uint8_t to_u8(float value) {
  const float rounded = std::floor(value + 0.5f);
  return static_cast<std::uint8_t>(rounded < 0.f ? 0.f : (rounded > 255.f ? 255.f : rounded));
}

struct HostOutput {
  bool u8;
  void* data;
  void store(size_t index, float value) {
    if (u8)
      static_cast<std::uint8_t*>(data)[index] = to_u8(value);
    else
      static_cast<float*>(data)[index] = value;
  }
};

inline void direct_convolve_row(const Image& in, const Filter& filter, int border, HostOutput& out,
                                int y) {
  const int r = filter.radius();
  const int channels = in.channels;
  for (int x = 0; x < in.width; ++x) {
    float sums[3] = {0.f, 0.f, 0.f};
    for (int ky = 0; ky < filter.size; ++ky) {
      const int sy = map_border_index(y + ky - r, in.height, border);
      if (sy == -1) continue;
      for (int kx = 0; kx < filter.size; ++kx) {
        const int sx = map_border_index(x + kx - r, in.width, border);
        if (sx == -1) continue;
        const float w = filter.at(ky, kx);
        const std::uint8_t* pixel =
            &in.pixels[(static_cast<size_t>(sy) * in.width + sx) * channels];
        for (int c = 0; c < channels; ++c) sums[c] += w * static_cast<float>(pixel[c]);
      }
    }
    const size_t base = (static_cast<size_t>(y) * in.width + x) * channels;
    for (int c = 0; c < channels; ++c) out.store(base + c, sums[c]);
  }
}

}  // namespace

CONVLAB_CPU_ENTRY(const convlab_problem* p) {
  const Image in{p->width, p->height, p->channels, p->in};
  const Filter filter{p->ksize, p->weights};
  HostOutput out{p->output == CONVLAB_OUTPUT_U8, p->out};
  omp_set_schedule(omp_sched_static, 0);
  const int height = in.height;
#pragma omp parallel for num_threads(p->threads) schedule(runtime)
  for (int y = 0; y < height; ++y) direct_convolve_row(in, filter, p->border, out, y);
  return 0;
}
