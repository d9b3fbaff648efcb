// A bounded load on the notebook server (docs/notebook.md, "Serving the notebook"), on the
// loopback address only: CLIENTS concurrent clients make REQUESTS requests per round (pages and
// assets of several sizes, missing files and paths that leave the folder, requests without the
// token or with a foreign Host header, HEAD), while STREAMS pages hold /_events open and receive
// every event published during the round. Every answer is checked: its status, and its body byte
// for byte (a file's bytes, or the one error text of its kind). The server runs in a child
// process, so that its resident memory (VmRSS, /proc/PID/status) is its own: it is read before the
// first round and after each, and must stay flat after the first.
//
// Before the rounds, HELD connections are opened and kept open (half of them idle, half sending
// their request's head a byte every half second; any the server closes is opened again at once),
// and authorised requests are timed meanwhile: each must be answered right within a second.
//
//   convlab_serve_load [--clients N] [--requests N] [--streams N] [--rounds N] [--events N]
//                      [--held N] [--held-requests N] [--held-wait SECONDS]
//
// Defaults: 200 clients, 10,000 requests, 50 streams, 2 rounds, 100 events per round, 1,000 held
// connections and 20 requests timed among them, each waited for up to 10 s. Prints one JSON object
// (requests/s, p50/p99 latency, RSS, the answers among held connections) and exits 0 when every
// answer was right, the memory flat (at most 2 MiB more after the last round than after the first,
// so that a leak of 200 bytes a request shows) and every answer among the held connections came
// within a second, 1 otherwise, 2 on bad arguments. A benchmark: its times depend on the machine;
// its checks do not.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "serve/notebook_server.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

const std::string kToken = "load-test-token-0123456789abcdef0123456789";

struct Settings {
  int clients = 200;
  int requests = 10000;
  int streams = 50;
  int rounds = 2;
  int events = 100;
  int held = 1000;
  int held_requests = 20;
  int held_wait_s = 10;  // how long a timed request among them is waited for
};

// --- the notebook served --------------------------------------------------------------------

std::string pseudo_random_bytes(std::size_t size, unsigned seed) {
  std::mt19937 generator(seed);
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(generator() & 0xff);
  return bytes;
}

std::string page_text(std::size_t size, unsigned seed) {
  std::string text = "<!DOCTYPE html>\n<html><body>\n";
  std::mt19937 generator(seed);
  while (text.size() < size) text += "<p>value " + std::to_string(generator()) + "</p>\n";
  return text + "</body></html>\n";
}

void write_bytes(const fs::path& file, const std::string& bytes) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << bytes;
}

// The files of the notebook by path, written under `root`.
std::map<std::string, std::string> make_notebook(const fs::path& root) {
  std::map<std::string, std::string> files;
  files["/index.html"] = page_text(4000, 1);
  for (int i = 0; i < 12; ++i)
    files["/experiments/page-" + std::to_string(i) + ".html"] =
        page_text(static_cast<std::size_t>(1000 + i * 9000), 10u + static_cast<unsigned>(i));
  files["/assets/notebook.css"] = std::string(12000, 'c');
  files["/assets/notebook.js"] = std::string(30000, 'j');
  for (int i = 0; i < 6; ++i)
    files["/experiments/figures/f" + std::to_string(i) + ".svg"] =
        "<svg xmlns=\"http://www.w3.org/2000/svg\">" + std::string(5000u + i * 20000u, ' ') +
        "</svg>";
  files["/experiments/gallery/photo.png"] = pseudo_random_bytes(150000, 7);
  files["/experiments/data.json"] = "{\"values\": [1, 2, 3]}";
  for (const auto& [path, bytes] : files) write_bytes(root / path.substr(1), bytes);
  return files;
}

// --- the server, in a child process -----------------------------------------------------------

struct ServerProcess {
  pid_t pid = -1;
  int commands = -1;  // write "N\n" to publish event N; close to stop
  int port = 0;
};

ServerProcess start_server_process(const fs::path& root, const Settings& settings) {
  int to_child[2];
  int from_child[2];
  if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) std::exit(1);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(to_child[1]);
    ::close(from_child[0]);
    convlab::LiveEvents events;
    convlab::ServeOptions options;
    options.root = root;
    options.token = kToken;
    options.limits.max_event_streams = settings.streams + 8;
    options.limits.worker_threads = settings.streams + 32;
    convlab::NotebookServer server(options, events);
    server.start();
    const std::string port = std::to_string(server.port()) + "\n";
    if (::write(from_child[1], port.data(), port.size()) < 0) std::_Exit(1);
    std::string pending;
    char buffer[256];
    ssize_t got;
    while ((got = ::read(to_child[0], buffer, sizeof buffer)) > 0) {
      pending.append(buffer, static_cast<std::size_t>(got));
      std::size_t line_end;
      while ((line_end = pending.find('\n')) != std::string::npos) {
        events.publish("tick", "{\"n\":" + pending.substr(0, line_end) + "}");
        pending.erase(0, line_end + 1);
      }
    }
    server.stop();
    std::_Exit(0);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  char buffer[32] = {};
  if (::read(from_child[0], buffer, sizeof buffer - 1) <= 0) {
    std::cerr << "serve_load: the server process did not start\n";
    std::exit(1);
  }
  ::close(from_child[0]);
  return {pid, to_child[1], std::atoi(buffer)};
}

long resident_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

// --- a client ---------------------------------------------------------------------------------

int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  int yes = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  return fd;
}

bool send_all(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads more bytes with a timeout; false on close, error or timeout.
bool receive_more(int fd, std::string& into, std::chrono::milliseconds timeout) {
  pollfd entry{fd, POLLIN, 0};
  if (::poll(&entry, 1, static_cast<int>(timeout.count())) <= 0) return false;
  char buffer[65536];
  const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
  if (n <= 0) return false;
  into.append(buffer, static_cast<std::size_t>(n));
  return true;
}

struct Answer {
  int status = 0;
  std::string body;
  bool closes = false;  // Connection: close
};

// Reads one response (every answer but the event stream has a Content-Length).
bool read_answer(int fd, bool head, Answer& answer) {
  std::string data;
  std::size_t head_end;
  while ((head_end = data.find("\r\n\r\n")) == std::string::npos)
    if (!receive_more(fd, data, 10s)) return false;
  const std::string header = data.substr(0, head_end);
  if (header.rfind("HTTP/1.1 ", 0) != 0) return false;
  answer.status = std::atoi(header.c_str() + 9);
  std::string lower = header;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  answer.closes = lower.find("\r\nconnection: close") != std::string::npos;
  const std::size_t length_at = lower.find("\r\ncontent-length: ");
  if (length_at == std::string::npos) return false;
  const std::size_t length = std::strtoul(lower.c_str() + length_at + 18, nullptr, 10);
  answer.body = data.substr(head_end + 4);
  if (head) return answer.body.empty();
  while (answer.body.size() < length)
    if (!receive_more(fd, answer.body, 10s)) return false;
  return answer.body.size() == length;
}

struct Expected {
  std::string method;
  std::string target;
  std::string extra_headers;
  std::string host;  // the Host header's name; the port is always the server's
  int status;
  const std::string* body;  // nullptr: the one error text of this status, learnt once
};

struct Tally {
  std::mutex mutex;
  std::vector<double> latencies_ms;
  std::map<const Expected*, std::string> error_texts;
  long wrong = 0;
  long failed = 0;  // no answer at all
  std::vector<std::string> first_problems;

  void problem(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex);
    ++wrong;
    if (first_problems.size() < 10) first_problems.push_back(what);
  }
};

std::vector<Expected> request_kinds(const std::map<std::string, std::string>& files) {
  std::vector<Expected> kinds;
  const std::string auth = "Authorization: token " + kToken + "\r\n";
  const std::string server = "127.0.0.1";
  for (const auto& [path, bytes] : files) kinds.push_back({"GET", path, auth, server, 200, &bytes});
  kinds.push_back({"GET", "/?token=" + kToken, "", server, 200, &files.at("/index.html")});
  kinds.push_back({"HEAD", "/experiments/page-3.html", auth, server, 200, nullptr});
  kinds.push_back({"GET", "/experiments/missing.html", auth, server, 404, nullptr});
  kinds.push_back({"GET", "/%2e%2e/%2e%2e/etc/passwd", auth, server, 404, nullptr});
  kinds.push_back({"GET", "/experiments/../../secret", auth, server, 404, nullptr});
  kinds.push_back({"GET", "/index.html", "", server, 403, nullptr});
  kinds.push_back({"GET", "/index.html?token=wrong", "", server, 403, nullptr});
  kinds.push_back({"GET", "/index.html", auth, "evil.example", 403, nullptr});  // DNS rebinding
  return kinds;
}

std::string request_bytes(const Expected& kind, int port, bool keep_alive) {
  return kind.method + " " + kind.target + " HTTP/1.1\r\nHost: " + kind.host + ":" +
         std::to_string(port) + "\r\n" + kind.extra_headers +
         (keep_alive ? "" : "Connection: close\r\n") + "\r\n";
}

void check_answer(const Expected& kind, const Answer& answer, Tally& tally) {
  const std::string what = kind.method + " " + kind.target;
  if (answer.status != kind.status) {
    tally.problem(what + ": status " + std::to_string(answer.status) + ", expected " +
                  std::to_string(kind.status));
    return;
  }
  if (kind.method == "HEAD") {
    if (!answer.body.empty()) tally.problem(what + ": HEAD with a body");
    return;
  }
  if (kind.body) {
    if (answer.body != *kind.body) tally.problem(what + ": the body differs from the file");
    return;
  }
  std::lock_guard<std::mutex> lock(tally.mutex);
  auto [text, first] = tally.error_texts.emplace(&kind, answer.body);
  if (answer.body.rfind(std::to_string(kind.status) + " ", 0) != 0 ||
      (!first && text->second != answer.body)) {
    ++tally.wrong;
    if (tally.first_problems.size() < 10)
      tally.first_problems.push_back(what + ": unexpected error text: " + answer.body);
  }
}

// One client: half keep their connection alive, the others connect for each request.
void run_client(int id, int port, const std::vector<Expected>& kinds, std::atomic<int>& next,
                int total, Tally& tally) {
  const bool keep_alive = id % 2 == 0;
  std::mt19937 generator(static_cast<unsigned>(id));
  std::vector<double> latencies;
  int fd = -1;
  for (int n = next++; n < total; n = next++) {
    const Expected& kind = kinds[generator() % kinds.size()];
    const std::string bytes = request_bytes(kind, port, keep_alive);
    Answer answer;
    bool answered = false;
    const auto began = Clock::now();
    for (int attempt = 0; attempt < 2 && !answered; ++attempt) {
      // A kept connection may be closed by the server between two requests; then once more anew.
      if (fd < 0) fd = connect_to(port);
      answered = fd >= 0 && send_all(fd, bytes) && read_answer(fd, kind.method == "HEAD", answer);
      if (!answered || !keep_alive || answer.closes) {
        if (fd >= 0) ::close(fd);
        fd = -1;
      }
      if (answered || keep_alive == false) break;
    }
    latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - began).count());
    if (!answered) {
      std::lock_guard<std::mutex> lock(tally.mutex);
      ++tally.failed;
      if (tally.first_problems.size() < 10)
        tally.first_problems.push_back(kind.method + " " + kind.target + ": no answer");
      continue;
    }
    check_answer(kind, answer, tally);
  }
  if (fd >= 0) ::close(fd);
  std::lock_guard<std::mutex> lock(tally.mutex);
  tally.latencies_ms.insert(tally.latencies_ms.end(), latencies.begin(), latencies.end());
}

// --- event streams ----------------------------------------------------------------------------

struct Stream {
  int fd = -1;
  std::string data;
  long last = -1;  // the last "n" received
  bool in_order = true;
};

bool open_stream(Stream& stream, int port) {
  stream.fd = connect_to(port);
  return stream.fd >= 0 &&
         send_all(stream.fd, "GET /_events HTTP/1.1\r\nHost: localhost:" + std::to_string(port) +
                                 "\r\nAuthorization: token " + kToken + "\r\n\r\n");
}

// Reads what arrived and follows the "tick" numbers: each must be the one after the last.
void take_events(Stream& stream) {
  while (receive_more(stream.fd, stream.data, 0ms)) {
  }
  std::size_t at;
  while ((at = stream.data.find("data: {\"n\":")) != std::string::npos) {
    const std::size_t end = stream.data.find('}', at);
    if (end == std::string::npos) break;
    const long n = std::atol(stream.data.c_str() + at + 11);
    if (stream.last >= 0 && n != stream.last + 1) stream.in_order = false;
    stream.last = n;
    stream.data.erase(0, end + 1);
  }
}

// --- a round ----------------------------------------------------------------------------------

struct RoundResult {
  double seconds = 0;
  double requests_per_second = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  long wrong = 0;
  long failed = 0;
  int streams_complete = 0;
  std::vector<std::string> problems;
};

double percentile(std::vector<double>& values, double fraction) {
  if (values.empty()) return 0;
  const std::size_t at = std::min(
      values.size() - 1, static_cast<std::size_t>(fraction * static_cast<double>(values.size())));
  std::nth_element(values.begin(), values.begin() + static_cast<long>(at), values.end());
  return values[at];
}

RoundResult run_round(const Settings& settings, const ServerProcess& server,
                      const std::vector<Expected>& kinds, long& next_event) {
  RoundResult result;
  std::vector<Stream> streams(static_cast<std::size_t>(settings.streams));
  for (Stream& stream : streams) open_stream(stream, server.port);
  // Every stream has its first answer (the state on connect) before the round begins.
  for (Stream& stream : streams) {
    const auto until = Clock::now() + 10s;
    while (stream.data.find("retry: ") == std::string::npos && Clock::now() < until)
      receive_more(stream.fd, stream.data, 100ms);
  }
  const long first_event = next_event;
  const long last_event = first_event + settings.events - 1;
  std::atomic<bool> publishing{true};
  std::thread publisher([&] {
    for (long n = first_event; n <= last_event; ++n) {
      const std::string line = std::to_string(n) + "\n";
      if (::write(server.commands, line.data(), line.size()) < 0) break;
      std::this_thread::sleep_for(5ms);
    }
    publishing = false;
  });
  std::thread stream_reader([&] {
    const auto until = Clock::now() + 60s;
    while (Clock::now() < until) {
      bool all = true;
      for (Stream& stream : streams) {
        take_events(stream);
        all = all && stream.last >= last_event;
      }
      if (all && !publishing) break;
      std::this_thread::sleep_for(2ms);
    }
  });

  Tally tally;
  std::atomic<int> next{0};
  const auto began = Clock::now();
  std::vector<std::thread> clients;
  for (int id = 0; id < settings.clients; ++id)
    clients.emplace_back(run_client, id, server.port, std::cref(kinds), std::ref(next),
                         settings.requests, std::ref(tally));
  for (std::thread& client : clients) client.join();
  result.seconds = std::chrono::duration<double>(Clock::now() - began).count();
  publisher.join();
  stream_reader.join();
  next_event = last_event + 1;
  for (Stream& stream : streams) {
    if (stream.in_order && stream.last == last_event) ++result.streams_complete;
    ::close(stream.fd);
  }
  result.requests_per_second = settings.requests / result.seconds;
  result.p50_ms = percentile(tally.latencies_ms, 0.50);
  result.p99_ms = percentile(tally.latencies_ms, 0.99);
  result.wrong = tally.wrong;
  result.failed = tally.failed;
  result.problems = tally.first_problems;
  return result;
}

// --- connections held open, idle or slow -------------------------------------------------------

struct HeldResult {
  int held = 0;      // connections held open while the requests were timed
  int reopened = 0;  // closed by the server meanwhile and opened again
  std::vector<double> answer_ms;
  long wrong = 0;  // a wrong status or body, or no answer
  double max_ms = 0;
  double p50_ms = 0;
};

// A connection the attacker keeps: idle (sends nothing) or slow (a byte of its head at a time).
struct Held {
  int fd = -1;
  bool slow = false;
};

void open_held(Held& held, int port) {
  held.fd = connect_to(port);
  if (held.fd >= 0 && held.slow)
    send_all(held.fd,
             "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n");
}

// Opens again every held connection the server has closed (or answered); slow ones send a byte.
int keep_held(std::vector<Held>& held, int port, bool trickle) {
  int reopened = 0;
  for (Held& h : held) {
    pollfd entry{h.fd, POLLIN, 0};
    const bool closed = h.fd < 0 || (::poll(&entry, 1, 0) > 0 && entry.revents != 0);
    if (closed) {
      if (h.fd >= 0) ::close(h.fd);
      open_held(h, port);
      ++reopened;
    } else if (h.slow && trickle) {
      send_all(h.fd, "X");
    }
  }
  return reopened;
}

// One authorised request on a new connection: its time until the whole answer came, or -1 when
// it was wrong or did not come within `limit`.
double timed_request(int port, const std::string& body, std::chrono::milliseconds limit) {
  const auto began = Clock::now();
  const int fd = connect_to(port);
  if (fd < 0) return -1;
  const std::string request =
      "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
      "\r\nAuthorization: token " + kToken + "\r\nConnection: close\r\n\r\n";
  std::string data;
  bool complete = false;
  if (send_all(fd, request))
    while (Clock::now() - began < limit) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(limit - (Clock::now() - began));
      if (!receive_more(fd, data, std::max(left, 1ms))) break;
      const std::size_t head_end = data.find("\r\n\r\n");
      if (head_end != std::string::npos && data.size() >= head_end + 4 + body.size()) {
        complete = data.rfind("HTTP/1.1 200", 0) == 0 && data.substr(head_end + 4) == body;
        break;
      }
    }
  ::close(fd);
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - began).count();
  return complete ? ms : -1;
}

HeldResult run_held(const Settings& settings, const ServerProcess& server,
                    const std::string& index_body) {
  HeldResult result;
  std::vector<Held> held(static_cast<std::size_t>(settings.held));
  for (std::size_t i = 0; i < held.size(); ++i) {
    held[i].slow = i % 2 == 1;
    open_held(held[i], server.port);
  }
  std::atomic<bool> holding{true};
  std::atomic<int> reopened{0};
  std::thread keeper([&] {
    auto next_byte = Clock::now();
    while (holding) {
      const bool trickle = Clock::now() >= next_byte;
      if (trickle) next_byte = Clock::now() + 500ms;
      reopened += keep_held(held, server.port, trickle);
      std::this_thread::sleep_for(20ms);
    }
  });
  std::this_thread::sleep_for(300ms);  // every held connection reached the server
  for (int i = 0; i < settings.held_requests; ++i) {
    const std::chrono::seconds wait(settings.held_wait_s);
    const double ms = timed_request(server.port, index_body, wait);
    if (ms < 0) ++result.wrong;
    result.answer_ms.push_back(ms < 0 ? 1000.0 * settings.held_wait_s : ms);
    std::this_thread::sleep_for(100ms);
  }
  holding = false;
  keeper.join();
  for (Held& h : held)
    if (h.fd >= 0) {
      ++result.held;
      ::close(h.fd);
    }
  result.reopened = reopened;
  result.max_ms = *std::max_element(result.answer_ms.begin(), result.answer_ms.end());
  result.p50_ms = percentile(result.answer_ms, 0.5);
  return result;
}

// The held connections and the timed requests need more descriptors than a default soft limit.
void raise_descriptor_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

bool parse_settings(int argc, char** argv, Settings& settings) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) return false;
    const int value = std::atoi(argv[++i]);
    if (value < 1) return false;
    if (flag == "--clients")
      settings.clients = value;
    else if (flag == "--requests")
      settings.requests = value;
    else if (flag == "--streams")
      settings.streams = value;
    else if (flag == "--rounds")
      settings.rounds = value;
    else if (flag == "--events")
      settings.events = value;
    else if (flag == "--held")
      settings.held = value;
    else if (flag == "--held-requests")
      settings.held_requests = value;
    else if (flag == "--held-wait")
      settings.held_wait_s = value;
    else
      return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  if (!parse_settings(argc, argv, settings)) {
    std::cerr << "usage: convlab_serve_load [--clients N] [--requests N] [--streams N] "
                 "[--rounds N] [--events N] [--held N] [--held-requests N] [--held-wait S]\n";
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);
  raise_descriptor_limit();
  char folder_pattern[] = "/tmp/convlab-serve-load-XXXXXX";
  if (::mkdtemp(folder_pattern) == nullptr) return 1;
  const fs::path folder = folder_pattern;
  const fs::path root = folder / "notebook";
  write_bytes(folder / "secret", "SECRET");
  const auto files = make_notebook(root);
  const auto kinds = request_kinds(files);

  const ServerProcess server = start_server_process(root, settings);
  const long rss_start = resident_kib(server.pid);
  const HeldResult held = run_held(settings, server, files.at("/index.html"));
  std::this_thread::sleep_for(500ms);  // the held connections' closes are dealt with
  std::vector<long> rss_after;
  std::vector<RoundResult> rounds;
  long next_event = 1;
  for (int round = 0; round < settings.rounds; ++round) {
    rounds.push_back(run_round(settings, server, kinds, next_event));
    std::this_thread::sleep_for(500ms);  // streams and connections of the round wind down
    rss_after.push_back(resident_kib(server.pid));
  }
  ::close(server.commands);
  int status = 0;
  ::waitpid(server.pid, &status, 0);
  std::error_code ignored;
  fs::remove_all(folder, ignored);

  bool correct = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::ostringstream json;
  json << "{\n  \"clients\": " << settings.clients
       << ",\n  \"requests_per_round\": " << settings.requests
       << ",\n  \"event_streams\": " << settings.streams
       << ",\n  \"events_per_round\": " << settings.events
       << ",\n  \"cpus\": " << std::thread::hardware_concurrency() << ",\n  \"rounds\": [\n";
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const RoundResult& r = rounds[i];
    correct = correct && r.wrong == 0 && r.failed == 0 && r.streams_complete == settings.streams;
    char line[512];
    std::snprintf(line, sizeof line,
                  "    {\"seconds\": %.3f, \"requests_per_second\": %.0f, \"p50_ms\": %.3f, "
                  "\"p99_ms\": %.3f, \"wrong\": %ld, \"unanswered\": %ld, "
                  "\"streams_with_every_event\": %d, \"server_rss_kib_after\": %ld}%s\n",
                  r.seconds, r.requests_per_second, r.p50_ms, r.p99_ms, r.wrong, r.failed,
                  r.streams_complete, rss_after[i], i + 1 < rounds.size() ? "," : "");
    json << line;
    for (const std::string& problem : r.problems)
      std::cerr << "round " << i + 1 << ": " << problem << "\n";
  }
  const long growth = rss_after.back() - rss_after.front();
  const bool flat = growth <= 2048;
  const bool held_answered = held.wrong == 0 && held.max_ms < 1000.0;
  char held_line[512];
  std::snprintf(held_line, sizeof held_line,
                "  ],\n  \"held_connections\": {\"held\": %d, \"reopened\": %d, \"requests\": "
                "%zu, \"wrong_or_late\": %ld, \"p50_ms\": %.3f, \"max_ms\": %.3f},\n  "
                "\"answered_within_1s_while_held\": %s",
                held.held, held.reopened, held.answer_ms.size(), held.wrong, held.p50_ms,
                held.max_ms, held_answered ? "true" : "false");
  json << held_line << ",\n  \"server_rss_kib_before\": " << rss_start
       << ",\n  \"server_rss_kib_growth_after_first_round\": " << growth
       << ",\n  \"memory_flat\": " << (flat ? "true" : "false")
       << ",\n  \"every_answer_correct\": " << (correct ? "true" : "false") << "\n}\n";
  std::cout << json.str();
  return correct && flat && held_answered ? 0 : 1;
}
