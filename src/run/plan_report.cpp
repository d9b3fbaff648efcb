#include "run/plan_report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <thread>
#include <tuple>

#include "core/count_words.hpp"
#include "core/number_text.hpp"
#include "core/point_filter.hpp"
#include "plan/search_points.hpp"
#include "run/devices.hpp"
#include "run/progress.hpp"
#include "verify/verify.hpp"

namespace convlab {
namespace {

// Nominal multiply-accumulate rates (per second) used only to estimate durations. CPU: the
// implementation's own per thread; threads beyond `logical_cpus` add nothing (0: no cap). CUDA: 4
// TMAC/s, the rate at which the committed H200 and H100 runs' kernels went on average (direct and
// separable rungs alike, counting 2K multiply-adds per value for a factored implementation on a
// separable kernel).
double nominal_rate(const Point& point, unsigned logical_cpus) {
  const double threads_asked = std::max(1.0, point.params.value("threads", 1.0));
  const double threads =
      logical_cpus == 0 ? threads_asked : std::min(threads_asked, double(logical_cpus));
  if (point.implementation->family == Family::cuda) return 4e12;
  return point.implementation->estimated_macs_per_thread_second * threads;
}

// Around a CUDA point's kernels every repetition also copies the image in and the output out
// (its end-to-end time: 402 MB in 7.3 ms on the H200 and the H100, over PCIe), and each call
// costs its launches and event waits.
constexpr double kTransferBytesPerSecond = 55e9;
constexpr double kCallSeconds = 20e-6;
// The runner's own work per point (naming, preparing, recording): the fit's constant.
constexpr double kPointSeconds = 0.03;
// Per value of a point's output: turned from planes back into pixels (a planar CUDA layout), and
// written as a picture (save_outputs).
constexpr double kPlanarValueSeconds = 4e-9;
constexpr double kSavedValueSeconds = 20e-9;
// Per value of an image, paid by a device worker each time it changes images: making it (generation
// and SHA-256: 1.2-1.7 s for RGB 8192^2, 0.7-0.9 s for 6144^2 on the H200 host) and the first
// pinned and device buffers with the upload (1.9-2.1 s and 1.4-1.6 s).
constexpr double kImageValueSeconds = 7.5e-9;
constexpr double kFirstBuffersValueSeconds = 10e-9;
// A machine in particular is not known: threads of the reference and verification.
constexpr unsigned kAnyMachineThreads = 8;
// Verification reads the output and the double reference once: more threads than this add
// little once memory is the limit.
constexpr unsigned kVerifyThreadsUseful = 8;

double value_count(const Config& config, const Point& point) {
  const ImageSpec& image = config.images[point.image];
  return double(image.width) * image.height * image.channels;
}

// Bytes of the input and the output of a point.
double value_bytes(const Config& config, const Point& point) {
  return value_count(config, point) * (1.0 + double(bytes_per_value(point.output)));
}

// Multiply-adds of one call: 2K per value for a factored implementation on a separable kernel.
double call_macs(const Config& config, const Point& point) {
  const Filter& filter = config.filters[point.filter];
  const Implementation& impl = *point.implementation;
  const bool factored = impl.factored && (!impl.factored_rank1_only || filter.separable);
  return factored && filter.separable ? value_count(config, point) * 2.0 * filter.size
                                      : point_macs(config, point);
}

unsigned host_threads(const HostModel& host) {
  return host.logical_cpus == 0 ? kAnyMachineThreads : host.logical_cpus;
}

bool same_reference(const Point& a, const Point& b) {
  return a.image == b.image && a.filter == b.filter && a.border == b.border && a.output == b.output;
}

}  // namespace

HostModel this_machine_model() {
  HostModel host;
  host.logical_cpus = std::max(1u, std::thread::hardware_concurrency());
  host.verify_threads = static_cast<unsigned>(std::max(1, verification_threads()));
  return host;
}

std::vector<double> estimated_plan_seconds(const Config& config, const std::vector<Point>& plan,
                                           const std::vector<std::optional<PlannedSkip>>& skips,
                                           const HostModel& host) {
  std::vector<double> seconds;
  const Point* last_run = nullptr;  // the last point that runs: its problem's reference is made
  for (size_t i = 0; i < plan.size(); ++i) {
    if (skips[i]) {
      seconds.push_back(0.0);
      continue;
    }
    double point = estimated_point_seconds(config, plan[i], host);
    if (last_run == nullptr || !same_reference(plan[i], *last_run))
      point += estimated_reference_seconds(config, plan[i], host);
    last_run = &plan[i];
    seconds.push_back(point);
  }
  return seconds;
}

double estimated_reference_seconds(const Config& config, const Point& point,
                                   const HostModel& host) {
  return point_macs(config, point) * host.reference_seconds_per_tap / host_threads(host);
}

double estimated_timing_seconds(const Config& config, const Point& point, const HostModel& host) {
  // A pretend device of the tests takes its own time (run/devices.hpp).
  if (const double pretend = pretend_device_seconds(config, point); pretend > 0.0) return pretend;
  double call = call_macs(config, point) / nominal_rate(point, host.logical_cpus);
  if (point.implementation->family == Family::cuda)
    call += value_bytes(config, point) / kTransferBytesPerSecond + kCallSeconds;
  const MeasureSpec& m = measure_for(config, point.implementation->name);
  const double repetitions =
      std::clamp(m.max_seconds / std::max(call, 1e-9), double(m.min_reps), double(m.max_reps));
  return call * (m.warmup + repetitions);
}

double estimated_point_seconds(const Config& config, const Point& point, const HostModel& host) {
  const unsigned verify_threads = std::min(
      kVerifyThreadsUseful, host.verify_threads == 0 ? host_threads(host) : host.verify_threads);
  double per_value = host.verify_seconds_per_value / verify_threads;
  if (point.params.is_object() && point.params.value("layout", "") == "planar")
    per_value += kPlanarValueSeconds;
  if (config.save_outputs) per_value += kSavedValueSeconds;
  return kPointSeconds + value_count(config, point) * per_value +
         estimated_timing_seconds(config, point, host);
}

namespace {
std::string share_words(double part, double whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", whole > 0 ? 100.0 * part / whole : 0.0);
  return text;
}
}  // namespace

namespace {

// "30 variants after restrictions (counted exactly, of 32 in the grid)", "about 3.1e+14
// variants after restrictions (estimated: ...; of 1e+15 in the grid)".
std::string space_words(const SpaceSize& size) {
  const std::string grid = size.combinations < 1e15 ? format_fixed(size.combinations, 0)
                                                    : format_number(size.combinations, 3);
  if (size.method == "no restrictions") return space_size_words(size);
  return space_size_words(size) + " after restrictions (" + size.method + ", of " + grid +
         " in the grid)";
}

std::string budget_words(const SearchSpec& spec, const SpaceSize& size, std::size_t problems) {
  std::string words;
  const std::size_t searches = problems * spec.strategies.size() * spec.seeds.size();
  if (spec.budget) {
    const double measured = std::min(double(*spec.budget), size.variants);
    const double share = 100.0 * measured / size.variants;
    words += "budget " + std::to_string(*spec.budget) + " per problem and search (" +
             (size.exact ? "" : "about ") +
             (share >= 0.1 ? format_fixed(share, 1) : format_number(share, 2)) +
             " % of the space), " +
             count_words(searches * static_cast<std::size_t>(measured), "variant") +
             " to measure at most";
  }
  if (spec.max_seconds)
    words += std::string(spec.budget ? " and " : "") + "at most " +
             format_duration(*spec.max_seconds) +
             " per problem and search (compiles waited for and measurements)";
  if (!spec.budget && !spec.max_seconds) words += "every variant";
  return words + " in " + count_words(problems, "problem");
}

}  // namespace

std::vector<std::string> search_summary(const Config& config, const std::vector<Point>& plan) {
  std::vector<std::string> lines;
  for (const auto& sweep : config.implementations) {
    if (!sweep.domain) continue;
    const SearchSpec& spec = *sweep.search;
    const Implementation* impl = &implementation_of(sweep);
    std::size_t problems = 0;
    std::set<std::tuple<std::size_t, std::size_t, Border, OutputType>> seen;
    for (const Point& p : plan)
      if (p.implementation == impl && p.search &&
          seen.insert({p.image, p.filter, p.border, p.output}).second)
        ++problems;
    if (problems == 0) continue;
    std::string strategies;
    for (SearchStrategy s : spec.strategies)
      strategies += (strategies.empty() ? "" : ", ") + std::string(to_string(s));
    std::string line = "search " + sweep.name + " (" + strategies + "; " +
                       count_words(spec.seeds.size(), "seed") +
                       "): " + space_words(sweep.domain->size) + ", " +
                       budget_words(spec, sweep.domain->size, problems);
    if (sweep.user)
      line += "; each variant compiled as the search proposes it, " + std::to_string(spec.ahead) +
              " ahead of the measurements";
    lines.push_back(line);
  }
  return lines;
}

void print_plan(const Config& config, const std::vector<Point>& plan,
                const std::vector<std::optional<PlannedSkip>>& skips, std::ostream& out,
                const MeasuredPoints* measured) {
  out << "# " << config.title << " (" << config.name << ")\n\n";
  out << "| # | implementation | params | image | kernel | border | output | GMAC | est. s |\n";
  out << "|---|---|---|---|---|---|---|---|---|\n";
  double total_seconds = 0, total_macs = 0;
  const std::vector<double> estimates = estimated_plan_seconds(config, plan, skips);
  std::vector<std::optional<PlannedSkip>> plain_skips;
  size_t to_run = 0, already = 0;
  for (size_t i = 0; i < plan.size(); ++i) {
    const Point& p = plan[i];
    if (p.search) {  // summarised below; its cost is its budget's, or its time's
      if (skips[i]) continue;
      const auto budget = search_budget(config, p);
      const auto& spec = *sweep_of(config, p)->search;
      double seconds = budget ? estimates[i] * double(*budget) : *spec.max_seconds;
      if (spec.max_seconds) seconds = std::min(seconds, *spec.max_seconds);
      total_seconds += seconds;
      continue;
    }
    plain_skips.push_back(skips[i]);
    std::string params;
    for (const auto& [key, value] : p.params.items())
      params += (params.empty() ? "" : " ") + key + "=" + field_text(value);
    const double macs = point_macs(config, p);
    char numbers[96];
    if (skips[i]) {
      std::snprintf(numbers, sizeof numbers, "%.3f | skipped", macs / 1e9);
    } else if (measured && measured->has(config, p)) {
      std::snprintf(numbers, sizeof numbers, "%.3f | measured", macs / 1e9);
      ++already;
    } else {
      std::snprintf(numbers, sizeof numbers, "%.3f | %.2f", macs / 1e9, estimates[i]);
      total_seconds += estimates[i];
      total_macs += macs;
    }
    out << "| " << i + 1 << " | " << p.implementation->name << " | " << params << " | "
        << config.images[p.image].name << " | " << config.filters[p.filter].name << " | "
        << to_string(p.border) << " | " << to_string(p.output) << " | " << numbers << " |\n";
  }
  const std::vector<std::string> searches = search_summary(config, plan);
  if (!plain_skips.empty() || searches.empty())
    out << "\n" << plan_counts_text(count_plan(plain_skips)) << "\n";
  else
    out << "\n";
  for (const auto& skip : plain_skips) to_run += !skip;
  if (measured) out << new_points_text(to_run, already) << "\n";
  for (const auto& line : searches) out << line << "\n";
  if (measured && already > 0 && already == to_run && searches.empty()) {
    out << "Nothing new to measure: results.json holds every point to run (--force measures "
           "them again)\n";
    return;
  }
  out << (measured ? "The new points: " : "The points to run: ") << total_macs / 1e9
      << " GMAC per repetition in all, roughly " << format_duration(total_seconds)
      << " (estimate from nominal rates; points already in results.json are not run again)\n";
}

void print_shard_balance(const ShardCut& cut, int index, std::ostream& out) {
  std::int64_t total = 0;
  std::size_t points = 0, groups = 0;
  for (int s = 0; s < cut.count; ++s) {
    total += cut.cost_us[s];
    points += cut.points[s];
    groups += cut.bundles[s];
  }
  const auto [smallest, largest] = std::minmax_element(cut.cost_us.begin(), cut.cost_us.end());
  out << "\nshard " << index << " of " << cut.count << ": " << cut.bundles[index] << " of "
      << groups << " problem groups, " << cut.points[index] << " of " << points << " points, "
      << share_words(double(cut.cost_us[index]), double(total))
      << " of the plan's estimated cost (the " << cut.count << " shards hold "
      << share_words(double(*smallest), double(total)) << " to "
      << share_words(double(*largest), double(total)) << "; a problem group is never split)\n";
}

HostModel worker_model(const HostModel& machine, int workers) {
  const unsigned share = unsigned(std::max(workers, 1));
  HostModel worker = machine;
  worker.logical_cpus = std::max(1u, machine.logical_cpus / share);
  worker.verify_threads = std::max(1u, machine.verify_threads / share);
  return worker;
}

double estimated_unit_seconds(const Config& config, const std::vector<Point>& plan,
                              const WorkUnit& unit, const HostModel& host) {
  const std::size_t first = unit.points.empty() ? unit.searches.front().point : unit.points.front();
  double seconds = estimated_reference_seconds(config, plan[first], host);
  for (std::size_t i : unit.points) seconds += estimated_point_seconds(config, plan[i], host);
  for (const auto& search : unit.searches)
    seconds += estimated_point_seconds(config, plan[search.point], host) * double(search.budget);
  return seconds;
}

std::vector<double> estimated_item_seconds(const Config& config, const std::vector<Point>& plan,
                                           const Schedule& schedule,
                                           const std::vector<HandOutItem>& items,
                                           const HostModel& host) {
  std::vector<double> seconds;
  for (const HandOutItem& item : items) {
    double sum = 0.0;
    for (std::size_t u : item.units)
      sum += estimated_unit_seconds(config, plan, schedule.units[u], host);
    seconds.push_back(sum);
  }
  return seconds;
}

std::vector<double> estimated_image_setup_seconds(const Config& config) {
  std::vector<double> seconds;
  for (const ImageSpec& image : config.images)
    seconds.push_back(double(image.width) * image.height * image.channels *
                      (kImageValueSeconds + kFirstBuffersValueSeconds));
  return seconds;
}

HandOutForecast forecast_devices(const Config& config, const std::vector<Point>& plan,
                                 const Schedule& schedule, int workers, const HostModel& host) {
  HandOut queue(hand_out_items(schedule, plan), workers);
  // One device is a plain run: its units in plan order.
  if (workers == 1)
    for (std::size_t i = 0; i < queue.items().size(); ++i) queue.pin(i, 0);
  const std::vector<double> seconds =
      estimated_item_seconds(config, plan, schedule, queue.items(), host);
  return forecast_hand_out(std::move(queue), seconds, estimated_image_setup_seconds(config), {});
}

void print_device_split(const Config& config, const std::vector<Point>& plan,
                        const Schedule& schedule, const std::vector<int>& devices, bool checked,
                        std::ostream& out) {
  const int workers = static_cast<int>(devices.size());
  const bool fixed = workers > 1 && hand_out_policy(nullptr) == HandOutPolicy::fixed;
  // Each worker has its share of this machine's cores (run/worker_cpus.hpp); the CPU points have
  // all of them.
  const HostModel machine = this_machine_model();
  const HostModel worker = workers > 1 ? worker_model(machine, workers) : machine;
  std::vector<int> worker_of_unit(schedule.units.size(), workers > 1 ? -1 : 0);
  std::optional<HandOutForecast> forecast;
  if (fixed) {
    worker_of_unit = spread_over_devices(schedule, workers);
  } else if (workers > 1) {
    forecast = forecast_devices(config, plan, schedule, workers, worker);
    const std::vector<HandOutItem> items = hand_out_items(schedule, plan);
    for (std::size_t i = 0; i < items.size(); ++i)
      for (std::size_t u : items[i].units) worker_of_unit[u] = forecast->worker_of_item[i];
  }
  std::vector<std::size_t> points(workers + 1, 0);
  std::vector<std::int64_t> cost(workers + 1, 0);
  std::vector<std::set<std::size_t>> groups(workers + 1);
  std::vector<double> seconds(workers + 1, 0.0);  // as the plan table estimates them here
  for (std::size_t u = 0; u < schedule.units.size(); ++u) {
    const int w = worker_of_unit[u] < 0 ? workers : worker_of_unit[u];
    const WorkUnit& unit = schedule.units[u];
    points[w] += unit.points.size();
    for (const auto& search : unit.searches) points[w] += search.budget;
    cost[w] += unit.cost_us;
    groups[w].insert(unit.bundle);
    seconds[w] += estimated_unit_seconds(config, plan, unit, w < workers ? worker : machine);
  }
  // The forecast adds each worker's image set-ups.
  if (forecast)
    for (int w = 0; w < workers; ++w) seconds[w] = forecast->worker_seconds[w];
  std::int64_t cuda_cost = 0;
  for (int w = 0; w < workers; ++w) cuda_cost += cost[w];
  out << "\ndevices: " << workers << (workers == 1 ? " device" : " workers, one per CUDA device")
      << "; CPU points run "
      << (workers == 1 ? "in the same process" : "after the workers, in this process alone")
      << (checked ? "" : " (devices not checked against this machine: --dry-run)") << "\n";
  if (workers > 1)
    out << (fixed ? "problem groups split before the run (CONVLAB_HAND_OUT=fixed), by estimated "
                    "cost\n"
                  : "problem groups handed out as workers become free, largest first, preferring "
                    "the image a worker holds; below: the cost model's forecast of it, with each "
                    "worker's image set-ups\n");
  out << "\n| worker | device | problem groups | points | share of the CUDA cost | est. s |\n";
  out << "|---|---|---|---|---|---|\n";
  for (int w = 0; w < workers; ++w) {
    char estimate[32];
    std::snprintf(estimate, sizeof estimate, "%.2f", seconds[w]);
    out << "| " << w << " | " << devices[w] << " | " << groups[w].size() << " | " << points[w]
        << " | " << share_words(double(cost[w]), double(cuda_cost)) << " | " << estimate << " |\n";
  }
  char estimate[32];
  std::snprintf(estimate, sizeof estimate, "%.2f", seconds[workers]);
  out << "| CPU | - | " << groups[workers].size() << " | " << points[workers] << " | - | "
      << estimate << " |\n";
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
