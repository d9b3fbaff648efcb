#include "run/hand_out.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>

#include "core/sha256.hpp"

namespace convlab {
namespace {

std::size_t first_point(const WorkUnit& unit) {
  return unit.points.empty() ? unit.searches.front().point : unit.points.front();
}

// Every plan index a unit may measure: its points and its searches' points.
std::vector<std::size_t> unit_indices(const WorkUnit& unit) {
  std::vector<std::size_t> indices = unit.points;
  for (const auto& search : unit.searches) indices.push_back(search.point);
  return indices;
}

// A group of the held image is preferred to a larger one while it costs at least two thirds as
// much: changing images (making the image, staging it) cost about a third of a problem on the
// committed GPU runs (1.4-3.6 s of 5-12 s), so the group at hand saves that much; beyond it, the
// larger group must start first.
bool within_affinity(std::int64_t cost, std::int64_t largest) {
  return cost * 3 >= largest * 2;
}

}  // namespace

std::vector<HandOutItem> hand_out_items(const Schedule& schedule, const std::vector<Point>& plan) {
  std::vector<HandOutItem> items;
  for (ProblemGroup& group : problem_groups(schedule, true)) {
    HandOutItem item;
    item.image = plan[first_point(schedule.units[group.units.front()])].image;
    static_cast<ProblemGroup&>(item) = std::move(group);
    items.push_back(std::move(item));
  }
  return items;
}

HandOut::HandOut(std::vector<HandOutItem> items, int workers)
    : items_(std::move(items)),
      state_(items_.size(), State::queued),
      pinned_(items_.size(), -1),
      given_back_(items_.size(), 0),
      held_image_(static_cast<std::size_t>(std::max(workers, 0))),
      held_(static_cast<std::size_t>(std::max(workers, 0))),
      alive_(static_cast<std::size_t>(std::max(workers, 0)), true) {}

void HandOut::pin(std::size_t item, int worker) {
  if (item < items_.size() && worker >= 0 && worker < workers() && alive_[worker])
    pinned_[item] = worker;
}

bool HandOut::has_pinned(int worker) const {
  return std::find(pinned_.begin(), pinned_.end(), worker) != pinned_.end();
}

int HandOut::holders_of(std::size_t image, int except) const {
  int holders = 0;
  for (int w = 0; w < workers(); ++w)
    if (w != except && alive_[w] && held_image_[w] == image) ++holders;
  return holders;
}

std::optional<std::size_t> HandOut::choose(int worker) const {
  // Its own pinned items first, in plan order (a split made before the run walks its part so).
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (state_[i] == State::queued && pinned_[i] == worker) return i;
  const auto may_take = [&](std::size_t i) { return state_[i] == State::queued && pinned_[i] < 0; };
  // Among those within two thirds of the largest: its image, then an image the fewest others hold,
  // then the largest, then plan order.
  std::int64_t largest = 0;
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (may_take(i)) largest = std::max(largest, items_[i].cost_us);
  const auto rank = [&](std::size_t i) {
    const bool held = held_image_[worker] == items_[i].image;
    return std::make_tuple(held ? 0 : 1, holders_of(items_[i].image, worker), -items_[i].cost_us,
                           i);
  };
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < items_.size(); ++i) {
    if (!may_take(i) || !within_affinity(items_[i].cost_us, largest)) continue;
    if (!best || rank(i) < rank(*best)) best = i;
  }
  return best;
}

std::optional<std::size_t> HandOut::take(int worker) {
  if (worker < 0 || worker >= workers() || !alive_[worker]) return std::nullopt;
  const std::optional<std::size_t> item = choose(worker);
  if (!item || !assign(worker, *item)) return std::nullopt;
  return item;
}

bool HandOut::assign(int worker, std::size_t item) {
  if (worker < 0 || worker >= workers() || !alive_[worker] || item >= items_.size() ||
      state_[item] != State::queued)
    return false;
  state_[item] = State::held;
  held_[worker].push_back(item);
  held_image_[worker] = items_[item].image;
  return true;
}

bool HandOut::done(int worker, std::size_t item) {
  if (worker < 0 || worker >= workers()) return false;
  auto& mine = held_[worker];
  const auto found = std::find(mine.begin(), mine.end(), item);
  if (found == mine.end()) return false;
  mine.erase(found);
  state_[item] = State::done;
  return true;
}

HandOut::Lost HandOut::lost(int worker) {
  Lost lost;
  if (worker < 0 || worker >= workers() || !alive_[worker]) return lost;
  alive_[worker] = false;
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (pinned_[i] == worker) pinned_[i] = -1;
  for (std::size_t item : held_[worker]) {
    if (++given_back_[item] > 1) {
      state_[item] = State::abandoned;
      abandoned_.push_back(item);
      lost.repeated.push_back(item);
    } else {
      state_[item] = State::queued;
      lost.requeued.push_back(item);
    }
  }
  held_[worker].clear();
  held_image_[worker].reset();
  if (std::find(alive_.begin(), alive_.end(), true) != alive_.end()) return lost;
  // No worker is left: what is queued can no longer be measured in this run.
  lost.requeued.clear();
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (state_[i] == State::queued) {
      state_[i] = State::abandoned;
      abandoned_.push_back(i);
      lost.orphaned.push_back(i);
    }
  return lost;
}

bool HandOut::finished() const {
  return std::none_of(state_.begin(), state_.end(),
                      [](State s) { return s == State::queued || s == State::held; });
}

std::size_t HandOut::queued() const {
  return static_cast<std::size_t>(std::count(state_.begin(), state_.end(), State::queued));
}

std::size_t HandOut::done_count() const {
  return static_cast<std::size_t>(std::count(state_.begin(), state_.end(), State::done));
}

std::vector<DevicePoint> device_points(const std::vector<Record>& records,
                                       const std::string& hostname) {
  std::vector<DevicePoint> points;
  for (const Record& record : records)
    if (record.is_cuda() && record.status == Status::ok && record.machine &&
        record.machine->gpu_index && record.machine->hostname == hostname)
      points.push_back({record.description().digest(), *record.machine->gpu_index});
  return points;
}

std::vector<std::pair<std::size_t, int>> resume_pins(const std::vector<Point>& plan,
                                                     const Schedule& schedule,
                                                     const std::vector<HandOutItem>& items,
                                                     const std::vector<DevicePoint>& measured,
                                                     const std::vector<int>& devices) {
  std::map<std::string, std::size_t> item_of_digest;
  for (std::size_t i = 0; i < items.size(); ++i)
    for (std::size_t u : items[i].units)
      for (std::size_t p : unit_indices(schedule.units[u]))
        item_of_digest.emplace(plan[p].digest, i);
  std::map<std::size_t, std::map<int, std::size_t>> votes;  // item -> worker -> points
  for (const DevicePoint& point : measured) {
    const auto worker = std::find(devices.begin(), devices.end(), point.device);
    const auto item = item_of_digest.find(point.digest);
    if (worker == devices.end() || item == item_of_digest.end()) continue;
    ++votes[item->second][static_cast<int>(worker - devices.begin())];
  }
  std::vector<std::pair<std::size_t, int>> pins;
  for (const auto& [item, by_worker] : votes) {
    const auto most =
        std::max_element(by_worker.begin(), by_worker.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    pins.emplace_back(item, most->first);
  }
  return pins;
}

std::string hand_out_digest(const std::vector<Point>& plan, const Schedule& schedule,
                            const std::vector<HandOutItem>& items) {
  std::string text;
  for (const HandOutItem& item : items) {
    for (std::size_t u : item.units)
      for (std::size_t p : unit_indices(schedule.units[u])) text += plan[p].digest + ",";
    text += ";";
  }
  return sha256_hex(text).substr(0, 16);
}

HandOutForecast forecast_hand_out(HandOut queue, const std::vector<double>& item_seconds,
                                  const std::vector<double>& image_setup,
                                  std::vector<double> free_at) {
  HandOutForecast forecast;
  const int workers = queue.workers();
  free_at.resize(static_cast<std::size_t>(workers), 0.0);
  forecast.worker_of_item.assign(queue.items().size(), -1);
  forecast.worker_seconds = free_at;
  std::vector<bool> idle(static_cast<std::size_t>(workers), false);
  for (int w = 0; w < workers; ++w) idle[w] = !queue.alive(w);
  while (true) {
    int next = -1;
    for (int w = 0; w < workers; ++w)
      if (!idle[w] && (next < 0 || free_at[w] < free_at[next])) next = w;
    if (next < 0) break;
    const std::optional<std::size_t> before = queue.held_image(next);
    const std::optional<std::size_t> item = queue.take(next);
    if (!item) {
      // Nothing it may take now; pinned items of others keep the others busy.
      idle[next] = true;
      continue;
    }
    const HandOutItem& taken = queue.items()[*item];
    double seconds = item_seconds[*item];
    if (before != taken.image && taken.image < image_setup.size())
      seconds += image_setup[taken.image];
    free_at[next] += seconds;
    forecast.worker_of_item[*item] = next;
    forecast.worker_seconds[next] = free_at[next];
    queue.done(next, *item);
  }
  for (double s : forecast.worker_seconds) forecast.seconds = std::max(forecast.seconds, s);
  return forecast;
}

HandOutPolicy hand_out_policy(std::string* warning) {
  const char* value = std::getenv("CONVLAB_HAND_OUT");
  const std::string text = value == nullptr ? "" : value;
  if (text.empty() || text == "queue") return HandOutPolicy::queue;
  if (text == "fixed") return HandOutPolicy::fixed;
  if (warning)
    *warning = "CONVLAB_HAND_OUT=" + text +
               " is neither 'queue' nor 'fixed'; the problems are handed out from the queue";
  return HandOutPolicy::queue;
}

}  // namespace convlab
