// The host work of one problem of a device worker, timed on this machine's CPUs: making the image
// (generation and its SHA-256), the double reference, and verifying one output against it, with
// 1 .. N OpenMP threads. A device worker does this once per problem (image, reference) and once
// per point (verification) while its GPU waits, so these times bound how fast a GPU sweep over
// large images can go (docs/scale-out.md, "Where a device worker's time goes").
//
//   convlab_host_work [SIZE] [CHANNELS] [K...] [--threads 1,2] [--repeats R] [--before]
//   convlab_host_work 8192 3 3 13 --threads 1,2 --before
//
// --before also times the reference as it was computed before (the border resolved at every tap),
// for the replicate border.
//
// Prints one line per (phase, K, threads): the median of R runs, wall and CPU seconds. A note, not
// a test: the numbers depend on the machine and on what else it is doing.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "core/stopwatch.hpp"
#include "filters/filter_library.hpp"
#include "images/image_source.hpp"
#include "reference/reference.hpp"
#include "verify/verify.hpp"

namespace {

using namespace convlab;

struct Options {
  int size = 8192, channels = 3, repeats = 1;
  bool before = false;
  std::vector<int> sizes;
  std::vector<int> threads;
};

std::vector<int> numbers(const std::string& list) {
  std::vector<int> out;
  for (std::size_t begin = 0; begin <= list.size();) {
    const std::size_t comma = std::min(list.find(',', begin), list.size());
    out.push_back(std::atoi(list.substr(begin, comma - begin).c_str()));
    begin = comma + 1;
  }
  return out;
}

Options parse(int argc, char** argv) {
  Options options;
  std::vector<int> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--threads" && i + 1 < argc) {
      options.threads = numbers(argv[++i]);
    } else if (arg == "--before") {
      options.before = true;
    } else if (arg == "--repeats" && i + 1 < argc) {
      options.repeats = std::max(1, std::atoi(argv[++i]));
    } else {
      positional.push_back(std::atoi(arg.c_str()));
    }
  }
  if (positional.size() > 0) options.size = positional[0];
  if (positional.size() > 1) options.channels = positional[1];
  options.sizes.assign(positional.begin() + std::min<std::size_t>(2, positional.size()),
                       positional.end());
  if (options.sizes.empty()) options.sizes = {3, 13};
  if (options.threads.empty()) options.threads = {1, omp_get_max_threads()};
  return options;
}

// Wall and CPU seconds (all threads of the process): on a shared machine the CPU time per value
// stays what the work costs when the wall time does not.
struct Seconds {
  double wall = 0.0, cpu = 0.0;
};

template <class Work>
Seconds median_seconds(int repeats, Work work) {
  std::vector<Seconds> seconds;
  for (int r = 0; r < repeats; ++r) {
    Stopwatch clock;
    const std::clock_t cpu = std::clock();
    work();
    seconds.push_back({clock.elapsed_seconds(), double(std::clock() - cpu) / CLOCKS_PER_SEC});
  }
  std::sort(seconds.begin(), seconds.end(),
            [](const Seconds& a, const Seconds& b) { return a.wall < b.wall; });
  return seconds[seconds.size() / 2];
}

void line(const char* phase, int k, int threads, Seconds seconds, double values) {
  std::printf(
      "%-10s K=%-3d threads=%-3d wall %8.3f s %7.2f ns per value   CPU %8.3f s %7.2f ns "
      "per value\n",
      phase, k, threads, seconds.wall, 1e9 * seconds.wall / values, seconds.cpu,
      1e9 * seconds.cpu / values);
  std::fflush(stdout);
}

// The reference as convlab computed it before reference/reference.cpp resolved the border once per
// problem: the border function at every tap, one value at a time (the same sums, slower).
long border_index(long p, long n) {
  return std::clamp(p, 0L, n - 1);  // replicate, the border timed here
}

Reference reference_before(const Problem& problem) {
  const Image& in = problem.input;
  const long width = in.width, height = in.height, channels = in.channels;
  const long k = problem.filter.size, r = k / 2;
  Reference reference = sized_reference(problem);
#pragma omp parallel for schedule(dynamic, 4)
  for (long y = 0; y < height; ++y)
    for (long x = 0; x < width; ++x)
      for (long c = 0; c < channels; ++c) {
        double sum = 0.0;
        for (long ky = 0; ky < k; ++ky) {
          const long sy = border_index(y + ky - r, height);
          for (long kx = 0; kx < k; ++kx) {
            const long sx = border_index(x + kx - r, width);
            sum += static_cast<double>(problem.filter.weights[ky * k + kx]) *
                   static_cast<double>(in.pixels[(sy * width + sx) * channels + c]);
          }
        }
        reference.values[(y * width + x) * channels + c] =
            std::clamp(std::floor(sum + 0.5), 0.0, 255.0);
      }
  return reference;
}

// The output an exact implementation would give: the reference itself, in u8.
std::vector<std::uint8_t> exact_output(const Reference& reference) {
  std::vector<std::uint8_t> out(reference.values.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(reference.values[i]);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  std::printf("host work of one problem: RGB %dx%d, %d channels, median of %d\n", options.size,
              options.size, options.channels, options.repeats);
  Image image;
  const Seconds generation = median_seconds(options.repeats, [&] {
    image = generate_image(options.size, options.size, options.channels, 42, "noise");
  });
  const double values = double(image.value_count());
  line("image", 0, 1, generation, values);
  for (int k : options.sizes) {
    FilterRequest request;
    request.type = "gaussian";
    request.size = k;
    const Filter filter = make_filter(request);
    const Problem problem{image, filter, Border::replicate, OutputType::u8};
    for (int threads : options.threads) {
      omp_set_num_threads(threads);
      Reference reference;
      if (options.before)
        line("ref before", k, threads,
             median_seconds(options.repeats, [&] { reference = reference_before(problem); }),
             values);
      line("reference", k, threads,
           median_seconds(options.repeats, [&] { reference = compute_reference(problem); }),
           values);
      const std::vector<std::uint8_t> output = exact_output(reference);
      const OutputView view{OutputType::u8, output.data(), output.size()};
      line("verify", k, threads,
           median_seconds(options.repeats, [&] { verify_output(view, reference, 1.0); }), values);
    }
  }
  return 0;
}
