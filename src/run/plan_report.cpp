#include "run/plan_report.hpp"

#include <algorithm>
#include <map>
#include <thread>

#include "core/point_filter.hpp"
#include "run/progress.hpp"

namespace convlab {
namespace {

// Nominal multiply-accumulate rates (per second) used only to estimate durations. Threads beyond
// the machine's logical CPUs add nothing.
double nominal_rate(const Point& point) {
  const std::string& name = point.implementation->name;
  const double cpus = std::max(1u, std::thread::hardware_concurrency());
  const double threads = std::min(point.params.value("threads", 1.0), cpus);
  if (point.implementation->family == "cuda") return 2e12;
  if (name == "sequential" || name == "openmp") return 1e9 * threads;
  return 8e9 * threads;
}

// The reference is scalar code accumulating in double, computed once per image, kernel, border
// and output.
constexpr double kReferenceRate = 0.4e9;

bool same_reference(const Point& a, const Point& b) {
  return a.image == b.image && a.filter == b.filter && a.border == b.border && a.output == b.output;
}

}  // namespace

std::vector<double> estimated_plan_seconds(const Config& config, const std::vector<Point>& plan) {
  return estimated_plan_seconds(config, plan, std::vector<std::optional<PlannedSkip>>(plan.size()));
}

std::vector<double> estimated_plan_seconds(const Config& config, const std::vector<Point>& plan,
                                           const std::vector<std::optional<PlannedSkip>>& skips) {
  std::vector<double> seconds;
  const Point* last_run = nullptr;  // the last point that runs: its problem's reference is made
  for (size_t i = 0; i < plan.size(); ++i) {
    if (skips[i]) {
      seconds.push_back(0.0);
      continue;
    }
    double point = estimated_point_seconds(config, plan[i]);
    if (last_run == nullptr || !same_reference(plan[i], *last_run))
      point += point_macs(config, plan[i]) / kReferenceRate;
    last_run = &plan[i];
    seconds.push_back(point);
  }
  return seconds;
}

double estimated_point_seconds(const Config& config, const Point& point) {
  const double call = point_macs(config, point) / nominal_rate(point);
  const MeasureSpec& m = measure_for(config, point.implementation->name);
  const double repetitions =
      std::clamp(m.max_seconds / std::max(call, 1e-9), double(m.min_reps), double(m.max_reps));
  return call * (m.warmup + repetitions);
}

void print_plan(const Config& config, const std::vector<Point>& plan,
                const std::vector<std::optional<PlannedSkip>>& skips, std::ostream& out) {
  out << "# " << config.title << " (" << config.name << ")\n\n";
  out << "| # | implementation | params | image | kernel | border | output | GMAC | est. s |\n";
  out << "|---|---|---|---|---|---|---|---|---|\n";
  double total_seconds = 0, total_macs = 0;
  const std::vector<double> estimates = estimated_plan_seconds(config, plan, skips);
  for (size_t i = 0; i < plan.size(); ++i) {
    const Point& p = plan[i];
    std::string params;
    for (const auto& [key, value] : p.params.items())
      params += (params.empty() ? "" : " ") + key + "=" + field_text(value);
    const double macs = point_macs(config, p);
    char numbers[96];
    if (skips[i]) {
      std::snprintf(numbers, sizeof numbers, "%.3f | skipped", macs / 1e9);
    } else {
      std::snprintf(numbers, sizeof numbers, "%.3f | %.2f", macs / 1e9, estimates[i]);
      total_seconds += estimates[i];
      total_macs += macs;
    }
    out << "| " << i + 1 << " | " << p.implementation->name << " | " << params << " | "
        << config.images[p.image].name << " | " << config.filters[p.filter].name << " | "
        << to_string(p.border) << " | " << to_string(p.output) << " | " << numbers << " |\n";
  }
  out << "\n" << plan_counts_text(count_plan(skips)) << "\n";
  out << "The points to run: " << total_macs / 1e9 << " GMAC per repetition in all, roughly "
      << format_duration(total_seconds)
      << " (estimate from nominal rates; points already in results.json are not run again)\n";
}

std::optional<std::string> mixed_thread_pools_warning(const Config& config,
                                                      const std::vector<Point>& plan) {
  if (!config.measure.interleave) return std::nullopt;
  std::map<std::string, std::string> pools;  // pool -> the first implementation using it
  for (const Point& point : plan) {
    const std::string& pool = point.implementation->thread_pool;
    if (!pool.empty() && point.params.value("threads", 1) > 1)
      pools.emplace(pool, point.implementation->name);
  }
  if (pools.size() < 2) return std::nullopt;
  std::string named;
  for (const auto& [pool, implementation] : pools)
    named += (named.empty() ? "" : ", ") + implementation + " (" + pool + ")";
  return "measure.interleave: " + named +
         " run on different thread pools; a pool's idle workers spin for a while after its call "
         "and slow the next point's threads, so these points' times are biased against each "
         "other (docs/config.md, \"Interleaved timing\")";
}

}  // namespace convlab
