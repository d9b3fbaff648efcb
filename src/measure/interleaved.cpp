#include "measure/interleaved.hpp"

#include <algorithm>
#include <exception>
#include <random>

namespace convlab {
namespace {

// Runs `call` on the point; an exception takes the point out of the rounds with its message.
template <class Call>
void guarded(InterleavedPoint& p, Call call) {
  try {
    call();
  } catch (const std::exception& e) {
    p.error = e.what();
  }
}

bool measuring(const InterleavedPoint& p) {
  return !p.error && !repetitions_done(p.samples, p.measure, p.measured_seconds);
}

}  // namespace

int time_interleaved(std::vector<InterleavedPoint>& points, std::uint32_t seed) {
  const int count = static_cast<int>(points.size());
  int most_warmup = 0;
  for (auto& p : points) {
    p.samples = TimingSamples{};
    p.samples.warmup = p.measure.warmup;
    p.samples.interleaved_points = count;
    p.measured_seconds = 0.0;
    most_warmup = std::max(most_warmup, p.measure.warmup);
  }
  for (int w = 0; w < most_warmup; ++w)
    for (auto& p : points)
      if (!p.error && w < p.measure.warmup) guarded(p, [&] { untimed_call(*p.point); });

  std::mt19937 shuffle(seed);
  std::vector<InterleavedPoint*> order;
  int rounds = 0;
  for (;;) {
    order.clear();
    for (auto& p : points)
      if (measuring(p)) order.push_back(&p);
    if (order.empty()) break;
    std::shuffle(order.begin(), order.end(), shuffle);
    for (InterleavedPoint* p : order)
      guarded(*p, [&] { p->measured_seconds += timed_call(*p->point, p->samples); });
    ++rounds;
  }
  for (auto& p : points) p.samples.total_seconds = p.measured_seconds;
  return rounds;
}

}  // namespace convlab
