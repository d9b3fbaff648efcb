// A raw HTTP/1.1 client over TCP for the notebook server's tests: the exact bytes of a request are
// sent as written (no path normalisation, no added headers), and the answer is parsed as it came.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace convlab::serve_test {

using namespace std::chrono_literals;

struct HttpReply {
  bool received = false;  // a status line came
  int status = 0;
  std::multimap<std::string, std::string> headers;  // names in lowercase
  std::string body;                                 // de-chunked when chunked
  std::string raw;                                  // every byte received

  std::string header(const std::string& lowercase_name) const;
  bool has_header(const std::string& lowercase_name) const;
};

HttpReply parse_reply(const std::string& raw);

// One TCP connection.
class RawConnection {
 public:
  RawConnection(const std::string& address, int port);  // connected() says whether it worked
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  bool connected() const { return fd_ >= 0; }
  int connect_errno() const { return connect_errno_; }
  bool send_bytes(const std::string& bytes);
  // Reads until `text` has been received (true), the peer closes or `timeout` passes (false).
  bool read_until(const std::string& text, std::chrono::milliseconds timeout);
  // Reads until the peer closes (true) or `timeout` passes (false).
  bool read_until_closed(std::chrono::milliseconds timeout);
  void close_now();
  const std::string& received() const { return received_; }

 private:
  int fd_ = -1;
  int connect_errno_ = 0;
  std::string received_;
  bool peer_closed_ = false;
};

// Sends `request` on a new connection and reads until the server closes it (or `timeout`).
HttpReply send_request(int port, const std::string& request,
                       std::chrono::milliseconds timeout = 10s,
                       const std::string& address = "127.0.0.1");

// "GET target HTTP/1.1", Host 127.0.0.1:port, Connection: close, then `extra_headers` (each ending
// in \r\n).
std::string request_text(const std::string& method, const std::string& target, int port,
                         const std::string& extra_headers = "");

// A folder for a test, removed at the end.
struct ScratchFolder {
  ScratchFolder();
  ~ScratchFolder();
  std::filesystem::path path;
};

void write_text(const std::filesystem::path& file, const std::string& content);

}  // namespace convlab::serve_test
