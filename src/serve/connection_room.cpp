#include "serve/connection_room.hpp"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace convlab {

using std::chrono::milliseconds;

namespace {

const milliseconds kDrainTime(500);
// Descriptors kept apart from held connections: files being served, event streams, the watcher's
// own files and the programs it starts.
const std::size_t kReservedDescriptors = 256;

}  // namespace

ConnectionRoom::ConnectionRoom(const ServeLimits& limits, std::size_t capacity, Ready ready,
                               Close close)
    : limits_(limits),
      capacity_(std::max<std::size_t>(1, capacity)),
      ready_(std::move(ready)),
      close_(std::move(close)) {}

ConnectionRoom::~ConnectionRoom() {
  stop();
  if (epoll_ >= 0) ::close(epoll_);
  if (wake_ >= 0) ::close(wake_);
}

void ConnectionRoom::start() {
  epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
  wake_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (epoll_ < 0 || wake_ < 0)
    throw ServeError(std::string("cannot watch connections: ") + std::strerror(errno));
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = wake_;
  if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &event) != 0)
    throw ServeError(std::string("cannot watch connections: ") + std::strerror(errno));
  {
    std::lock_guard<std::mutex> lock(inbox_mutex_);
    running_ = true;
  }
  thread_ = std::thread([this] { run(); });
}

void ConnectionRoom::stop() {
  {
    std::lock_guard<std::mutex> lock(inbox_mutex_);
    if (!running_) return;
    running_ = false;
  }
  const std::uint64_t one = 1;
  if (::write(wake_, &one, sizeof one) < 0) {
    // The counter is full: the thread is awake anyway.
  }
  if (thread_.joinable()) thread_.join();
}

void ConnectionRoom::admit(int fd) {
  hand_in({fd, Phase::idle, {}, 0});
}

void ConnectionRoom::keep(int fd, std::string unread, int served) {
  hand_in({fd, Phase::idle, std::move(unread), served});
}

void ConnectionRoom::drain(int fd) {
  hand_in({fd, Phase::draining, {}, 0});
}

void ConnectionRoom::hand_in(Arrival arrival) {
  {
    std::lock_guard<std::mutex> lock(inbox_mutex_);
    if (running_) {
      inbox_.push_back(std::move(arrival));
      arrival.fd = -1;
    }
  }
  if (arrival.fd >= 0) return close_(arrival.fd);  // the room is closed
  const std::uint64_t one = 1;
  if (::write(wake_, &one, sizeof one) < 0) {
    // The counter is full: the thread is awake anyway.
  }
}

void ConnectionRoom::run() {
  std::array<epoll_event, 256> events{};
  for (;;) {
    std::vector<Arrival> arrivals;
    {
      std::lock_guard<std::mutex> lock(inbox_mutex_);
      if (!running_) break;
      arrivals.swap(inbox_);
    }
    for (Arrival& arrival : arrivals) place(std::move(arrival));
    const int ready =
        ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), wait_milliseconds());
    for (int i = 0; i < ready; ++i) {
      const int fd = events[static_cast<std::size_t>(i)].data.fd;
      if (fd == wake_) {
        std::uint64_t count = 0;
        if (::read(wake_, &count, sizeof count) < 0) {
          // Nothing to take: another wake-up took it.
        }
      } else if (entries_.count(fd)) {
        read_from(fd);
      }
    }
    close_expired();
  }
  // Stopped: whatever is held or still came in is closed.
  std::vector<Arrival> arrivals;
  {
    std::lock_guard<std::mutex> lock(inbox_mutex_);
    arrivals.swap(inbox_);
  }
  for (const Arrival& arrival : arrivals) close_(arrival.fd);
  while (!entries_.empty()) close_entry(entries_.begin()->first);
}

void ConnectionRoom::place(Arrival arrival) {
  while (entries_.size() >= capacity_) make_room();
  const int fd = arrival.fd;
  Entry& entry = entries_[fd];
  entry.phase = arrival.phase;
  entry.bytes = std::move(arrival.bytes);
  entry.served = arrival.served;
  entry.since = Clock::now();
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP;
  event.data.fd = fd;
  if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event) != 0) return close_entry(fd);
  if (entry.phase == Phase::draining) return set_deadline(fd, entry, entry.since + kDrainTime);
  if (entry.bytes.empty()) return set_deadline(fd, entry, entry.since + limits_.keep_alive_timeout);
  // Bytes of the next request came with the last one (pipelining).
  entry.phase = Phase::head;
  entry.head_deadline = entry.since + limits_.request_deadline;
  set_deadline(fd, entry, std::min(entry.head_deadline, entry.since + limits_.read_timeout));
  if (head_complete(entry, 0) || entry.bytes.size() >= limits_.max_request_head_bytes) dispatch(fd);
}

void ConnectionRoom::read_from(int fd) {
  Entry& entry = entries_.at(fd);
  std::array<char, 16384> chunk;
  std::size_t want = chunk.size();
  if (entry.phase != Phase::draining)
    want = std::min(want, limits_.max_request_head_bytes -
                              std::min(limits_.max_request_head_bytes, entry.bytes.size()));
  if (want == 0) return dispatch(fd);
  ssize_t got;
  do {
    got = ::recv(fd, chunk.data(), want, MSG_DONTWAIT);
  } while (got < 0 && errno == EINTR);
  if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
  // The client closed (or the connection broke) before a whole request: nothing to answer.
  if (got <= 0) return close_entry(fd);
  if (entry.phase == Phase::draining) return;  // read away
  const auto now = Clock::now();
  if (entry.phase == Phase::idle) {
    entry.phase = Phase::head;
    entry.head_deadline = now + limits_.request_deadline;
  }
  const std::size_t searched = entry.bytes.size();
  entry.bytes.append(chunk.data(), static_cast<std::size_t>(got));
  set_deadline(fd, entry, std::min(entry.head_deadline, now + limits_.read_timeout));
  if (head_complete(entry, searched) || entry.bytes.size() >= limits_.max_request_head_bytes)
    dispatch(fd);
}

// A head ends at its first empty line ("\r\n" after a line's end), as cpp-httplib reads it; a
// head cpp-httplib would read differently is refused by it with 400, never waited for on a worker
// longer than its deadline.
bool ConnectionRoom::head_complete(Entry& entry, std::size_t searched_from) const {
  const std::size_t from = searched_from >= 2 ? searched_from - 2 : 0;
  return entry.bytes.find("\n\r\n", from) != std::string::npos;
}

void ConnectionRoom::set_deadline(int fd, Entry& entry, Clock::time_point deadline) {
  deadlines_.erase({entry.deadline, fd});
  entry.deadline = deadline;
  deadlines_.insert({deadline, fd});
}

void ConnectionRoom::dispatch(int fd) {
  const auto found = entries_.find(fd);
  ::epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
  deadlines_.erase({found->second.deadline, fd});
  ReadyConnection ready;
  ready.fd = fd;
  ready.bytes = std::move(found->second.bytes);
  ready.served = found->second.served;
  ready.head_deadline = found->second.head_deadline;
  ready.head_budget =
      limits_.max_request_head_bytes - std::min(limits_.max_request_head_bytes, ready.bytes.size());
  entries_.erase(found);
  ready_(std::move(ready));
}

void ConnectionRoom::close_entry(int fd) {
  const auto found = entries_.find(fd);
  if (found == entries_.end()) return;
  ::epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
  deadlines_.erase({found->second.deadline, fd});
  entries_.erase(found);
  close_(fd);
}

void ConnectionRoom::close_expired() {
  const auto now = Clock::now();
  while (!deadlines_.empty() && deadlines_.begin()->first <= now)
    close_entry(deadlines_.begin()->second);
}

// The room is full: the connection idle longest goes first, since it asked for nothing; with none
// idle, the oldest of the rest (a head that has taken longest, or a drain).
void ConnectionRoom::make_room() {
  int oldest_idle = -1, oldest = -1;
  Clock::time_point idle_since = Clock::time_point::max(), since = Clock::time_point::max();
  for (const auto& [fd, entry] : entries_) {
    if (entry.phase == Phase::idle && entry.since < idle_since) {
      idle_since = entry.since;
      oldest_idle = fd;
    }
    if (entry.since < since) {
      since = entry.since;
      oldest = fd;
    }
  }
  close_entry(oldest_idle >= 0 ? oldest_idle : oldest);
}

int ConnectionRoom::wait_milliseconds() const {
  if (deadlines_.empty()) return -1;
  const auto left = deadlines_.begin()->first - Clock::now();
  if (left <= Clock::duration::zero()) return 0;
  return static_cast<int>(std::chrono::ceil<milliseconds>(left).count());
}

std::size_t held_connection_capacity(std::size_t wanted) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return std::min<std::size_t>(wanted, 512);
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted + kReservedDescriptors &&
      limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  if (limit.rlim_cur == RLIM_INFINITY) return wanted;
  const auto soft = static_cast<std::size_t>(limit.rlim_cur);
  const std::size_t usable =
      soft > 2 * kReservedDescriptors ? soft - kReservedDescriptors : soft / 2;
  return std::max<std::size_t>(1, std::min(wanted, usable));
}

}  // namespace convlab
