// The estimate of --dry-run against what committed runs took: for every run of the results files
// given that opened a CUDA device, the points it measured are found in its config's plan
// (run.config.path, read from the repository as it is now; the run's --filter is not needed, the
// points are matched by their description) and estimated as the dry run estimates them on that
// run's host (its logical CPUs), with the host work as fast as it was then: the reference and
// verification of the code that measured them (the reference per tap SPEEDUP times slower than now,
// by default kReferenceSpeedupSinceFit; verification on one thread). The run's wall time is
// finished - started (whole seconds). docs/scale-out.md, "How long a run takes", shows the table.
//
//   convlab_eta_check [--then SPEEDUP] [--cpu-runs] outputs/*/results.json
//
// --cpu-runs: runs without a CUDA device too.
//
// Prints one row per run: points, measured and estimated seconds, estimate / measured, the
// estimate of the model before this one (nominal rates, the reference at 0.4 GMAC/s in all), and
// the same without the CPU points' timed calls (their measured time taken from the wall time,
// their estimated time from the estimate): what the CUDA points and the host's work took.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "run/plan_report.hpp"
#include "store/results_file.hpp"

namespace {

using namespace convlab;

double seconds_between(const std::string& started, const std::string& finished) {
  std::tm a{}, b{};
  if (!strptime(started.c_str(), "%Y-%m-%dT%H:%M:%SZ", &a) ||
      !strptime(finished.c_str(), "%Y-%m-%dT%H:%M:%SZ", &b))
    return 0.0;
  return std::difftime(timegm(&b), timegm(&a));
}

// The model before: nominal rates, 20 GB/s copies, 1 GB/s of host work per CUDA point's bytes,
// the reference at 0.4 GMAC/s whatever the machine.
double previous_point_seconds(const Config& config, const Point& point, unsigned cpus) {
  const ImageSpec& image = config.images[point.image];
  const double values = double(image.width) * image.height * image.channels;
  const double threads = std::min(std::max(1.0, point.params.value("threads", 1.0)), double(cpus));
  const std::string& name = point.implementation->name;
  const bool cuda = point.implementation->family == Family::cuda;
  const double rate = cuda                                         ? 2e12
                      : (name == "sequential" || name == "openmp") ? 1e9 * threads
                                                                   : 8e9 * threads;
  double call = point_macs(config, point) / rate, once = 0.0;
  if (cuda) {
    const double bytes = values * (1.0 + double(bytes_per_value(point.output)));
    call += bytes / 20e9;
    once = bytes / 1e9;
  }
  const MeasureSpec& m = measure_for(config, point.implementation->name);
  const double reps =
      std::clamp(m.max_seconds / std::max(call, 1e-9), double(m.min_reps), double(m.max_reps));
  return once + call * (m.warmup + reps);
}

struct Row {
  std::string name;
  std::size_t points = 0, unmatched = 0;
  double measured = 0.0, estimate = 0.0, previous = 0.0;
  // The CPU points' timed calls: measured (their records' total_seconds and warm-up) and estimated.
  double cpu_timed_measured = 0.0, cpu_timed_estimate = 0.0;
};

// A record's warm-up and timed calls: its measured total and the warm-up at the timed calls' mean.
double timed_seconds(const Record& record) {
  if (!record.timing) return 0.0;
  const auto& t = *record.timing;
  const double calls = double(t.repetitions);
  return calls > 0 ? t.total_seconds * (1.0 + double(t.warmup) / calls) : 0.0;
}

// The run's points in plan order, skipped ones marked as the dry run marks them.
Row check_run(const Config& config, const std::vector<Point>& plan,
              const std::map<std::string, std::size_t>& index_of, const ResultsFile& results,
              const RunBlock& run, double then_speedup) {
  Row row;
  row.measured = run.finished ? seconds_between(run.started, *run.finished) : 0.0;
  std::map<std::size_t, bool> skipped_at;  // plan index -> skipped
  for (const auto& record : results.records) {
    if (record.run_id != run.id) continue;
    const auto found = index_of.find(record.description().digest());
    if (found == index_of.end()) {
      ++row.unmatched;
      continue;
    }
    skipped_at[found->second] = record.status == Status::skipped;
    if (!record.is_cuda() && record.status == Status::ok)
      row.cpu_timed_measured += timed_seconds(record);
  }
  std::vector<Point> points;
  std::vector<std::optional<PlannedSkip>> skips;
  for (const auto& [index, skipped] : skipped_at) {
    points.push_back(plan[index]);
    skips.push_back(skipped ? std::optional<PlannedSkip>(PlannedSkip{}) : std::nullopt);
  }
  HostModel host;
  host.logical_cpus = run.host.value("logical_cpus", 1u);
  host.verify_threads = 1;
  host.reference_seconds_per_tap *= then_speedup;
  for (double s : estimated_plan_seconds(config, points, skips, host)) row.estimate += s;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (!skips[i] && points[i].implementation->family != Family::cuda)
      row.cpu_timed_estimate += estimated_timing_seconds(config, points[i], host);
  const Point* last = nullptr;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (skips[i]) continue;
    row.previous += previous_point_seconds(config, points[i], host.logical_cpus);
    const Point& p = points[i];
    if (!last || last->image != p.image || last->filter != p.filter || last->border != p.border ||
        last->output != p.output)
      row.previous += point_macs(config, p) / 0.4e9;
    last = &p;
  }
  row.points = points.size();
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  double then_speedup = kReferenceSpeedupSinceFit;
  bool cpu_runs = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--then" && i + 1 < argc)
      then_speedup = std::atof(argv[++i]);
    else if (arg == "--cpu-runs")
      cpu_runs = true;
    else
      files.push_back(arg);
  }
  std::printf(
      "| results | GPU | points | measured s | estimate s | estimate / measured | "
      "previous estimate s | previous / measured | without CPU timing: measured s | "
      "estimate s | estimate / measured |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& path : files) {
    const ResultsFile results = read_results(path);
    for (const auto& run : results.runs) {
      const bool cuda = run.cuda.is_object() && run.cuda.value("available", false);
      if (!cuda && !cpu_runs) continue;
      const Config config = load_config(run.config_path);
      const std::vector<Point> plan = expand_plan(config);
      std::map<std::string, std::size_t> index_of;
      for (std::size_t i = 0; i < plan.size(); ++i)
        index_of[plan[i].digest] = i;
      Row row = check_run(config, plan, index_of, results, run, then_speedup);
      if (row.points == 0 || row.measured <= 0) continue;
      const std::string unmatched =
          row.unmatched ? " (" + std::to_string(row.unmatched) + " not in the plan now)" : "";
      const double rest = row.measured - row.cpu_timed_measured;
      const double rest_estimate = row.estimate - row.cpu_timed_estimate;
      std::printf("| %s | %s | %zu%s | %.0f | %.0f | %.2f | %.0f | %.2f | %.0f | %.0f | %.2f |\n",
                  path.c_str(), cuda ? run.cuda.value("name", "?").c_str() : "-", row.points,
                  unmatched.c_str(), row.measured, row.estimate, row.estimate / row.measured,
                  row.previous, row.previous / row.measured, rest, rest_estimate,
                  rest_estimate / rest);
    }
  }
  return 0;
}
