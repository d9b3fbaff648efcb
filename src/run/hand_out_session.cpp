#include "run/hand_out_session.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <iostream>

#include "measure/provenance.hpp"
#include "run/plan_report.hpp"
#include "store/results_file.hpp"

namespace convlab {
namespace {

// A worker's end of its socket is moved to a descriptor at least this high before the spawn
// gives it to the worker as descriptor 3, so that the two never coincide.
constexpr int kLowestMovedEnd = 10;

std::string status_words(int status) {
  return status > 128 ? "signal " + std::to_string(status - 128)
                      : "status " + std::to_string(status);
}

}  // namespace

HandOutSession::HandOutSession(const RunJob& job)
    : job_(job),
      queue_(hand_out_items(job.schedule, *job.plan), static_cast<int>(job.devices.size())),
      worker_ends_(job.devices.size(), -1) {
  const Config& config = *job.config;
  const std::vector<Point>& plan = *job.plan;
  const int workers = queue_.workers();
  if (!job.options->force) {
    const std::string hostname = host_facts().value("hostname", "");
    const std::vector<DevicePoint> measured =
        device_points(job.target.store().read().records, hostname);
    for (const auto& [item, worker] :
         resume_pins(plan, job.schedule, queue_.items(), measured, job.devices))
      queue_.pin(item, worker);
  }
  server_ =
      std::make_unique<HandOutServer>(queue_, hand_out_digest(plan, job.schedule, queue_.items()));
  const HostModel worker = worker_model(this_machine_model(), workers);
  std::vector<double> item_seconds =
      estimated_item_seconds(config, plan, job.schedule, queue_.items(), worker);
  std::vector<double> setup = estimated_image_setup_seconds(config);
  const double estimate = forecast_hand_out(queue_, item_seconds, setup, {}).seconds;
  eta_ = std::make_unique<HandOutEta>(std::move(item_seconds), std::move(setup), workers);
  std::size_t points = 0;
  for (const auto& item : queue_.items()) points += item.points;
  ProgressStyle style = Progress::style_for_stderr(job.options->verbosity == Verbosity::quiet,
                                                   job.options->verbosity == Verbosity::verbose);
  progress_ = std::make_unique<HandOutProgress>(queue_.items().size(), points, workers, estimate,
                                                style, stderr);
  server_->on_event = [this](const HandOutServer::Event& event) {
    switch (event.kind) {
      case HandOutServer::Event::Kind::taken:
        eta_->taken(event.worker, event.item, queue_.items()[event.item].image, now());
        break;
      case HandOutServer::Event::Kind::done:
        eta_->done(event.worker, now());
        ++groups_done_;
        points_done_ += queue_.items()[event.item].points;
        break;
      case HandOutServer::Event::Kind::refused:
        std::cerr << "convlab run: the worker of CUDA device " << job_.devices[event.worker]
                  << " expanded another plan than this run (did " << job_.config->path
                  << " change since the run started?); it is given nothing to measure\n";
        break;
    }
  };
}

HandOutSession::~HandOutSession() {
  for (int fd : worker_ends_)
    if (fd >= 0) ::close(fd);
}

double HandOutSession::now() const {
  return clock_.elapsed_seconds();
}

int HandOutSession::worker_end(int worker) {
  int fds[2];
  if (!hand_out_socket_pair(fds)) return -1;
  const int moved = ::fcntl(fds[1], F_DUPFD_CLOEXEC, kLowestMovedEnd);
  ::close(fds[1]);
  if (moved < 0) {
    ::close(fds[0]);
    return -1;
  }
  server_->add_worker(worker, fds[0]);
  worker_ends_[worker] = moved;
  return moved;
}

void HandOutSession::started(int worker) {
  if (worker_ends_[worker] >= 0) ::close(worker_ends_[worker]);
  worker_ends_[worker] = -1;
}

bool HandOutSession::worth_starting(int worker) const {
  return static_cast<std::size_t>(worker) < queue_.items().size() || queue_.has_pinned(worker);
}

void HandOutSession::not_started(int worker) {
  queue_.lost(worker);
}

void HandOutSession::serve(int timeout_ms) {
  server_->serve(timeout_ms);
  progress_->update(groups_done_, points_done_,
                    [this] { return eta_->seconds_left(queue_, now()); });
}

std::string HandOutSession::describe(std::size_t item) const {
  const WorkUnit& unit = job_.schedule.units[queue_.items()[item].units.front()];
  const std::size_t first = unit.points.empty() ? unit.searches.front().point : unit.points.front();
  const Point& point = (*job_.plan)[first];
  const Config& config = *job_.config;
  return config.images[point.image].name + " | " + config.filters[point.filter].name + " | " +
         std::string(to_string(point.border)) + " | " + std::string(to_string(point.output)) +
         " (" + std::to_string(queue_.items()[item].points) + " points)";
}

void HandOutSession::ended(int worker, int device, int status, bool interrupted) {
  const HandOut::Lost lost = server_->ended(worker);
  eta_->lost(worker);
  if (interrupted) return;
  const std::string who = "convlab run: the worker of CUDA device " + std::to_string(device) +
                          " ended with " + status_words(status) + " while measuring ";
  for (std::size_t item : lost.requeued)
    std::cerr << who << describe(item) << "; it goes to another device\n";
  for (std::size_t item : lost.repeated)
    std::cerr << who << describe(item)
              << ", which ended a worker before; not measured in this run: run again to measure "
                 "it\n";
  if (!lost.orphaned.empty())
    std::cerr << "convlab run: no device worker is left; " << lost.orphaned.size()
              << " problem groups not measured in this run (run again to measure them), the first: "
              << describe(lost.orphaned.front()) << "\n";
}

void HandOutSession::finish() {
  progress_->done();
}

}  // namespace convlab
