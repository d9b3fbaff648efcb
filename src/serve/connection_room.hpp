// Where connections wait while they have no request to answer: a new connection before its first
// byte, a kept-alive one between requests, one whose request head is still arriving, and one being
// closed whose late bytes are read away. One thread watches them all (epoll) and hands a
// connection to the workers only once its request's head is complete, so that idle or slow
// clients, however many, hold no worker: a worker is taken only by a request it can answer at once.
//
// Every connection in the room has a deadline: the keep-alive time while idle; while its head
// arrives, the head's deadline from its first byte and the read timeout from its last; half a
// second while it is drained. At most `capacity` connections are held: a new one beyond that
// closes the one idle longest (or, with none idle, the oldest of the others).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "serve/notebook_server.hpp"

namespace convlab {

// A connection whose request head is complete (or over its byte budget), for a worker: its
// socket, the bytes read so far (the head, perhaps more), the requests it has served, and what is
// left of its head's deadline and byte budget.
struct ReadyConnection {
  int fd = -1;
  std::string bytes;
  int served = 0;
  std::chrono::steady_clock::time_point head_deadline;
  std::size_t head_budget = 0;
};

class ConnectionRoom {
 public:
  using Ready = std::function<void(ReadyConnection)>;
  using Close = std::function<void(int fd)>;

  // `ready` runs on the room's thread and must not block; `close` closes a socket for good.
  ConnectionRoom(const ServeLimits& limits, std::size_t capacity, Ready ready, Close close);
  ~ConnectionRoom();
  ConnectionRoom(const ConnectionRoom&) = delete;
  ConnectionRoom& operator=(const ConnectionRoom&) = delete;

  // Starts the thread; throws ServeError when the system gives no epoll or eventfd.
  void start();
  // Joins the thread and closes every connection held; what arrives afterwards is closed at once.
  void stop();

  // A new connection, waiting for its first request.
  void admit(int fd);
  // A connection answered and kept alive: `unread` holds bytes it sent past its last request.
  void keep(int fd, std::string unread, int served);
  // A connection whose sending side this server has shut: what the client still sends is read
  // away for half a second, so that it can read the answer before the socket is closed.
  void drain(int fd);

 private:
  using Clock = std::chrono::steady_clock;
  enum class Phase { idle, head, draining };

  struct Arrival {
    int fd;
    Phase phase;
    std::string bytes;
    int served;
  };
  struct Entry {
    Phase phase = Phase::idle;
    std::string bytes;
    int served = 0;
    Clock::time_point since;          // when it came into the room, for the choice at the cap
    Clock::time_point head_deadline;  // phase head: the whole head by then
    Clock::time_point deadline;       // closed when reached
  };

  void hand_in(Arrival arrival);
  void run();
  void place(Arrival arrival);
  void read_from(int fd);
  bool head_complete(Entry& entry, std::size_t searched_from) const;
  void set_deadline(int fd, Entry& entry, Clock::time_point deadline);
  void dispatch(int fd);
  void close_entry(int fd);
  void close_expired();
  void make_room();
  int wait_milliseconds() const;

  const ServeLimits& limits_;
  const std::size_t capacity_;
  Ready ready_;
  Close close_;
  int epoll_ = -1;
  int wake_ = -1;
  std::thread thread_;

  std::mutex inbox_mutex_;
  std::vector<Arrival> inbox_;
  bool running_ = false;

  // The room's thread only.
  std::map<int, Entry> entries_;
  std::set<std::pair<Clock::time_point, int>> deadlines_;
};

// How many connections the room may hold with this process's descriptors: the soft limit on open
// files is raised to the hard one when `wanted` does not fit, and a reserve is kept for the files
// being served, the workers' and the watcher's own.
std::size_t held_connection_capacity(std::size_t wanted);

}  // namespace convlab
