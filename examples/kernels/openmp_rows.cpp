// The sequential loops of a first CPU version, with the rows of the image shared among OpenMP
// threads. Every output pixel reads its K x K window through the border rule and accumulates in
// float. The loop schedule is a param, so one config compares static, dynamic and guided.
//
// This is the algorithm of convlab's own openmp rung, written against the contract: the two
// measure alike (docs/own-kernels.md, "What the path costs").
//
// Params: SCHEDULE (static, dynamic or guided); threads: the config's `threads` list.
#include <convlab/kernel.h>

CONVLAB_CONTRACT(1);

static void convolve_row(const convlab_problem* p, int y) {
  const int r = p->ksize / 2;
  const int channels = p->channels;
  for (int x = 0; x < p->width; ++x) {
    float sum[3] = {0.f, 0.f, 0.f};
    for (int ky = 0; ky < p->ksize; ++ky) {
      const int sy = convlab_border_index(y + ky - r, p->height, p->border);
      if (sy < 0) continue;
      for (int kx = 0; kx < p->ksize; ++kx) {
        const int sx = convlab_border_index(x + kx - r, p->width, p->border);
        if (sx < 0) continue;
        const float w = p->weights[ky * p->ksize + kx];
        const unsigned char* pixel = p->in + sy * p->in_pitch + (long long)sx * channels;
        for (int c = 0; c < channels; ++c) sum[c] += w * (float)pixel[c];
      }
    }
    const long long first = ((long long)y * p->width + x) * channels;
    for (int c = 0; c < channels; ++c) convlab_store(p->out, first + c, p->output, sum[c]);
  }
}

CONVLAB_CPU_ENTRY(const convlab_problem* p) {
#pragma omp parallel for schedule(SCHEDULE)
  for (int y = 0; y < p->height; ++y) convolve_row(p, y);
  return 0;
}
