#include "measure/cpu_calibration.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <vector>

#include "core/number_text.hpp"

namespace convlab {
namespace {

using Clock = std::chrono::steady_clock;

// The limits of a calibration gap (cpu_calibration.hpp says why these).
constexpr double kFmaRateLimit = 0.10;
constexpr double kCopyRateLimit = 1.0;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The best rate each thread reaches, summed: every thread repeats its own piece of work for the
// budget and keeps its fastest repetition. A thread that another program pre-empts for a moment
// loses that repetition only, and no thread waits for another between repetitions, so the
// figure stays the machine's on a busy host too.
template <typename Repetition>
double summed_best_rates(double budget, double work_per_repetition, Repetition repetition) {
  double total = 0.0;
#pragma omp parallel reduction(+ : total)
  {
    double best = 0.0;
    const Clock::time_point start = Clock::now();
    for (int round = 0; round < 2 || (seconds_since(start) < budget && round < 100000); ++round) {
      const Clock::time_point round_start = Clock::now();
      repetition(omp_get_thread_num(), omp_get_num_threads());
      const double seconds = seconds_since(round_start);
      if (seconds > 0) best = std::max(best, work_per_repetition / seconds);
    }
    total = best;
  }
  return total;
}

// Two buffers of 64 MiB: larger than the last-level cache of most machines convlab runs on, so a
// copy streams from memory. Each thread copies its own share, touched by it first.
constexpr std::size_t kCopyFloats = std::size_t(64) << 18;

double copy_rate(double budget, int threads) {
  const Clock::time_point start = Clock::now();
  std::unique_ptr<float[]> from(new float[kCopyFloats]);
  std::unique_ptr<float[]> to(new float[kCopyFloats]);
  const std::size_t share = kCopyFloats / static_cast<std::size_t>(threads);
  const auto copy_share = [&](int thread, int) {
    const std::size_t begin = share * static_cast<std::size_t>(thread);
    std::copy(from.get() + begin, from.get() + begin + share, to.get() + begin);
  };
#pragma omp parallel
  {
    const std::size_t begin = share * static_cast<std::size_t>(omp_get_thread_num());
    std::fill(from.get() + begin, from.get() + begin + share, 1.0f);
    std::fill(to.get() + begin, to.get() + begin + share, 0.0f);
  }
  // The first touch of the pages is part of the budget, not added to it.
  const double left = std::max(budget - seconds_since(start), budget / 4);
  const double rate = summed_best_rates(left, 2.0 * sizeof(float) * double(share), copy_share);
  volatile float sink = to[kCopyFloats / 2];
  (void)sink;
  return rate;
}

// Eight vectors of eight single-precision lanes per thread: independent multiply-add chains,
// enough to cover the units' latency, few enough to stay in registers. GCC's vector extensions
// keep the chains in registers whatever the target; with FMA (-march=native) each step is one
// fused multiply-add per lane.
typedef float Lanes __attribute__((vector_size(32)));
constexpr int kChains = 8;
constexpr int kLanes = 8;
constexpr long kSliceIterations = 200000;

float multiply_add_slice() {
  Lanes a0, a1, a2, a3, a4, a5, a6, a7;
  for (int lane = 0; lane < kLanes; ++lane) {
    const float start = 1.0f + static_cast<float>(lane) * 1e-3f;
    a0[lane] = start, a1[lane] = start + 0.1f, a2[lane] = start + 0.2f, a3[lane] = start + 0.3f;
    a4[lane] = start + 0.4f, a5[lane] = start + 0.5f, a6[lane] = start + 0.6f;
    a7[lane] = start + 0.7f;
  }
  const Lanes scale = a0 * 0.0f + 0.9999f, step = a0 * 0.0f + 1e-4f;  // the chains tend to 1
  for (long i = 0; i < kSliceIterations; ++i) {
    a0 = a0 * scale + step, a1 = a1 * scale + step, a2 = a2 * scale + step;
    a3 = a3 * scale + step, a4 = a4 * scale + step, a5 = a5 * scale + step;
    a6 = a6 * scale + step, a7 = a7 * scale + step;
  }
  const Lanes sum = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
  float total = 0.0f;
  for (int lane = 0; lane < kLanes; ++lane) total += sum[lane];
  return total;
}

double multiply_add_rate(double budget) {
  std::vector<float> sinks(256, 0.0f);
  const double rate = summed_best_rates(
      budget, double(kChains) * kLanes * double(kSliceIterations), [&](int thread, int) {
        sinks[static_cast<std::size_t>(thread) % sinks.size()] += multiply_add_slice();
      });
  volatile float kept = sinks[0];
  (void)kept;
  return rate;
}

}  // namespace

double cpu_calibration_budget() {
  const char* text = std::getenv(kCpuCalibrationVariable);
  if (text == nullptr || *text == '\0') return kCpuCalibrationSeconds;
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  if (*end != '\0' || !(seconds >= 0 && seconds <= 60)) return kCpuCalibrationSeconds;
  return seconds;
}

CpuCalibration calibrate_cpu(double seconds) {
  const Clock::time_point start = Clock::now();
  CpuCalibration calibration;
  calibration.threads = omp_get_max_threads();
  calibration.copy_bytes_per_s = copy_rate(seconds / 2, calibration.threads);
  calibration.fma_per_s = multiply_add_rate(seconds / 2);
  calibration.seconds = seconds_since(start);
  return calibration;
}

bool CalibrationGap::apart() const {
  return fma > kFmaRateLimit || copy > kCopyRateLimit;
}

double CalibrationGap::headline() const {
  return fma / kFmaRateLimit >= copy / kCopyRateLimit ? fma : copy;
}

std::optional<CalibrationGap> calibration_gap(const CpuCalibration& a, const CpuCalibration& b) {
  const auto ratio = [](double x, double y) { return std::max(x, y) / std::min(x, y) - 1.0; };
  if (!(a.copy_bytes_per_s > 0 && b.copy_bytes_per_s > 0 && a.fma_per_s > 0 && b.fma_per_s > 0))
    return std::nullopt;
  return CalibrationGap{ratio(a.copy_bytes_per_s, b.copy_bytes_per_s),
                        ratio(a.fma_per_s, b.fma_per_s)};
}

std::string gap_words(const CalibrationGap& gap) {
  return "FMA rate " + format_number(gap.fma * 100, 2) + " %, copy bandwidth " +
         format_number(gap.copy * 100, 2) + " %";
}

std::string calibration_words(const CpuCalibration& calibration) {
  return "copy " + format_number(calibration.copy_bytes_per_s / 1e9, 3) + " GB/s, " +
         format_number(calibration.fma_per_s / 1e9, 3) + " GFMA/s on " +
         std::to_string(calibration.threads) + (calibration.threads == 1 ? " thread" : " threads");
}

}  // namespace convlab
