#include "serve/connection_stream.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace convlab {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

void address_of(const sockaddr_storage& address, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
    ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
    port = ntohs(v4.sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    port = ntohs(v6.sin6_port);
  }
  ip = text;
}

}  // namespace

ConnectionStream::ConnectionStream(int fd, const ServeLimits& limits, std::string read_already,
                                   Clock::time_point head_deadline, std::size_t head_budget)
    : fd_(fd),
      limits_(limits),
      buffer_(std::move(read_already)),
      deadline_(head_deadline),
      budget_(head_budget) {}

int ConnectionStream::poll_for(short events, milliseconds timeout) const {
  pollfd entry{fd_, events, 0};
  const int wait = static_cast<int>(std::max<milliseconds::rep>(0, timeout.count()));
  int ready;
  do {
    ready = ::poll(&entry, 1, wait);
  } while (ready < 0 && errno == EINTR);
  if (ready <= 0) return ready;
  return entry.revents;
}

bool ConnectionStream::peer_closed() const {
  const int revents = poll_for(POLLIN | POLLRDHUP, milliseconds(0));
  if (revents < 0) return true;
  if (revents & (POLLERR | POLLHUP | POLLNVAL | POLLRDHUP)) return true;
  if (revents & POLLIN) {
    char byte;
    return ::recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
  }
  return false;
}

std::string ConnectionStream::take_unread() {
  std::string unread = buffer_.substr(begin_);
  buffer_.clear();
  begin_ = 0;
  return unread;
}

std::optional<std::string> ConnectionStream::read_body(std::size_t length,
                                                       Clock::time_point deadline) {
  const std::size_t buffered = std::min(length, buffer_.size() - begin_);
  std::string body = buffer_.substr(begin_, buffered);
  begin_ += buffered;
  // From here read() takes what is left of the body, and nothing more, before the deadline.
  budget_ = length - body.size();
  deadline_ = deadline;
  char chunk[4096];
  while (body.size() < length) {
    const ssize_t got = read(chunk, std::min(sizeof chunk, length - body.size()));
    if (got <= 0) return std::nullopt;
    body.append(chunk, static_cast<std::size_t>(got));
  }
  return body;
}

bool ConnectionStream::is_readable() const {
  return begin_ < buffer_.size() || poll_for(POLLIN, limits_.read_timeout) > 0;
}

bool ConnectionStream::is_writable() const {
  const int revents = poll_for(POLLOUT, limits_.write_timeout);
  return revents > 0 && (revents & POLLOUT) && !(revents & (POLLERR | POLLHUP | POLLNVAL));
}

ssize_t ConnectionStream::read(char* ptr, size_t size) {
  if (begin_ == buffer_.size()) {
    if (budget_ == 0) return -1;  // the head is larger than allowed
    const auto left = std::chrono::duration_cast<milliseconds>(deadline_ - Clock::now());
    if (left.count() <= 0) return -1;  // the head did not arrive in time
    const int revents = poll_for(POLLIN, std::min(left, limits_.read_timeout));
    if (revents <= 0) return -1;
    char chunk[4096];
    const std::size_t want = std::min(sizeof chunk, budget_);
    ssize_t got;
    do {
      got = ::recv(fd_, chunk, want, 0);
    } while (got < 0 && errno == EINTR);
    if (got <= 0) return got;
    buffer_.assign(chunk, static_cast<std::size_t>(got));
    begin_ = 0;
    budget_ -= buffer_.size();
  }
  const std::size_t copied = std::min(size, buffer_.size() - begin_);
  std::memcpy(ptr, buffer_.data() + begin_, copied);
  begin_ += copied;
  return static_cast<ssize_t>(copied);
}

ssize_t ConnectionStream::write(const char* ptr, size_t size) {
  if (poll_for(POLLOUT, limits_.write_timeout) <= 0) return -1;
  ssize_t sent;
  do {
    sent = ::send(fd_, ptr, size, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  return sent;
}

void ConnectionStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0)
    address_of(address, ip, port);
}

void ConnectionStream::get_local_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0)
    address_of(address, ip, port);
}

}  // namespace convlab
