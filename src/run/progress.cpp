#include "run/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

namespace convlab {

std::string format_duration(double seconds) {
  if (seconds < 0) return "?";
  const long total = static_cast<long>(seconds + 0.5);
  char text[32];
  if (total >= 3600)
    std::snprintf(text, sizeof text, "%ldh%02ldm", total / 3600, (total / 60) % 60);
  else
    std::snprintf(text, sizeof text, "%ldm%02lds", total / 60, total % 60);
  return text;
}

double corrected_eta(double estimated_after_current, double current_estimate,
                     double current_elapsed, double measured_done, double estimated_done) {
  const double scale = estimated_done > 0 ? measured_done / estimated_done : 1.0;
  const double current_left = std::max(0.0, current_estimate * scale - current_elapsed);
  return current_left + estimated_after_current * scale;
}

ProgressStyle Progress::style_for_stderr(bool quiet, bool verbose) {
  ProgressStyle style;
  style.terminal = ::isatty(STDERR_FILENO) == 1;
  style.quiet = quiet;
  style.verbose = verbose;
  winsize size{};
  if (style.terminal && ::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 20)
    style.width = size.ws_col;
  return style;
}

Progress::Progress(size_t total, double estimated_seconds, ProgressStyle style, std::FILE* stream)
    : total_(total), estimated_total_(estimated_seconds), style_(style), stream_(stream) {
  if (!style_.quiet) ticker_ = std::thread([this] { tick(); });
}

Progress::~Progress() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void Progress::tick() {
  const auto interval = std::chrono::duration<double>(
      style_.terminal ? style_.redraw_interval_seconds
                      : std::min(style_.redraw_interval_seconds, style_.plain_interval_seconds));
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, interval, [this] { return stopping_; })) {
    if (style_.terminal)
      draw_locked();
    else if (since_plain_line_.elapsed_seconds() >= style_.plain_interval_seconds)
      plain_line_locked();
  }
}

ProgressSnapshot Progress::snapshot() {
  const std::lock_guard<std::mutex> lock(mutex_);
  return {position_, total_, eta_locked()};
}

double Progress::eta_locked() const {
  return corrected_eta(estimated_after_, in_point_ ? point_estimate_ : 0.0,
                       in_point_ ? point_clock_.elapsed_seconds() : 0.0, measured_done_,
                       estimated_done_);
}

void Progress::draw_locked() {
  constexpr int kBar = 20;
  const int filled = total_ ? static_cast<int>(kBar * position_ / total_) : kBar;
  std::string bar(static_cast<size_t>(filled), '=');
  if (filled < kBar) bar += '>' + std::string(static_cast<size_t>(kBar - filled - 1), ' ');
  std::string line = "[" + bar + "] " + std::to_string(std::min(position_ + 1, total_)) + "/" +
                     std::to_string(total_) + "  elapsed " +
                     format_duration(clock_.elapsed_seconds()) + "  ETA " +
                     format_duration(eta_locked()) + "  " + label_;
  if (line.size() > static_cast<size_t>(style_.width - 1))
    line.resize(static_cast<size_t>(style_.width - 1));
  std::fprintf(stream_, "\r\033[K%s", line.c_str());
  std::fflush(stream_);
  drawn_ = true;
}

void Progress::plain_line_locked() {
  std::fprintf(stream_, "%s: %zu/%zu points, elapsed %s, ETA %s\n", style_.who.c_str(), position_,
               total_, format_duration(clock_.elapsed_seconds()).c_str(),
               format_duration(eta_locked()).c_str());
  std::fflush(stream_);
  since_plain_line_.restart();
}

void Progress::kept(size_t index, const std::string& label) {
  std::lock_guard<std::mutex> lock(mutex_);
  position_ = index + 1;
  if (style_.verbose)
    std::fprintf(stream_, "%s%s[%zu/%zu] %s: kept from an earlier run\n", drawn_ ? "\r\033[K" : "",
                 style_.tag.c_str(), index + 1, total_, label.c_str());
}

void Progress::starting(size_t index, const std::string& label, double point_estimate,
                        double estimated_after) {
  std::lock_guard<std::mutex> lock(mutex_);
  position_ = index;
  label_ = label;
  point_estimate_ = point_estimate;
  estimated_after_ = estimated_after;
  in_point_ = true;
  any_started_ = true;
  point_clock_.restart();
  if (style_.terminal && !style_.quiet) draw_locked();
}

void Progress::finished(size_t index, const std::string& label, const std::string& outcome,
                        bool failed, bool measured) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (measured) {
    measured_done_ += point_clock_.elapsed_seconds();
    estimated_done_ += point_estimate_;
  }
  in_point_ = false;
  position_ = index + 1;
  if (style_.verbose || failed)
    std::fprintf(stream_, "%s%s[%zu/%zu] %s: %s\n", drawn_ ? "\r\033[K" : "", style_.tag.c_str(),
                 index + 1, total_, label.c_str(), outcome.c_str());
  if (style_.terminal && !style_.quiet) draw_locked();
}

void Progress::done() {
  std::lock_guard<std::mutex> lock(mutex_);
  stopping_ = true;
  wake_.notify_all();
  if (style_.quiet) return;
  if (drawn_) std::fprintf(stream_, "\r\033[K");
  if (!any_started_) {
    std::fflush(stream_);
    return;
  }
  std::fprintf(stream_, "%s: %zu points in %s (estimated %s before the run)\n", style_.who.c_str(),
               total_, format_duration(clock_.elapsed_seconds()).c_str(),
               format_duration(estimated_total_).c_str());
  std::fflush(stream_);
}

HandOutEta::HandOutEta(std::vector<double> item_seconds, std::vector<double> image_setup,
                       int workers)
    : item_seconds_(std::move(item_seconds)),
      image_setup_(std::move(image_setup)),
      image_(static_cast<std::size_t>(workers)),
      held_(static_cast<std::size_t>(workers)),
      began_(static_cast<std::size_t>(workers), 0.0) {}

void HandOutEta::taken(int worker, std::size_t item, std::size_t image, double now) {
  double estimate = item < item_seconds_.size() ? item_seconds_[item] : 0.0;
  if (image_[worker] != image && image < image_setup_.size()) estimate += image_setup_[image];
  image_[worker] = image;
  if (held_[worker].empty()) began_[worker] = now;
  held_[worker].push_back(estimate);
}

void HandOutEta::lost(int worker) {
  held_[worker].clear();
  image_[worker].reset();
}

void HandOutEta::done(int worker, double now) {
  if (held_[worker].empty()) return;
  measured_ += std::max(0.0, now - began_[worker]);
  estimated_ += held_[worker].front();
  held_[worker].pop_front();
  began_[worker] = now;
}

double HandOutEta::scale() const {
  return estimated_ > 0.0 && measured_ > 0.0 ? measured_ / estimated_ : 1.0;
}

double HandOutEta::seconds_left(const HandOut& queue, double now) const {
  const double s = scale();
  std::vector<double> free_at(held_.size(), now);
  for (std::size_t w = 0; w < held_.size(); ++w) {
    if (!queue.alive(static_cast<int>(w))) continue;
    bool first = true;
    for (double estimate : held_[w]) {
      free_at[w] += first ? std::max(0.0, estimate * s - (now - began_[w])) : estimate * s;
      first = false;
    }
  }
  std::vector<double> items = item_seconds_, setup = image_setup_;
  for (double& seconds : items) seconds *= s;
  for (double& seconds : setup) seconds *= s;
  return std::max(0.0, forecast_hand_out(queue, items, setup, free_at).seconds - now);
}

HandOutProgress::HandOutProgress(std::size_t groups, std::size_t points, int workers,
                                 double estimated_seconds, ProgressStyle style, std::FILE* stream)
    : groups_(groups),
      points_(points),
      workers_(workers),
      estimated_seconds_(estimated_seconds),
      eta_seconds_(estimated_seconds),
      style_(std::move(style)),
      stream_(stream) {}

void HandOutProgress::update(std::size_t groups_done, std::size_t points_done,
                             const std::function<double()>& eta_seconds) {
  groups_done_ = groups_done;
  points_done_ = points_done;
  if (style_.quiet) return;
  const double interval =
      style_.terminal ? style_.redraw_interval_seconds : style_.plain_interval_seconds;
  if (since_line_.elapsed_seconds() < interval && !(style_.terminal && !drawn_)) return;
  eta_seconds_ = eta_seconds();
  draw();
}

void HandOutProgress::draw() {
  const std::string where = std::to_string(groups_done_) + "/" + std::to_string(groups_) +
                            " problem groups, " + std::to_string(points_done_) + "/" +
                            std::to_string(points_) + " points, " + std::to_string(workers_) +
                            " workers";
  if (style_.terminal) {
    constexpr int kBar = 20;
    const int filled = groups_ ? static_cast<int>(kBar * groups_done_ / groups_) : kBar;
    std::string bar(static_cast<size_t>(filled), '=');
    if (filled < kBar) bar += '>' + std::string(static_cast<size_t>(kBar - filled - 1), ' ');
    std::string line = "[" + bar + "] " + where + "  elapsed " +
                       format_duration(clock_.elapsed_seconds()) + "  ETA " +
                       format_duration(eta_seconds_);
    if (line.size() > static_cast<size_t>(style_.width - 1))
      line.resize(static_cast<size_t>(style_.width - 1));
    std::fprintf(stream_, "\r\033[K%s", line.c_str());
    drawn_ = true;
  } else {
    std::fprintf(stream_, "%s: %s, elapsed %s, ETA %s\n", style_.who.c_str(), where.c_str(),
                 format_duration(clock_.elapsed_seconds()).c_str(),
                 format_duration(eta_seconds_).c_str());
  }
  std::fflush(stream_);
  since_line_.restart();
}

void HandOutProgress::done() {
  if (style_.quiet) return;
  if (drawn_) std::fprintf(stream_, "\r\033[K");
  std::fprintf(stream_,
               "%s: %zu of %zu problem groups (%zu points) on %d devices in %s (estimated %s "
               "before the run)\n",
               style_.who.c_str(), groups_done_, groups_, points_done_, workers_,
               format_duration(clock_.elapsed_seconds()).c_str(),
               format_duration(estimated_seconds_).c_str());
  std::fflush(stream_);
}

}  // namespace convlab
