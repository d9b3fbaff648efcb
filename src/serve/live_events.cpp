#include "serve/live_events.hpp"

#include <algorithm>
#include <stdexcept>

namespace convlab {

namespace {

void check_event_name(const std::string& name) {
  if (name.empty()) throw std::invalid_argument("live event: the name is empty");
  if (name.find_first_of("\r\n:") != std::string::npos)
    throw std::invalid_argument("live event '" + name +
                                "': a name may hold no line break and no colon");
}

}  // namespace

void LiveEvents::publish(const std::string& event, const std::string& json_data) {
  check_event_name(event);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Event published{++last_sequence_, event, json_data};
    latest_[event] = published;
    kept_bytes_ += published.name.size() + published.json_data.size();
    kept_.push_back(std::move(published));
    while (kept_.size() > kKeptEvents || (kept_bytes_ > kKeptBytes && kept_.size() > 1)) {
      kept_bytes_ -= kept_.front().name.size() + kept_.front().json_data.size();
      kept_.pop_front();
    }
  }
  changed_.notify_all();
}

std::vector<LiveEvents::Event> LiveEvents::latest_of_each_name(
    std::uint64_t& sequence_after) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Event> events;
  events.reserve(latest_.size());
  for (const auto& named : latest_) events.push_back(named.second);
  std::sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.sequence < b.sequence; });
  sequence_after = last_sequence_;
  return events;
}

std::vector<LiveEvents::Event> LiveEvents::wait_after(std::uint64_t& sequence_after,
                                                      std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  const std::uint64_t wakes = wakes_;
  changed_.wait_for(lock, timeout,
                    [&] { return last_sequence_ > sequence_after || wakes_ != wakes; });
  std::vector<Event> events;
  if (last_sequence_ <= sequence_after) return events;
  if (!kept_.empty() && kept_.front().sequence <= sequence_after + 1) {
    for (const Event& event : kept_)
      if (event.sequence > sequence_after) events.push_back(event);
  } else {
    // Fallen behind what is kept: the latest state of each name that changed since.
    for (const auto& named : latest_)
      if (named.second.sequence > sequence_after) events.push_back(named.second);
    std::sort(events.begin(), events.end(),
              [](const Event& a, const Event& b) { return a.sequence < b.sequence; });
  }
  sequence_after = last_sequence_;
  return events;
}

void LiveEvents::wake_all() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++wakes_;
  }
  changed_.notify_all();
}

std::uint64_t LiveEvents::published() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_sequence_;
}

std::string event_stream_text(const LiveEvents::Event& event) {
  std::string text = "event: " + event.name + "\n";
  std::size_t start = 0;
  const std::string& data = event.json_data;
  while (true) {
    std::size_t end = data.find_first_of("\r\n", start);
    text += "data: " + data.substr(start, end == std::string::npos ? end : end - start) + "\n";
    if (end == std::string::npos) break;
    if (data[end] == '\r' && end + 1 < data.size() && data[end + 1] == '\n') ++end;
    start = end + 1;
  }
  return text + "\n";
}

}  // namespace convlab
