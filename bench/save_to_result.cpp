// From a save in the page to the first new result in it (docs/notebook.md, "Writing and running
// in the page"), without the points' own time: `convlab watch CONFIG --serve 0` runs in a child
// process on a small config of its own (a generated 48 x 48 image, the sequential loops, a CPU
// kernel of the user's); this program is the page: it reads the session's CSRF token, follows
// /_events, and saves through POST /_api/save as the page's Ctrl-Enter does, SAVES times each of
//   config  the config with one kernel size more (its two new points run: the loops and the kernel)
//   kernel  the kernel's source with a new comment (compiled again, its points run again)
// For each save it takes the time from just before the POST to the first `page` event of the
// sweep that save started (the page file is written before the event is sent), and the measured
// time of the first new point (its record's timing.total_seconds, read from results.json once the
// sweep ended), and prints
//   overhead = save-to-first-result - the first point's own time
// per save and their median and maximum, as one JSON object. The watch's 100 ms wait for the end
// of a save's burst of file events is part of the overhead, as is the compile of a kernel.
//
//   convlab_save_to_result CONVLAB [--saves N] [--keep]
//
// Exits 0 when every save showed its result (whatever the times: a benchmark, not a test), 1 when
// one did not within 60 s, 2 on bad arguments.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/sha256.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string config_text(const std::vector<int>& sizes) {
  std::string list;
  for (int size : sizes) list += (list.empty() ? "" : ", ") + std::to_string(size);
  return "name: bench\ntitle: Save to result\ndescription: The page's save loop, timed.\n"
         "images:\n  - {type: generated, sizes: [48], channels: [1], seed: 3}\n"
         "kernels:\n  - {type: gaussian, size: [" +
         list +
         "]}\n"
         "implementations:\n  sequential: {}\n  mine: {source: kernels/mine.c}\n"
         "measure: {warmup: 0, min_reps: 3, max_reps: 3, max_seconds: 0.05}\n"
         "figures:\n  - {name: time-by-size, title: Median time, type: line, x: kernel.size, "
         "y: median_ms, series: implementation}\n"
         "tables:\n  - {name: time-ms, title: Median time, rows: implementation, "
         "columns: kernel.size, value: median_ms}\n";
}

std::string kernel_text(int version) {
  return "/* version " + std::to_string(version) +
         " */\n#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n"
         "CONVLAB_CPU_ENTRY(const convlab_problem *p) {\n"
         "  const int r = p->ksize / 2;\n"
         "  for (int y = 0; y < p->height; ++y)\n"
         "    for (int x = 0; x < p->width; ++x) {\n"
         "      float sum = 0.f;\n"
         "      for (int k = 0; k < p->ksize * p->ksize; ++k) {\n"
         "        const int sy = convlab_border_index(y + k / p->ksize - r, p->height, "
         "p->border);\n"
         "        const int sx = convlab_border_index(x + k % p->ksize - r, p->width, p->border);\n"
         "        if (sy >= 0 && sx >= 0) sum += p->weights[k] * p->in[sy * p->in_pitch + sx];\n"
         "      }\n"
         "      convlab_store(p->out, (long long)y * p->width + x, p->output, sum);\n"
         "    }\n"
         "  return 0;\n}\n";
}

// The server's events as they arrive, each with the time it came.
class EventStream {
 public:
  struct Event {
    Clock::time_point at;
    std::string name;
    json data;
  };
  EventStream(int port, std::string token) : client_("127.0.0.1", port), token_(std::move(token)) {
    // One stream for the whole run: a stream that connects again is sent the latest events
    // again, which must not count as new ones.
    client_.set_read_timeout(3600, 0);
    thread_ = std::thread([this] { run(); });
  }
  ~EventStream() {
    stop_ = true;
    client_.stop();
    if (thread_.joinable()) thread_.join();
  }
  // The first event named `name` after `from` for which `wanted` holds, waiting up to `seconds`.
  template <typename Wanted>
  std::optional<Event> wait(const std::string& name, Clock::time_point from, double seconds,
                            Wanted wanted) {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      for (const Event& event : events_)
        if (event.at >= from && event.name == name && wanted(event.data)) return event;
      if (changed_.wait_until(lock, deadline) == std::cv_status::timeout) return std::nullopt;
    }
  }

 private:
  void run() {
    std::string buffer;
    if (!stop_) {
      client_.Get("/_events", {{"Authorization", "token " + token_}},
                  [&](const char* data, size_t length) {
                    buffer.append(data, length);
                    for (size_t end; (end = buffer.find("\n\n")) != std::string::npos;) {
                      parse(buffer.substr(0, end));
                      buffer.erase(0, end + 2);
                    }
                    return !stop_.load();
                  });
    }
  }
  void parse(const std::string& block) {
    std::istringstream lines(block);
    std::string name, data;
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("event: ", 0) == 0) name = line.substr(7);
      if (line.rfind("data: ", 0) == 0) data += line.substr(6);
    }
    if (name.empty() || data.empty()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    events_.push_back({Clock::now(), name, json::parse(data, nullptr, false)});
    changed_.notify_all();
  }
  httplib::Client client_;
  std::string token_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Event> events_;
  std::thread thread_;
};

struct Watch {
  pid_t pid = -1;
  int port = 0;
  std::string token;
};

Watch start_watch(const std::string& convlab, const fs::path& folder) {
  const fs::path log = folder / "watch.log";
  Watch watch;
  watch.pid = ::fork();
  if (watch.pid == 0) {
    if (::chdir(folder.c_str()) != 0) ::_exit(127);
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(out, 2);
    ::setenv("CONVLAB_KERNEL_CACHE", (folder / "cache").c_str(), 1);
    ::execl(convlab.c_str(), convlab.c_str(), "watch", "bench.yaml", "--serve", "0",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const auto deadline = Clock::now() + std::chrono::seconds(120);
  while (Clock::now() < deadline) {
    const std::string text = read_text(log);
    const size_t at = text.find("http://127.0.0.1:");
    const size_t waiting = text.find("waiting for");
    if (at != std::string::npos && waiting != std::string::npos) {
      const std::string url = text.substr(at, text.find('\n', at) - at);
      watch.port = std::stoi(url.substr(17));
      watch.token = url.substr(url.find("token=") + 6);
      return watch;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("the watch did not start; its log:\n" + read_text(log));
}

json records_of(const fs::path& results) {
  if (!fs::exists(results)) return json::array();
  const json file = json::parse(read_text(results), nullptr, false);
  return file.is_object() && file.contains("records") ? file["records"] : json::array();
}

// The measured time of the first `take` records after the first `before` of the results file.
double own_seconds(const fs::path& results, size_t before, size_t take) {
  const json records = records_of(results);
  double seconds = 0;
  for (size_t i = before; i < records.size() && i < before + take; ++i)
    if (records[i].contains("timing")) seconds += records[i]["timing"].value("total_seconds", 0.0);
  return seconds;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: convlab_save_to_result CONVLAB [--saves N] [--keep]\n";
    return 2;
  }
  const std::string convlab = fs::absolute(argv[1]).string();
  int saves = 8;
  bool keep = false;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--saves") == 0 && i + 1 < argc) {
      saves = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--keep") == 0) {
      keep = true;
    } else {
      std::cerr << "convlab_save_to_result: unknown argument " << argv[i] << "\n";
      return 2;
    }
  }
  if (saves < 1 || saves > 40) {
    std::cerr << "convlab_save_to_result: --saves is 1 to 40\n";
    return 2;
  }
  std::string pattern = (fs::temp_directory_path() / "convlab-save-bench-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return 1;
  const fs::path folder = pattern;
  std::vector<int> sizes{3};
  write_text(folder / "bench.yaml", config_text(sizes));
  write_text(folder / "kernels/mine.c", kernel_text(0));
  int status = 0;
  Watch watch;
  try {
    watch = start_watch(convlab, folder);
    EventStream events(watch.port, watch.token);
    httplib::Client client("127.0.0.1", watch.port);
    client.set_read_timeout(10, 0);
    const httplib::Headers auth{{"Authorization", "token " + watch.token}};
    const auto session = client.Get("/_api/session", auth);
    if (!session || session->status != 200) throw std::runtime_error("no session");
    const std::string csrf = json::parse(session->body)["csrf"];
    const httplib::Headers page{{"Authorization", "token " + watch.token},
                                {"Origin", "http://127.0.0.1:" + std::to_string(watch.port)},
                                {"X-Convlab-CSRF", csrf}};
    const fs::path results = folder / "outputs/bench/results.json";
    json rows = json::array();
    std::vector<double> overheads[2];
    for (int i = 0; i < 2 * saves; ++i) {
      const bool kernel = i % 2 == 1;
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the previous sweep settles
      std::string key = "config", text;
      fs::path file = folder / "bench.yaml";
      if (kernel) {
        key = "source-1";
        file = folder / "kernels/mine.c";
        text = kernel_text(i);
      } else {
        sizes.push_back(sizes.back() + 2);
        text = config_text(sizes);
      }
      const size_t before = records_of(results).size();
      const std::string base = convlab::sha256_hex(read_text(file));
      const auto saved = Clock::now();
      const auto reply =
          client.Post("/_api/save", page, json{{"key", key}, {"text", text}, {"base", base}}.dump(),
                      "application/json");
      if (!reply || reply->status != 200)
        throw std::runtime_error("the save was refused: " + (reply ? reply->body : "no answer"));
      const auto shown = events.wait("page", saved, 60, [](const json& data) {
        return data.contains("progress") && data["progress"].value("done", 0) >= 1;
      });
      if (!shown)
        throw std::runtime_error("no new result within 60 s of save " + std::to_string(i));
      const double latency = std::chrono::duration<double>(shown->at - saved).count();
      const size_t done = shown->data["progress"].value("done", 1);
      // Wait for the sweep to end (its records are then in results.json), and for the next save.
      events.wait("run", saved, 60, [](const json& data) { return !data.value("running", true); });
      // The first new record is the result the event showed first.
      const double own = own_seconds(results, before, 1);
      const double overhead = latency - own;
      overheads[kernel].push_back(overhead);
      rows.push_back({{"save", kernel ? "kernel" : "config"},
                      {"to_first_result_ms", latency * 1000},
                      {"progress_done", done},
                      {"first_point_own_ms", own * 1000},
                      {"overhead_ms", overhead * 1000}});
    }
    json summary;
    for (int kind = 0; kind < 2; ++kind) {
      const auto& values = overheads[kind];
      summary[kind ? "kernel" : "config"] = {
          {"median_overhead_ms", median(values) * 1000},
          {"max_overhead_ms", *std::max_element(values.begin(), values.end()) * 1000},
          {"saves", values.size()}};
    }
    std::cout << json{{"saves", rows}, {"summary", summary}}.dump(2) << "\n";
  } catch (const std::exception& error) {
    std::cerr << "convlab_save_to_result: " << error.what() << "\n";
    status = 1;
  }
  if (watch.pid > 0) {
    ::kill(watch.pid, SIGINT);
    int ignored = 0;
    ::waitpid(watch.pid, &ignored, 0);
  }
  if (!keep)
    fs::remove_all(folder);
  else
    std::cerr << "kept " << folder << "\n";
  return status;
}
