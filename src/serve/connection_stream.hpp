// One client connection as cpp-httplib's Stream, with the limits of ServeLimits: every read and
// write waits at most its timeout, a request's head must arrive whole before its deadline and
// within its byte budget, and a closed peer is noticed without reading. The server's own loop over
// a connection (notebook_server.cpp) uses it in place of cpp-httplib's, whose reads have a timeout
// each but no deadline, so that a client sending one byte every few seconds would be kept forever.
#pragma once

#include <httplib.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <string>

#include "serve/notebook_server.hpp"

namespace convlab {

class ConnectionStream : public httplib::Stream {
 public:
  ConnectionStream(int fd, const ServeLimits& limits);

  // Waits up to `idle` for the first byte of a request; false when none came or the peer closed.
  bool wait_for_request(std::chrono::milliseconds idle);
  // Starts the deadline and the byte budget of the next request's head.
  void begin_request();
  // Whether the peer has closed its side (or the connection broke); never blocks nor reads.
  bool peer_closed() const;

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
  std::array<char, 4096> buffer_{};
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::chrono::steady_clock::time_point deadline_;
  std::size_t budget_ = 0;
};

}  // namespace convlab
