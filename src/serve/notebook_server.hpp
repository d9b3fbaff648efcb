// The notebook over HTTP, safe by default as Jupyter's server is: it listens on 127.0.0.1 unless
// another address is given, wants its token on every request (the live channel included), accepts
// only a Host header that names it (no DNS rebinding), answers GET and HEAD only and never
// redirects, serves only regular files under the notebook folder (decided on whole components of
// real paths), and holds no state a request can change. A command may give it actions
// (serve/action_requests.hpp): POST requests that pass the CSRF, Origin and size checks besides.
// Pages receive live updates from GET /_events as server-sent events published through LiveEvents.
// docs/notebook.md, "Serving the notebook", describes the model; tests/test_serve_security.cpp
// tests each part of it.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "serve/action_requests.hpp"
#include "serve/live_events.hpp"

namespace convlab {

// How much a client may take of the server: threads, streams, time and bytes. Every wait is
// bounded, so a client that stalls or trickles (slowloris) is dropped, never waited on forever.
struct ServeLimits {
  int worker_threads = 80;     // requests answered at once; more wait in line
  int max_event_streams = 64;  // open /_events streams (each holds a worker); more get 503
  std::chrono::milliseconds read_timeout{5000};   // one wait for bytes of a request
  std::chrono::milliseconds write_timeout{5000};  // one wait for a client to take bytes
  // From a request's first byte to the end of its head: a client that trickles its headers is
  // dropped when this runs out, however often it sends a byte.
  std::chrono::milliseconds request_deadline{10000};
  std::chrono::milliseconds keep_alive_timeout{5000};  // an idle connection waits this long
  // Connections held while idle or while their request's head arrives (no worker is taken by
  // them); beyond this, the one idle longest is closed. Bounded by the open-file limit too.
  std::size_t max_held_connections = 4096;
  int keep_alive_max_requests = 100;                    // requests on one connection
  std::size_t max_request_head_bytes = 16384;           // request line and headers together
  std::chrono::milliseconds heartbeat_interval{15000};  // a comment line on idle event streams
  // An action's body (serve/action_requests.hpp): at most this many bytes, whole within the
  // deadline from the end of its head; larger is 413 before a byte of it is read.
  std::size_t max_request_body_bytes = std::size_t{2} << 20;
  std::chrono::milliseconds request_body_deadline{10000};
};

struct ServeOptions {
  std::filesystem::path root;              // the notebook folder (outputs/notebook)
  std::string bind_address = "127.0.0.1";  // only changed by an explicit --bind ADDR
  int port = 0;                            // 0: a free port chosen by the system
  std::string token;                       // empty: a random 32-byte hex token from /dev/urandom
  // One line per answered request ("127.0.0.1 GET /index.html 200"): the path without its query,
  // no header, so never the token. Called from the server's threads, one call at a time.
  std::function<void(const std::string&)> request_log;
  ServeLimits limits;
  // What /_api/NAME does (serve/action_requests.hpp); none: the server is read only, every method
  // but GET and HEAD is 405 and /_api/ names nothing.
  ActionHandler actions;
};

class ServeError : public std::runtime_error {
 public:
  using runtime_error::runtime_error;
};

class NotebookServer {
 public:
  // `events` must outlive the server; several servers may share one.
  NotebookServer(ServeOptions options, LiveEvents& events);
  ~NotebookServer();  // stops and joins
  NotebookServer(const NotebookServer&) = delete;
  NotebookServer& operator=(const NotebookServer&) = delete;

  // Binds and listens on its own threads; throws ServeError (root not a folder, address not a
  // numeric IP address, address in use, bad token). Returns once the server accepts connections.
  void start();
  // Closes the listening socket, ends every connection and event stream, joins the threads.
  void stop();
  int port() const;
  const std::string& token() const;
  // The session's CSRF token, which every state-changing action must carry (action_requests.hpp).
  const std::string& csrf_token() const;
  // http://127.0.0.1:PORT/page?token=... (the bind address instead of 127.0.0.1 when one was
  // given, unless it is a wildcard address).
  std::string url(const std::string& page = "index.html") const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace convlab
