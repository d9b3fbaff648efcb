// The live channel of the notebook: named events (a JSON text each) published by the process that
// runs the experiment and sent to every open page as server-sent events. publish() only appends to
// a bounded list under a short lock and wakes the streams; each stream writes on its own thread, so
// a slow or stalled page never holds up the publisher nor another page.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace convlab {

// Thread-safe broadcast of server-sent events to every connected page.
class LiveEvents {
 public:
  struct Event {
    std::uint64_t sequence = 0;  // 1 for the first event published, then one more each
    std::string name;
    std::string json_data;
  };

  // How many published events are kept for streams that have not sent them yet. A stream that
  // falls further behind is sent the latest event of each name published since it last wrote.
  static constexpr std::size_t kKeptEvents = 1024;
  static constexpr std::size_t kKeptBytes = std::size_t{8} << 20;

  // Never blocks on slow clients. `event` must be a non-empty name without line breaks or colons
  // (std::invalid_argument otherwise); line breaks in `json_data` become separate data lines.
  void publish(const std::string& event, const std::string& json_data);

  // The latest event of each name, oldest first, for a stream that starts: a client that connects
  // gets these first, then the events published after `sequence_after`.
  std::vector<Event> latest_of_each_name(std::uint64_t& sequence_after) const;

  // The events published after `sequence_after`, waiting up to `timeout` for the first one; empty
  // when none came or wake_all() was called. `sequence_after` moves past what is returned.
  std::vector<Event> wait_after(std::uint64_t& sequence_after, std::chrono::milliseconds timeout);

  // Wakes every waiting stream (a server that stops).
  void wake_all();

  std::uint64_t published() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Event> kept_;
  std::size_t kept_bytes_ = 0;
  std::map<std::string, Event> latest_;
  std::uint64_t last_sequence_ = 0;
  std::uint64_t wakes_ = 0;
};

// The bytes of one event on the wire: "event: NAME\ndata: LINE\n...\n".
std::string event_stream_text(const LiveEvents::Event& event);

}  // namespace convlab
