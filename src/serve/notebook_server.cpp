#include "serve/notebook_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/file_io.hpp"
#include "serve/connection_room.hpp"
#include "serve/connection_stream.hpp"
#include "serve/request_access.hpp"
#include "serve/request_path.hpp"
#include "serve/response_headers.hpp"
#include "serve/worker_pool.hpp"

namespace convlab {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

const char* const kEventsPath = "/_events";

// What the handlers of one request tell the connection loop; one request runs on one thread.
struct RequestFacts {
  ConnectionStream* connection = nullptr;
  bool answered_by_server = false;  // false: cpp-httplib refused it before it reached us
  bool close_after = false;         // a body was sent or the method is refused: do not read on
};
thread_local RequestFacts t_request;

// An open file, closed when the last response that streams it is gone.
struct OpenFile {
  explicit OpenFile(int descriptor) : fd(descriptor) {}
  ~OpenFile() { ::close(fd); }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  int fd;
};

// Counts an open event stream while it exists.
struct StreamSlot {
  explicit StreamSlot(std::atomic<int>& count) : open(count) { ++open; }
  ~StreamSlot() { --open; }
  StreamSlot(const StreamSlot&) = delete;
  StreamSlot& operator=(const StreamSlot&) = delete;
  std::atomic<int>& open;
  bool started = false;
  std::uint64_t sequence_after = 0;
  Clock::time_point last_write = Clock::now();
};

const char* reason_phrase(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 411:
      return "Length Required";
    case 413:
      return "Payload Too Large";
    case 414:
      return "URI Too Long";
    case 415:
      return "Unsupported Media Type";
    case 408:
      return "Request Timeout";
    case 416:
      return "Range Not Satisfiable";
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

void set_text(httplib::Response& res, int status, const std::string& text) {
  res.status = status;
  res.set_content(std::to_string(status) + " " + reason_phrase(status) + ": " + text + "\n",
                  "text/plain; charset=utf-8");
}

bool is_numeric_address(const std::string& address) {
  in_addr v4{};
  in6_addr v6{};
  return ::inet_pton(AF_INET, address.c_str(), &v4) == 1 ||
         ::inet_pton(AF_INET6, address.c_str(), &v6) == 1;
}

// The request target's path for the log: no query, control and non-ASCII bytes escaped.
std::string loggable_path(const std::string& target) {
  if (target.empty()) return "-";
  std::string path = target.substr(0, target.find('?'));
  if (path.size() > 200) path = path.substr(0, 200) + "...";
  std::string out;
  static const char digits[] = "0123456789ABCDEF";
  for (unsigned char c : path) {
    if (c < 0x21 || c >= 0x7f || c == '"') {
      out += '%';
      out += digits[c >> 4];
      out += digits[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string loggable_method(const std::string& method) {
  if (method.empty()) return "-";
  for (unsigned char c : method)
    if (c < 'A' || c > 'Z') return "?";
  return method;
}

// The listening and accepted sockets: kept from SO_REUSEPORT (cpp-httplib's default, which would
// let a second server share the port) and from child processes.
void listening_socket_options(socket_t sock) {
  int yes = 1;
  ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  ::fcntl(sock, F_SETFD, FD_CLOEXEC);
}

// cpp-httplib hands each accepted connection to its task queue as a job that calls
// process_and_close_socket; ours runs it at once on the listener's thread, where it only passes the
// connection to the room (which never blocks).
class AcceptedConnections : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> job) override { job(); }
  void shutdown() override {}
};

}  // namespace

class NotebookServer::Impl : public httplib::Server {
 public:
  Impl(ServeOptions options, LiveEvents& events) : options_(std::move(options)), events_(events) {}

  ~Impl() override { stop_serving(); }

  void start_serving();
  void stop_serving();

  ServeOptions options_;
  LiveEvents& events_;
  fs::path real_root_;
  std::string token_;
  std::string csrf_token_;
  std::string cookie_name_;
  int port_ = 0;

 private:
  void start_connection_threads();
  bool process_and_close_socket(socket_t sock) override;
  void serve_request(ReadyConnection ready);
  void answer(const httplib::Request& req, httplib::Response& res);
  bool authorised(const httplib::Request& req, httplib::Response& res) const;
  void serve_file(const fs::path& file, httplib::Response& res);
  void serve_action(const httplib::Request& req, const std::string& name, httplib::Response& res);
  std::string refused_action(const httplib::Request& req, int& status) const;
  void serve_events(httplib::Response& res);
  bool write_events(StreamSlot& slot, httplib::DataSink& sink);
  void finish_headers(const httplib::Request& req, httplib::Response& res);
  void log(const httplib::Request& req, const httplib::Response& res);
  bool track(socket_t sock);
  void close_connection(socket_t sock);

  std::thread listener_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> started_{false};
  std::atomic<bool> used_{false};
  std::atomic<int> open_streams_{0};
  std::unique_ptr<WorkerPool> workers_;
  std::unique_ptr<ConnectionRoom> room_;
  std::mutex connections_mutex_;
  std::set<socket_t> connections_;
  std::mutex log_mutex_;
};

void NotebookServer::Impl::start_serving() {
  if (used_.exchange(true)) throw ServeError("a notebook server starts once");
  std::error_code error;
  real_root_ = fs::canonical(options_.root, error);
  if (error || !fs::is_directory(real_root_))
    throw ServeError(options_.root.string() + ": not a folder, so there is no notebook to serve");
  token_ = options_.token.empty() ? random_token() : options_.token;
  csrf_token_ = random_token();
  if (const std::string problem = token_problem(token_); !problem.empty())
    throw ServeError("serve token: " + problem);
  if (!is_numeric_address(options_.bind_address))
    throw ServeError("bind address '" + options_.bind_address +
                     "': not a numeric IP address (such as 127.0.0.1 or ::1)");
  if (options_.port < 0 || options_.port > 65535)
    throw ServeError("port " + std::to_string(options_.port) + ": not between 0 and 65535");
  const ServeLimits& limits = options_.limits;
  if (limits.worker_threads < 1 || limits.max_event_streams < 0 ||
      limits.keep_alive_max_requests < 1)
    throw ServeError("serve limits: at least one worker thread and one request per connection");

  new_task_queue = [] { return new AcceptedConnections; };
  set_socket_options(listening_socket_options);
  set_read_timeout(limits.read_timeout);
  set_write_timeout(limits.write_timeout);
  set_keep_alive_timeout(std::max<time_t>(
      1, std::chrono::duration_cast<std::chrono::seconds>(limits.keep_alive_timeout).count()));
  set_keep_alive_max_count(static_cast<std::size_t>(limits.keep_alive_max_requests));
  set_payload_max_length(limits.max_request_head_bytes);
  set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    answer(req, res);
    return httplib::Server::HandlerResponse::Handled;
  });
  set_post_routing_handler(
      [this](const httplib::Request& req, httplib::Response& res) { finish_headers(req, res); });
  set_error_handler(HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty() && !res.has_header("Content-Type")) set_text(res, res.status, "refused");
    return httplib::Server::HandlerResponse::Unhandled;
  }));
  set_logger([this](const httplib::Request& req, const httplib::Response& res) { log(req, res); });

  errno = 0;
  const int flags = AI_NUMERICHOST;
  if (options_.port == 0) {
    port_ = bind_to_any_port(options_.bind_address, flags);
  } else {
    port_ = bind_to_port(options_.bind_address, options_.port, flags) ? options_.port : -1;
  }
  if (port_ <= 0) {
    const int reason = errno;
    throw ServeError("cannot listen on " + options_.bind_address + ":" +
                     std::to_string(options_.port) + ": " +
                     (reason != 0 ? std::strerror(reason) : "the address cannot be bound"));
  }
  // cpp-httplib listens with a backlog of 5: a burst of page loads (a page and its figures, or
  // many clients) would overflow it and wait out SYN retries of a second and more.
  ::listen(svr_sock_, SOMAXCONN);
  cookie_name_ = "convlab_token_" + std::to_string(port_);
  start_connection_threads();
  started_ = true;
  listener_ = std::thread([this] { listen_after_bind(); });
  // stop() only works once the listener runs; wait for it so that a quick stop is never lost.
  const auto give_up = Clock::now() + std::chrono::seconds(10);
  while (!is_running() && Clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// The workers, and the room where connections wait for a request without holding one.
void NotebookServer::Impl::start_connection_threads() {
  const ServeLimits& limits = options_.limits;
  workers_ = std::make_unique<WorkerPool>(static_cast<std::size_t>(limits.worker_threads));
  room_ = std::make_unique<ConnectionRoom>(
      limits, held_connection_capacity(limits.max_held_connections),
      [this](ReadyConnection ready) {
        workers_->enqueue([this, ready]() mutable { serve_request(std::move(ready)); });
      },
      [this](int fd) { close_connection(fd); });
  room_->start();
}

void NotebookServer::Impl::stop_serving() {
  if (!started_.exchange(false)) return;
  {
    std::lock_guard<std::mutex> lock(connections_mutex_);
    stopping_ = true;
    for (socket_t sock : connections_) ::shutdown(sock, SHUT_RDWR);
  }
  events_.wake_all();
  stop();
  if (listener_.joinable()) listener_.join();
  // No connection comes in any more: the room closes what it holds, then the workers finish what
  // is in line (at once: stopping_ is set) and end.
  room_->stop();
  workers_->shutdown();
}

bool NotebookServer::Impl::track(socket_t sock) {
  std::lock_guard<std::mutex> lock(connections_mutex_);
  if (stopping_) return false;
  connections_.insert(sock);
  return true;
}

void NotebookServer::Impl::close_connection(socket_t sock) {
  {
    std::lock_guard<std::mutex> lock(connections_mutex_);
    connections_.erase(sock);
  }
  ::close(sock);
}

bool NotebookServer::Impl::process_and_close_socket(socket_t sock) {
  ::fcntl(sock, F_SETFD, FD_CLOEXEC);
  // Headers and body go out in separate writes; without this the body waits for a delayed ACK.
  int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  if (!track(sock)) {
    ::close(sock);
    return false;
  }
  room_->admit(sock);
  return true;
}

// One request of a connection, on a worker: its head is in `ready.bytes`. A connection kept alive
// goes back to the room to wait for its next request; one that closes is shut on our side and
// drained there, so that the client can read a refusal (of a POST with a body) before the close.
void NotebookServer::Impl::serve_request(ReadyConnection ready) {
  const socket_t sock = ready.fd;
  if (stopping_) return close_connection(sock);
  const ServeLimits& limits = options_.limits;
  ConnectionStream connection(sock, limits, std::move(ready.bytes), ready.head_deadline,
                              ready.head_budget);
  t_request = RequestFacts{&connection, false, false};
  bool connection_closed = false;
  const bool last = ready.served + 1 >= limits.keep_alive_max_requests;
  const bool ok = process_request(connection, last, connection_closed, nullptr);
  const bool close_after = t_request.close_after || !t_request.answered_by_server;
  t_request = RequestFacts{};
  if (ok && !connection_closed && !close_after && !last && !stopping_)
    return room_->keep(sock, connection.take_unread(), ready.served + 1);
  if (stopping_ || connection.peer_closed()) return close_connection(sock);
  ::shutdown(sock, SHUT_WR);
  room_->drain(sock);
}

bool NotebookServer::Impl::authorised(const httplib::Request& req, httplib::Response& res) const {
  if (req.get_param_value_count("token") == 1 &&
      tokens_equal(req.get_param_value("token"), token_)) {
    // The page's own requests (style, script, figures, the live channel) carry the cookie.
    res.set_header("Set-Cookie",
                   cookie_name_ + "=" + token_ + "; HttpOnly; SameSite=Strict; Path=/");
    return true;
  }
  const std::size_t cookies = req.get_header_value_count("Cookie");
  for (std::size_t i = 0; i < cookies; ++i) {
    const auto value = cookie_value(req.get_header_value("Cookie", i), cookie_name_);
    if (value && tokens_equal(*value, token_)) return true;
  }
  if (req.get_header_value_count("Authorization") == 1) {
    const auto value = authorization_token(req.get_header_value("Authorization"));
    if (value && tokens_equal(*value, token_)) return true;
  }
  return false;
}

void NotebookServer::Impl::answer(const httplib::Request& req, httplib::Response& res) {
  t_request.answered_by_server = true;
  // Ranges are not served: the whole file is sent, with 200, as RFC 9110 allows. cpp-httplib
  // parsed them into the request, which is ours until the response is written.
  const_cast<httplib::Request&>(req).ranges.clear();
  const bool has_body =
      req.has_header("Transfer-Encoding") ||
      (req.has_header("Content-Length") && req.get_header_value("Content-Length") != "0");
  const bool readable_method = req.method == "GET" || req.method == "HEAD";
  t_request.close_after = has_body || !readable_method;
  const auto path = decoded_target_path(req.target);
  const std::string prefix = kActionPrefix;
  const bool action = options_.actions && path && path->compare(0, prefix.size(), prefix) == 0;

  if (req.get_header_value_count("Host") != 1)
    return set_text(res, 400, "a request needs exactly one Host header");
  if (!host_names_server(req.get_header_value("Host"), options_.bind_address, port_))
    return set_text(res, 403, "the Host header does not name this server");
  if (!authorised(req, res))
    return set_text(res, 403,
                    "the notebook's token is missing or wrong (open the URL printed "
                    "when the server started)");
  if (action) return serve_action(req, path->substr(prefix.size()), res);
  if (!readable_method) {
    res.set_header("Allow", "GET, HEAD");
    return set_text(res, 405, "the notebook is read only: GET and HEAD");
  }
  if (has_body) return set_text(res, 400, "a GET or HEAD request has no body");
  if (!path) return set_text(res, 400, "the request target is not a path");
  if (*path == kEventsPath) return serve_events(res);
  const auto file = contained_regular_file(real_root_, *path);
  if (!file && *path == "/favicon.ico") {
    // Browsers ask for it by themselves; a 404 would be an error in the page's console.
    res.status = 204;
    return;
  }
  if (!file) return set_text(res, 404, "no such file in the notebook");
  serve_file(*file, res);
}

// Why a POST action is refused before its body is read, with its status; empty when it may go on.
// The token and the Host header were checked already.
std::string NotebookServer::Impl::refused_action(const httplib::Request& req, int& status) const {
  status = 403;
  if (req.get_header_value_count("Origin") != 1 ||
      !origin_names_server(req.get_header_value("Origin"), options_.bind_address, port_))
    return "a request that changes something needs an Origin header naming this server";
  if (req.has_header("Sec-Fetch-Site") && req.get_header_value("Sec-Fetch-Site") != "same-origin")
    return "a request that changes something comes from the notebook's own pages";
  if (req.get_header_value_count(kCsrfHeader) != 1 ||
      !tokens_equal(req.get_header_value(kCsrfHeader), csrf_token_))
    return std::string("the ") + kCsrfHeader + " header is missing or wrong (GET /_api/session)";
  status = 415;
  const std::string type = req.get_header_value("Content-Type");
  if (type.compare(0, 16, "application/json") != 0 ||
      (type.size() > 16 && type[16] != ';' && type[16] != ' '))
    return "an action's body is application/json";
  status = 411;
  if (req.has_header("Transfer-Encoding") || req.get_header_value_count("Content-Length") != 1)
    return "an action's body needs one Content-Length, and no Transfer-Encoding";
  const std::string length = req.get_header_value("Content-Length");
  status = 400;
  if (length.empty() || length.size() > 12 ||
      length.find_first_not_of("0123456789") != std::string::npos)
    return "the Content-Length is not a number";
  status = 413;
  if (std::stoull(length) > options_.limits.max_request_body_bytes)
    return "an action's body has at most " +
           std::to_string(options_.limits.max_request_body_bytes) + " bytes";
  return "";
}

// /_api/NAME: the session's CSRF token, answered here, or the command's handler. A POST is
// admitted only once refused_action finds nothing; then its body is read, within its deadline.
void NotebookServer::Impl::serve_action(const httplib::Request& req, const std::string& name,
                                        httplib::Response& res) {
  if (!is_action_name(name)) return set_text(res, 404, "no such action");
  const bool post = req.method == "POST";
  if (!post && req.method != "GET") {
    res.set_header("Allow", "GET, POST");
    return set_text(res, 405, "an action is GET or POST");
  }
  if (name == "session") {
    if (post) {
      res.set_header("Allow", "GET");
      return set_text(res, 405, "the session is read with GET");
    }
    res.status = 200;
    res.set_content(std::string("{\"csrf\":\"") + csrf_token_ + "\"}", "application/json");
    return;
  }
  ActionRequest action{req.method, name, ""};
  if (post) {
    int status = 0;
    const std::string refused = refused_action(req, status);
    if (!refused.empty()) return set_text(res, status, refused);
    const std::size_t length = std::stoull(req.get_header_value("Content-Length"));
    auto body = t_request.connection->read_body(
        length, Clock::now() + options_.limits.request_body_deadline);
    if (!body) return set_text(res, 408, "the body did not arrive whole in time");
    action.body = std::move(*body);
  } else if (req.has_header("Transfer-Encoding") ||
             (req.has_header("Content-Length") && req.get_header_value("Content-Length") != "0")) {
    return set_text(res, 400, "a GET request has no body");
  }
  ActionAnswer answer;
  try {
    answer = options_.actions(action);
  } catch (const std::exception& error) {
    answer = {500, nlohmann::json{{"error", error.what()}}.dump(), ""};
  }
  if (!answer.allow.empty()) res.set_header("Allow", answer.allow);
  res.status = answer.status;
  res.set_content(answer.json, "application/json");
}

void NotebookServer::Impl::serve_file(const fs::path& file, httplib::Response& res) {
  int fd = -1;
  try {
    // The real path holds no link; refusing one here catches a file replaced by a link since.
    fd = open_regular_file(file.string(), Links::refuse);
  } catch (const FileError&) {
    return set_text(res, 404, "no such file in the notebook");
  }
  auto opened = std::make_shared<OpenFile>(fd);
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode))
    return set_text(res, 404, "no such file in the notebook");
  res.status = 200;
  const std::string type = content_type_of(file);
  const auto size = static_cast<std::size_t>(status.st_size);
  if (size == 0) {
    res.set_content("", type);
    return;
  }
  // Streamed from the descriptor opened now: a page rewritten meanwhile (by rename) is sent whole
  // as it was, and no file is held in memory.
  res.set_content_provider(
      size, type, [opened](size_t offset, size_t length, httplib::DataSink& sink) {
        char chunk[16384];  // on the stack of each of the workers: kept small
        const size_t want = std::min(length, sizeof chunk);
        const ssize_t got = ::pread(opened->fd, chunk, want, static_cast<off_t>(offset));
        if (got <= 0) return false;  // cut short while being sent: the connection is dropped
        return sink.write(chunk, static_cast<size_t>(got));
      });
}

void NotebookServer::Impl::serve_events(httplib::Response& res) {
  if (open_streams_ >= options_.limits.max_event_streams) {
    t_request.close_after = true;
    res.set_header("Retry-After", "5");
    return set_text(res, 503, "too many live pages are open");
  }
  auto slot = std::make_shared<StreamSlot>(open_streams_);
  res.status = 200;
  res.set_chunked_content_provider(
      "text/event-stream",
      [this, slot](size_t, httplib::DataSink& sink) { return write_events(*slot, sink); });
}

// One step of an event stream: what a new stream is owed first, or the events published since the
// last step, or a heartbeat when none came; false ends the stream (the client left, or a write
// failed), as does the server's stop.
bool NotebookServer::Impl::write_events(StreamSlot& slot, httplib::DataSink& sink) {
  std::string text;
  if (!slot.started) {
    slot.started = true;
    text = "retry: 2000\n\n";
    for (const auto& event : events_.latest_of_each_name(slot.sequence_after))
      text += event_stream_text(event);
  }
  const milliseconds slice(250);
  while (text.empty() && !stopping_) {
    const auto now = Clock::now();
    const auto heartbeat_at = slot.last_write + options_.limits.heartbeat_interval;
    if (now >= heartbeat_at) {
      text = ": heartbeat\n\n";
      break;
    }
    const auto wait = std::min<milliseconds>(
        slice, std::chrono::duration_cast<milliseconds>(heartbeat_at - now) + milliseconds(1));
    for (const auto& event : events_.wait_after(slot.sequence_after, wait))
      text += event_stream_text(event);
    if (text.empty() && t_request.connection && t_request.connection->peer_closed()) return false;
  }
  if (stopping_) return false;
  slot.last_write = Clock::now();
  return sink.write(text.data(), text.size());
}

void NotebookServer::Impl::finish_headers(const httplib::Request&, httplib::Response& res) {
  for (const auto& header : security_headers()) {
    res.headers.erase(header.first);
    res.headers.emplace(header.first, header.second);
  }
  // Requests waiting for a worker: this connection makes room instead of being kept alive.
  if (workers_ && workers_->waiting() > 0) t_request.close_after = true;
  if (t_request.close_after || !t_request.answered_by_server) {
    res.headers.erase("Keep-Alive");
    res.headers.erase("Connection");
    res.headers.emplace("Connection", "close");
  }
}

void NotebookServer::Impl::log(const httplib::Request& req, const httplib::Response& res) {
  if (!options_.request_log) return;
  std::string line = (req.remote_addr.empty() ? "-" : req.remote_addr) + " " +
                     loggable_method(req.method) + " " + loggable_path(req.target) + " " +
                     std::to_string(res.status);
  std::lock_guard<std::mutex> lock(log_mutex_);
  try {
    options_.request_log(line);
  } catch (...) {
    // A failing log sink must not take the connection down.
  }
}

NotebookServer::NotebookServer(ServeOptions options, LiveEvents& events)
    : impl_(std::make_unique<Impl>(std::move(options), events)) {}

NotebookServer::~NotebookServer() {
  stop();
}

void NotebookServer::start() {
  impl_->start_serving();
}

void NotebookServer::stop() {
  impl_->stop_serving();
}

int NotebookServer::port() const {
  return impl_->port_;
}

const std::string& NotebookServer::token() const {
  return impl_->token_;
}

const std::string& NotebookServer::csrf_token() const {
  return impl_->csrf_token_;
}

std::string NotebookServer::url(const std::string& page) const {
  const std::string& address = impl_->options_.bind_address;
  std::string host = is_wildcard_address(address) ? "127.0.0.1" : address;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  std::string relative = page;
  while (!relative.empty() && relative[0] == '/') relative.erase(0, 1);
  const char separator = relative.find('?') == std::string::npos ? '?' : '&';
  return "http://" + host + ":" + std::to_string(impl_->port_) + "/" + relative + separator +
         "token=" + impl_->token_;
}

}  // namespace convlab
