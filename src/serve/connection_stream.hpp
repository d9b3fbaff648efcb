// One client connection as cpp-httplib's Stream, for one request, with the limits of ServeLimits:
// it starts with the bytes the connection room read (serve/connection_room.hpp: the request's
// head, perhaps more), every further read and write waits at most its timeout, the head must be
// whole before its deadline and within its byte budget, and a closed peer is noticed without
// reading. The server (notebook_server.cpp) uses it in place of cpp-httplib's, whose reads have a
// timeout each but no deadline, so that a client sending one byte every few seconds would be kept
// forever.
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "serve/notebook_server.hpp"

namespace convlab {

class ConnectionStream : public httplib::Stream {
 public:
  ConnectionStream(int fd, const ServeLimits& limits, std::string read_already,
                   std::chrono::steady_clock::time_point head_deadline, std::size_t head_budget);

  // Whether the peer has closed its side (or the connection broke); never blocks nor reads.
  bool peer_closed() const;
  // The bytes read but not taken by the request (the start of the next one), taken out.
  std::string take_unread();
  // A request body of exactly `length` bytes, read before `deadline` (each wait also at most the
  // read timeout) and never a byte past it; nullopt when it does not come whole in time.
  std::optional<std::string> read_body(std::size_t length,
                                       std::chrono::steady_clock::time_point deadline);

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return fd_; }

 private:
  int poll_for(short events, std::chrono::milliseconds timeout) const;

  int fd_;
  const ServeLimits& limits_;
  std::string buffer_;
  std::size_t begin_ = 0;
  std::chrono::steady_clock::time_point deadline_;
  std::size_t budget_ = 0;
};

}  // namespace convlab
