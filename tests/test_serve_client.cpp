#include "test_serve_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace convlab::serve_test {

namespace fs = std::filesystem;

std::string HttpReply::header(const std::string& lowercase_name) const {
  const auto found = headers.find(lowercase_name);
  return found == headers.end() ? "" : found->second;
}

bool HttpReply::has_header(const std::string& lowercase_name) const {
  return headers.count(lowercase_name) > 0;
}

namespace {

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string dechunked(const std::string& body) {
  std::string out;
  std::size_t at = 0;
  while (at < body.size()) {
    const std::size_t line_end = body.find("\r\n", at);
    if (line_end == std::string::npos) break;
    const std::size_t size = std::strtoul(body.substr(at, line_end - at).c_str(), nullptr, 16);
    if (size == 0) break;
    out += body.substr(line_end + 2, size);
    at = line_end + 2 + size + 2;
  }
  return out;
}

}  // namespace

HttpReply parse_reply(const std::string& raw) {
  HttpReply reply;
  reply.raw = raw;
  const std::size_t head_end = raw.find("\r\n\r\n");
  if (raw.rfind("HTTP/1.", 0) != 0 || head_end == std::string::npos) return reply;
  reply.received = true;
  reply.status = std::atoi(raw.substr(9, 3).c_str());
  std::size_t at = raw.find("\r\n") + 2;
  while (at < head_end) {
    const std::size_t end = raw.find("\r\n", at);
    const std::string line = raw.substr(at, end - at);
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      reply.headers.emplace(lowercase(line.substr(0, colon)), value);
    }
    at = end + 2;
  }
  reply.body = raw.substr(head_end + 4);
  if (lowercase(reply.header("transfer-encoding")) == "chunked") reply.body = dechunked(reply.body);
  return reply;
}

RawConnection::RawConnection(const std::string& address, int port) {
  const bool v6 = address.find(':') != std::string::npos;
  fd_ = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error("socket() failed");
  int result;
  if (v6) {
    sockaddr_in6 target{};
    target.sin6_family = AF_INET6;
    target.sin6_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET6, address.c_str(), &target.sin6_addr);
    result = ::connect(fd_, reinterpret_cast<sockaddr*>(&target), sizeof target);
  } else {
    sockaddr_in target{};
    target.sin_family = AF_INET;
    target.sin_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET, address.c_str(), &target.sin_addr);
    result = ::connect(fd_, reinterpret_cast<sockaddr*>(&target), sizeof target);
  }
  if (result != 0) {
    connect_errno_ = errno;
    ::close(fd_);
    fd_ = -1;
  }
}

RawConnection::~RawConnection() {
  close_now();
}

void RawConnection::close_now() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool RawConnection::send_bytes(const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

bool RawConnection::read_until(const std::string& text, std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (received_.find(text) == std::string::npos) {
    if (peer_closed_ || fd_ < 0) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd entry{fd_, POLLIN, 0};
    if (::poll(&entry, 1, static_cast<int>(left.count())) <= 0) continue;
    char buffer[16384];
    const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      peer_closed_ = true;
      return false;
    }
    received_.append(buffer, static_cast<std::size_t>(n));
  }
  return true;
}

bool RawConnection::read_until_closed(std::chrono::milliseconds timeout) {
  read_until(std::string(1, '\0') + "never sent by the server\x01", timeout);
  return peer_closed_;
}

HttpReply send_request(int port, const std::string& request, std::chrono::milliseconds timeout,
                       const std::string& address) {
  RawConnection connection(address, port);
  if (!connection.connected()) return HttpReply{};
  connection.send_bytes(request);
  connection.read_until_closed(timeout);
  return parse_reply(connection.received());
}

std::string request_text(const std::string& method, const std::string& target, int port,
                         const std::string& extra_headers) {
  return method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
         "\r\nConnection: close\r\n" + extra_headers + "\r\n";
}

ScratchFolder::ScratchFolder() {
  std::string pattern = (fs::temp_directory_path() / "convlab-serve-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path = fs::canonical(pattern);
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  fs::remove_all(path, ignored);
}

void write_text(const fs::path& file, const std::string& content) {
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out << content;
}

}  // namespace convlab::serve_test
