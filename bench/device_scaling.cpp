// How `convlab run --devices` splits a config and how long its workers took (docs/scale-out.md,
// "Where a device worker's time goes"). Three modes:
//
//   convlab_device_scaling plan CONFIG [--cpus C] [N ...]      (default N: 1 2 4)
//     For N devices: each worker's problems, points and estimated seconds, as --dry-run --devices
//     forecasts the hand-out on a host of C logical CPUs (default: this machine's) whose workers
//     get C / N of them each, and the seconds of the split made before the run
//     (CONVLAB_HAND_OUT=fixed), both with each worker's image set-ups. Needs no GPU.
//   convlab_device_scaling measured DIR ...
//     For each results folder (or file): every run block's phases (run.phases): its device, CPUs,
//     OpenMP threads, points, wall seconds and the seconds of each phase; then the slowest run's
//     wall time, which is the folder's when its runs were workers side by side.
//   convlab_device_scaling workers DIR [WALL]
//     The device workers of a --devices run: per worker its device, problem groups, points
//     measured, wall seconds and busy seconds (run.phases: its start, device and problems; a
//     worker handed its groups one at a time waits idle, at the end, until the others are done),
//     the mean busy time, the slowest, and the slowest and WALL (the command's wall time, measured
//     outside) each against the mean. Exit 1 without workers.
//   convlab_device_scaling eta DIR ...
//     The ETA replayed on each results folder (run/eta_replay.hpp; configs read from the current
//     directory, as run.config_path names them): the estimate before the run, elapsed + ETA at
//     25, 50 and 75 % of the run, and the worst error of them all, against the slowest worker's
//     wall time.
//   convlab_device_scaling setup DIR ...
//     What each run of each folder paid per image (run.phases.problems): making the image, the
//     prepare of its first problem on that image (the device's buffers, staging, uploads) and the
//     mean prepare of its later problems there.
//   convlab_device_scaling verdicts DIR_A DIR_B
//     Every point of A against the same point of B (matched by its description): the same status
//     and verification verdict, or the points that differ. Exit 1 when any differs.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "config/config.hpp"
#include "measure/work_phases.hpp"
#include "plan/plan.hpp"
#include "run/eta_replay.hpp"
#include "run/hand_out.hpp"
#include "run/plan_report.hpp"
#include "run/schedule.hpp"
#include "store/results_file.hpp"

namespace {

using namespace convlab;

std::string results_path(const std::string& path) {
  return std::filesystem::is_directory(path) ? path + "/results.json" : path;
}

int plan_mode(const std::vector<std::string>& args) {
  if (args.empty()) return 2;
  unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  std::vector<int> counts;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--cpus" && i + 1 < args.size())
      cpus = static_cast<unsigned>(std::max(1, std::atoi(args[++i].c_str())));
    else
      counts.push_back(std::max(1, std::atoi(args[i].c_str())));
  }
  if (counts.empty()) counts = {1, 2, 4};
  const Config config = load_config(args[0]);
  const std::vector<Point> plan = expand_plan(config);
  const Schedule split = split_by_family(config, plan, make_schedule(config, plan));
  const std::vector<HandOutItem> items = hand_out_items(split, plan);
  std::printf(
      "%s on a host of %u logical CPUs (estimates: the --dry-run model; hand-out: the\n"
      "queue's forecast; fixed: CONVLAB_HAND_OUT=fixed; both with each worker's image set-ups)\n\n",
      args[0].c_str(), cpus);
  std::printf(
      "| devices | worker | problems | points | hand-out s | fixed s |\n"
      "|---|---|---|---|---|---|\n");
  HostModel machine;
  machine.logical_cpus = cpus;
  machine.verify_threads = cpus;
  for (int n : counts) {
    const HostModel host = worker_model(machine, n);
    const HandOutForecast forecast = forecast_devices(config, plan, split, n, host);
    // The split before the run: each worker its units in plan order, with a set-up at each image
    // it changes to.
    const std::vector<int> fixed = spread_over_devices(split, n);
    const std::vector<double> setup = estimated_image_setup_seconds(config);
    std::vector<double> fixed_seconds(static_cast<std::size_t>(n), 0.0);
    std::vector<int> image_of_worker(static_cast<std::size_t>(n), -1);
    for (std::size_t u = 0; u < split.units.size(); ++u) {
      const int w = fixed[u];
      if (w < 0) continue;
      const WorkUnit& unit = split.units[u];
      const int image = static_cast<int>(
          plan[unit.points.empty() ? unit.searches.front().point : unit.points.front()]
              .image);
      if (image != image_of_worker[w]) fixed_seconds[w] += setup[image];
      image_of_worker[w] = image;
      fixed_seconds[w] += estimated_unit_seconds(config, plan, unit, host);
    }
    for (int w = 0; w < n; ++w) {
      std::size_t problems = 0, points = 0;
      for (std::size_t i = 0; i < items.size(); ++i)
        if (forecast.worker_of_item[i] == w) {
          ++problems;
          points += items[i].points;
        }
      std::printf("| %d | %d | %zu | %zu | %.1f | %.1f |\n", n, w, problems, points,
                  forecast.worker_seconds[w], fixed_seconds[w]);
    }
    std::printf("| %d | slowest | | | %.1f | %.1f |\n", n, forecast.seconds,
                *std::max_element(fixed_seconds.begin(), fixed_seconds.end()));
  }
  return 0;
}

void print_run(const RunBlock& run) {
  const RunPhases& p = *run.phases;
  std::size_t points = 0;
  for (const auto& problem : p.problems) points += problem.points;
  const std::string device = p.device >= 0 ? std::to_string(p.device) : std::string("-");
  std::printf("| %s | %s | %d | %s | %zu | %.1f |", device.c_str(), p.cpus.c_str(),
              p.openmp_threads, p.prepare_ahead ? "on" : "off", points, p.wall);
  for (double s : p.totals.seconds) std::printf(" %.1f |", s);
  std::printf(" %.1f | %.1f |\n", p.other(), p.ahead);
}

int measured_mode(const std::vector<std::string>& args) {
  for (const auto& dir : args) {
    const ResultsFile results = read_results(results_path(dir));
    std::printf("\n%s\n\n| device | CPUs | threads | ahead | points | wall s |", dir.c_str());
    for (std::size_t i = 0; i < kWorkPhaseCount; ++i)
      std::printf(" %s |", phase_name(static_cast<WorkPhase>(i)));
    std::printf(" other | ahead s |\n|---|---|---|---|---|---|");
    for (std::size_t i = 0; i < kWorkPhaseCount + 2; ++i) std::printf("---|");
    std::printf("\n");
    double slowest = 0.0;
    for (const auto& run : results.runs) {
      if (!run.phases) continue;
      print_run(run);
      slowest = std::max(slowest, run.phases->wall);
    }
    std::printf("\nslowest run: %.1f s\n", slowest);
  }
  return 0;
}

int workers_mode(const std::vector<std::string>& args) {
  if (args.empty() || args.size() > 2) return 2;
  const ResultsFile results = read_results(results_path(args[0]));
  std::printf(
      "| worker run | device | problem groups | points | wall s | busy s |\n"
      "|---|---|---|---|---|---|\n");
  std::vector<double> busy;
  for (const auto& run : results.runs) {
    if (!run.phases || run.phases->device < 0) continue;
    const bool worker = run.argv && std::find(run.argv->begin(), run.argv->end(),
                                              std::string("--worker")) != run.argv->end();
    if (!worker) continue;
    const RunPhases& phases = *run.phases;
    std::size_t points = 0;
    double seconds = phases.totals[WorkPhase::setup] + phases.totals[WorkPhase::start] +
                     phases.totals[WorkPhase::device];
    for (const auto& problem : phases.problems) {
      points += problem.points;
      seconds += problem.wall;
    }
    std::printf("| %zu | %d | %zu | %zu | %.2f | %.2f |\n", busy.size(), phases.device,
                phases.problems.size(), points, phases.wall, seconds);
    busy.push_back(seconds);
  }
  if (busy.empty()) {
    std::printf("no device worker's run in %s\n", args[0].c_str());
    return 1;
  }
  double mean = 0.0;
  for (double seconds : busy) mean += seconds / double(busy.size());
  const double slowest = *std::max_element(busy.begin(), busy.end());
  std::printf("\nworkers: %zu, busy %.2f s on average, the longest %.2f s (%.3f x the average)\n",
              busy.size(), mean, slowest, slowest / mean);
  if (args.size() == 2) {
    const double wall = std::atof(args[1].c_str());
    std::printf("the command's wall time: %.2f s (%.3f x the workers' average)\n", wall,
                wall / mean);
  }
  return 0;
}

int setup_mode(const std::vector<std::string>& args) {
  if (args.empty()) return 2;
  std::printf(
      "| results | device | image | problems | image s | first prepare s | later prepares s "
      "(mean) |\n|---|---|---|---|---|---|---|\n");
  for (const auto& dir : args) {
    for (const auto& run : read_results(results_path(dir)).runs) {
      if (!run.phases) continue;
      std::vector<std::string> order;  // images in the order the run met them
      std::map<std::string, std::vector<const ProblemPhases*>> by_image;
      for (const auto& problem : run.phases->problems) {
        if (by_image[problem.image].empty()) order.push_back(problem.image);
        by_image[problem.image].push_back(&problem);
      }
      for (const auto& image : order) {
        const auto& problems = by_image[image];
        double made = 0.0, later = 0.0;
        for (const ProblemPhases* problem : problems) made += problem->phases[WorkPhase::image];
        for (std::size_t i = 1; i < problems.size(); ++i)
          later += problems[i]->phases[WorkPhase::prepare] / double(problems.size() - 1);
        std::printf("| %s | %d | %s | %zu | %.2f | %.2f | %.3f |\n", dir.c_str(),
                    run.phases->device, image.c_str(), problems.size(), made,
                    problems.front()->phases[WorkPhase::prepare], later);
      }
    }
  }
  return 0;
}

int eta_mode(const std::vector<std::string>& args) {
  if (args.empty()) return 2;
  std::printf(
      "| results | workers | groups | points | measured s | estimate s | error | at 25 %% | "
      "at 50 %% | at 75 %% | worst |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& dir : args) {
    const EtaReplay replay = replay_eta(read_results(results_path(dir)), dir, ".");
    const auto percent = [](double error) { return 100.0 * error; };
    std::printf(
        "| %s | %d | %zu | %zu | %.1f | %.1f | %+.1f %% | %+.1f %% | %+.1f %% | %+.1f %% | "
        "%.1f %% |\n",
        dir.c_str(), replay.workers, replay.groups, replay.points, replay.measured, replay.estimate,
        percent(replay.estimate_error()), percent(replay.error_at(0.25)),
        percent(replay.error_at(0.5)), percent(replay.error_at(0.75)),
        percent(replay.worst_error()));
    if (replay.unmatched > 0)
      std::printf("(%s: %zu problems not in the plan now, left out)\n", dir.c_str(),
                  replay.unmatched);
  }
  return 0;
}

// Status and verdict of every point, by its description's digest.
std::map<std::string, std::string> verdicts_of(const std::string& dir) {
  std::map<std::string, std::string> verdicts;
  for (const auto& record : read_results(results_path(dir)).records) {
    std::string verdict(to_string(record.status));
    if (record.verification) verdict += record.verification->ok ? " verified" : " not verified";
    verdicts[record.description().digest()] = verdict;
  }
  return verdicts;
}

int verdicts_mode(const std::vector<std::string>& args) {
  if (args.size() != 2) return 2;
  const auto a = verdicts_of(args[0]), b = verdicts_of(args[1]);
  std::size_t same = 0, differ = 0, missing = 0;
  for (const auto& [digest, verdict] : a) {
    const auto other = b.find(digest);
    if (other == b.end()) {
      ++missing;
    } else if (other->second == verdict) {
      ++same;
    } else {
      ++differ;
      std::printf("point %s: %s in %s, %s in %s\n", digest.c_str(), verdict.c_str(),
                  args[0].c_str(), other->second.c_str(), args[1].c_str());
    }
  }
  missing += b.size() > a.size() - missing ? b.size() - (a.size() - missing) : 0;
  std::printf("verdicts: %zu points the same, %zu differ, %zu in only one of %s and %s\n", same,
              differ, missing, args[0].c_str(), args[1].c_str());
  return differ == 0 && missing == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + std::min(argc, 2), argv + argc);
  const std::string mode = argc > 1 ? argv[1] : "";
  int status = 2;
  if (mode == "plan") status = plan_mode(args);
  if (mode == "measured") status = measured_mode(args);
  if (mode == "verdicts") status = verdicts_mode(args);
  if (mode == "workers") status = workers_mode(args);
  if (mode == "eta") status = eta_mode(args);
  if (mode == "setup") status = setup_mode(args);
  if (status == 2)
    std::fprintf(
        stderr,
        "usage: %s plan CONFIG [--cpus C] [N ...] | measured DIR ... | workers DIR [WALL] | "
        "eta DIR ... | setup DIR ... | verdicts A B\n",
        argv[0]);
  return status;
}
