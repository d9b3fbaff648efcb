#include "run/eta_replay.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "run/hand_out.hpp"
#include "run/plan_report.hpp"
#include "run/progress.hpp"
#include "run/schedule.hpp"

namespace convlab {
namespace {

using ProblemName = std::tuple<std::string, std::string, std::string, std::string>;

// A worker's problem, replayed: it starts and ends at these times.
struct Event {
  double at = 0.0;
  bool end = false;
  int worker = 0;
  std::size_t item = 0;
};

ProblemName name_of(const Config& config, const Point& point) {
  return {config.images[point.image].name, config.filters[point.filter].name,
          std::string(to_string(point.border)), std::string(to_string(point.output))};
}

bool handed_out(const RunBlock& run) {
  return run.argv && std::find(run.argv->begin(), run.argv->end(), std::string("--hand-out")) !=
                         run.argv->end();
}

}  // namespace

double EtaReplay::estimate_error() const {
  return measured > 0.0 ? estimate / measured - 1.0 : 0.0;
}

double EtaReplay::error_at(double fraction) const {
  for (const Moment& moment : moments)
    if (moment.at >= fraction * measured) return moment.predicted / measured - 1.0;
  return 0.0;
}

double EtaReplay::worst_error() const {
  double worst = std::abs(estimate_error());
  for (const Moment& moment : moments)
    worst = std::max(worst, std::abs(moment.predicted / measured - 1.0));
  return worst;
}

EtaReplay replay_eta(const ResultsFile& results, const std::string& results_path,
                     const std::string& config_root) {
  std::vector<const RunBlock*> runs;
  for (const RunBlock& run : results.runs)
    if (run.phases && run.phases->device >= 0 && !run.phases->problems.empty())
      runs.push_back(&run);
  if (runs.empty())
    throw std::runtime_error(results_path + ": no run with phases on a CUDA device to replay");
  std::sort(runs.begin(), runs.end(), [](const RunBlock* a, const RunBlock* b) {
    return a->phases->device < b->phases->device;
  });
  const Config config = load_config(config_root + "/" + runs.front()->config_path);
  const std::vector<Point> plan = expand_plan(config);
  const Schedule schedule = split_by_family(config, plan, make_schedule(config, plan));
  const std::vector<HandOutItem> all = hand_out_items(schedule, plan);

  // The groups the file's problems belong to, as items of a queue of their own.
  std::map<ProblemName, std::size_t> item_of_problem;
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t u : all[i].units) {
      const WorkUnit& unit = schedule.units[u];
      for (std::size_t p : unit.points) item_of_problem.emplace(name_of(config, plan[p]), i);
    }
  EtaReplay replay;
  replay.workers = static_cast<int>(runs.size());
  std::map<std::size_t, std::size_t> index_in_queue;  // item of `all` -> item of the queue
  std::vector<HandOutItem> items;
  std::vector<Event> events;
  for (int w = 0; w < replay.workers; ++w) {
    const RunPhases& phases = *runs[w]->phases;
    double at = phases.totals[WorkPhase::setup] + phases.totals[WorkPhase::start] +
                phases.totals[WorkPhase::device];
    for (const ProblemPhases& problem : phases.problems) {
      const auto found =
          item_of_problem.find({problem.image, problem.kernel, problem.border, problem.output});
      if (found == item_of_problem.end()) {
        ++replay.unmatched;
        at += problem.wall;
        continue;
      }
      // A group of several problems (save_outputs) is one item: its first problem starts it.
      auto [position, added] = index_in_queue.emplace(found->second, items.size());
      if (added) {
        items.push_back(all[found->second]);
        events.push_back({at, false, w, position->second});
      }
      at += problem.wall;
      events.push_back({at, true, w, position->second});
    }
    replay.measured = std::max(replay.measured, phases.wall);
  }
  // A group's end is the end of its last problem.
  std::map<std::size_t, double> last_end;
  for (const Event& event : events)
    if (event.end) last_end[event.item] = std::max(last_end[event.item], event.at);
  events.erase(std::remove_if(events.begin(), events.end(),
                              [&](const Event& e) { return e.end && e.at < last_end[e.item]; }),
               events.end());
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.at < b.at || (a.at == b.at && a.end && !b.end);
  });

  HandOut queue(items, replay.workers);
  if (!handed_out(*runs.front()))
    for (const Event& event : events)
      if (!event.end) queue.pin(event.item, event.worker);
  HostModel host;
  host.logical_cpus = static_cast<unsigned>(std::max(1, runs.front()->phases->openmp_threads));
  host.verify_threads = host.logical_cpus;
  HandOutEta eta(estimated_item_seconds(config, plan, schedule, items, host),
                 estimated_image_setup_seconds(config), replay.workers);
  replay.groups = items.size();
  for (const HandOutItem& item : items) replay.points += item.points;
  replay.estimate = eta.seconds_left(queue, 0.0);
  for (const Event& event : events) {
    if (!event.end) {
      queue.assign(event.worker, event.item);
      eta.taken(event.worker, event.item, items[event.item].image, event.at);
      continue;
    }
    queue.done(event.worker, event.item);
    eta.done(event.worker, event.at);
    replay.moments.push_back({event.at, event.at + eta.seconds_left(queue, event.at)});
  }
  return replay;
}

}  // namespace convlab
