#include "user_kernels/kernel_host_client.hpp"

#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "core/number_text.hpp"
#include "user_kernels/kernel_host_channel.hpp"
#include "user_kernels/kernel_host_spawn.hpp"
#include "user_kernels/program_output.hpp"

namespace convlab {
namespace {

// How long a keeper may take to end what is below it before it is killed with its own and its
// server's process groups (a process leaving a CUDA context can take a while in the driver).
constexpr double kKeeperEndSeconds = 40.0;

// The most hosts of one family running at once in this process. A CUDA host holds a context on
// its device (about half a GB of device memory), a CPU host a process with its loaded libraries;
// a run over more user implementations ends the one asked least recently before it starts another.
constexpr std::size_t kMaxLiveHostsPerFamily = 4;

// The most compiled variants one host loads before it is started afresh: a search may measure
// thousands of variants of one kernel, and a loaded library stays loaded.
constexpr std::size_t kMaxArtifactsPerHost = 64;

// Orders the hosts by their last request, for the one to end first.
std::atomic<std::uint64_t> request_clock{0};

// The hosts running now, for the way out on a signal: (keeper, server) pairs.
struct LiveHosts {
  std::mutex mutex;
  std::map<pid_t, pid_t> server_of_keeper;
};

// The host that may run now, the last one asked something; every other one is stopped.
std::atomic<KernelHost*> running_host{nullptr};

// Set once convlab ends every host on its way out (end_kernel_hosts_now).
std::atomic<bool> ending_all{false};

// A request whose host convlab itself ended on its way out is no failure of the kernel: the
// thread waits there for the process to end, and no point is reported.
void wait_for_the_end_if_ending() {
  if (!ending_all.load()) return;
  for (;;) ::pause();
}

LiveHosts& live_hosts() {
  static LiveHosts* hosts = new LiveHosts();  // never destroyed: used until the process ends
  return *hosts;
}

void note_live(pid_t keeper, pid_t server) {
  LiveHosts& live = live_hosts();
  const std::lock_guard<std::mutex> lock(live.mutex);
  if (server > 0)
    live.server_of_keeper[keeper] = server;
  else
    live.server_of_keeper.erase(keeper);
}

struct Hosts {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<KernelHost>> by_name;
};

Hosts& hosts();

// A run that ends normally ends its hosts and waits for them, so that nothing a kernel started
// outlives convlab's exit.
void end_hosts_at_exit() {
  Hosts& all = hosts();
  const std::lock_guard<std::mutex> lock(all.mutex);
  for (auto& [name, host] : all.by_name) host->stop();
}

Hosts& hosts() {
  static Hosts* all = [] {
    std::atexit(end_hosts_at_exit);
    return new Hosts();  // never destroyed: points refer to their hosts
  }();
  return *all;
}

// Ends the host of `family` asked least recently, other than `starting`, while as many as the
// limit run.
void make_room_for(const KernelHost* starting, Family family) {
  Hosts& all = hosts();
  const std::lock_guard<std::mutex> lock(all.mutex);
  for (;;) {
    std::size_t running = 0;
    KernelHost* oldest = nullptr;
    for (auto& [name, host] : all.by_name) {
      if (host.get() == starting || !host->running() || host->family() != family) continue;
      ++running;
      if (oldest == nullptr || host->last_request() < oldest->last_request()) oldest = host.get();
    }
    if (running < kMaxLiveHostsPerFamily) return;
    oldest->stop();
  }
}

// The first message of a server: its pid, which is its process group.
pid_t server_pid_from_hello(const ChannelMessage& hello) {
  const nlohmann::json& server = hello.body.value("server", nlohmann::json());
  if (!server.is_number_integer() || server.get<long long>() <= 1)
    throw ChannelClosed("the kernel host did not say hello");
  return server.get<pid_t>();
}

}  // namespace

std::string kernel_host_program() {
  if (const char* chosen = std::getenv("CONVLAB_KERNEL_HOST"); chosen && *chosen) return chosen;
  char exe[PATH_MAX];
  const ssize_t size = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  return size > 0 ? std::string(exe, size) : "convlab";
}

KernelHost::KernelHost(Family family) : family_(family) {}

KernelHost::~KernelHost() {
  stop();
}

void KernelHost::start(double seconds) {
  make_room_for(this, family_);
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    throw KernelHostError(std::string("cannot start a kernel host: socketpair: ") +
                          std::strerror(errno));
  try {
    keeper_ = spawn_kernel_host_keeper(kernel_host_program(), ends[1]);
  } catch (const std::runtime_error& error) {
    ::close(ends[0]);
    ::close(ends[1]);
    throw KernelHostError(error.what());
  }
  ::close(ends[1]);
  socket_ = ends[0];
  ++generation_;
  frozen_ = false;
  ChannelMessage hello =
      receive_message(socket_, seconds < 0 ? -1 : static_cast<int>(seconds * 1000) + 1);
  for (int fd : hello.fds) ::close(fd);
  server_ = server_pid_from_hello(hello);
  note_live(keeper_, server_);
}

void KernelHost::admit_artifact(const std::string& sha256) {
  if (artifacts_.count(sha256) != 0) return;
  if (artifacts_.size() >= kMaxArtifactsPerHost) stop();  // a fresh host for the next ones
  artifacts_.insert(sha256);
}

std::size_t max_live_kernel_hosts_per_family() {
  return kMaxLiveHostsPerFamily;
}

std::size_t max_artifacts_per_kernel_host() {
  return kMaxArtifactsPerHost;
}

void KernelHost::claim() {
  last_request_ = ++request_clock;
  KernelHost* previous = running_host.exchange(this);
  if (previous != nullptr && previous != this) previous->freeze();
  thaw();
}

void KernelHost::freeze_the_running_one() {
  if (KernelHost* running = running_host.exchange(nullptr)) running->freeze();
}

void KernelHost::thaw() {
  if (frozen_ && server_ > 0) ::kill(-server_, SIGCONT);
  frozen_ = false;
}

void KernelHost::freeze() {
  if (server_ <= 0 || ::kill(-server_, SIGSTOP) != 0) return;  // every process of its group
  stop_every_thread(server_);  // the server's threads at once, not when it is next scheduled
  frozen_ = true;
}

void KernelHost::stop() {
  KernelHost* self = this;
  running_host.compare_exchange_strong(self, nullptr);
  if (keeper_ > 0) {
    note_live(keeper_, -1);
    ::kill(keeper_, SIGTERM);  // the keeper kills the server, its group and all below
    int status = 0;
    if (!wait_for_child(keeper_, kKeeperEndSeconds, &status)) {
      ::kill(-keeper_, SIGKILL);
      while (::waitpid(keeper_, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  // What may be left of the server's group where the keeper could not end it (it was killed): a
  // child a kernel started without fork(3), which has no parent-death signal.
  if (server_ > 0) ::kill(-server_, SIGKILL);
  if (socket_ >= 0) ::close(socket_);
  keeper_ = server_ = socket_ = -1;
  frozen_ = false;
  artifacts_.clear();
}

void KernelHost::fail(const std::string& reason) {
  stop();
  throw KernelHostError(reason);
}

nlohmann::json KernelHost::request(const nlohmann::json& body, const std::vector<int>& fds,
                                   double seconds, double limit) {
  try {
    if (keeper_ <= 0) start(seconds);
    claim();
    send_message(socket_, body, fds);
    ChannelMessage answer =
        receive_message(socket_, seconds < 0 ? -1 : static_cast<int>(seconds * 1000) + 1);
    for (int fd : answer.fds) ::close(fd);
    if (answer.body.contains("error")) {
      const std::string error = answer.body["error"].is_string()
                                    ? answer.body["error"].get<std::string>()
                                    : answer.body["error"].dump();
      if (family_ == Family::cuda) stop();
      throw KernelHostError(error);
    }
    return answer.body;
  } catch (const ChannelTimeout&) {
    wait_for_the_end_if_ending();
    fail("timed out after " + format_exact(limit) +
         " s (measure.timeout); its process was stopped");
  } catch (const ChannelClosed&) {
    wait_for_the_end_if_ending();
    // The server ended: its keeper ends what is below it, then ends as the server did.
    int status = 0;
    const bool ended = keeper_ > 0 && wait_for_child(keeper_, kKeeperEndSeconds, &status);
    if (ended) {
      note_live(keeper_, -1);
      keeper_ = -1;  // reaped: its number is no longer this host's to signal
    }
    const std::string how = ended ? wait_status_words(status) : "ended";
    fail("the kernel's process " + how + " (each user kernel runs in a process of its own)");
  }
}

void stop_running_kernel_host() {
  KernelHost::freeze_the_running_one();
}

KernelHost& kernel_host(const std::string& name, Family family) {
  Hosts& all = hosts();
  const std::lock_guard<std::mutex> lock(all.mutex);
  auto& host = all.by_name[name];
  if (!host) host = std::make_unique<KernelHost>(family);
  return *host;
}

void end_kernel_host(const std::string& name) {
  Hosts& all = hosts();
  const std::lock_guard<std::mutex> lock(all.mutex);
  auto found = all.by_name.find(name);
  if (found != all.by_name.end()) found->second->stop();
}

void end_kernel_hosts_now() {
  ending_all.store(true);
  std::map<pid_t, pid_t> live;
  {
    LiveHosts& hosts = live_hosts();
    const std::lock_guard<std::mutex> lock(hosts.mutex);
    live = hosts.server_of_keeper;
  }
  for (const auto& [keeper, server] : live) {
    ::kill(-server, SIGKILL);
    ::kill(keeper, SIGTERM);
  }
  // Not reaped here: the thread that started a keeper may be waiting for it too.
  for (const auto& [keeper, server] : live) wait_for_child_to_end(keeper, 2.0);
}

LibraryDeclarations describe_shared_library(const std::string& path) {
  LibraryDeclarations declared;
  const ProgramOutput out = run_program({kernel_host_program(), "kernel-host", "--describe", path,
                                         "--parent", std::to_string(::getpid())},
                                        30.0, 1 << 20);
  if (out.exit_code == -1) {
    declared.error = out.failure;
    return declared;
  }
  const std::size_t start = out.output.rfind("\n{");
  const std::string last = start == std::string::npos ? out.output : out.output.substr(start + 1);
  const std::string printed = start == std::string::npos ? "" : out.output.substr(0, start);
  const nlohmann::json answer = nlohmann::json::parse(last, nullptr, false);
  const bool ended = answer.is_object() && answer.contains("ended");
  if (out.timed_out || out.exit_code != 0 || answer.is_discarded() || !answer.is_object() ||
      ended) {
    const std::string how = out.timed_out ? std::string("did not finish within 30 s")
                            : ended       ? answer["ended"].get<std::string>()
                                          : program_end_words(out);
    const std::string shown = ended ? printed : out.output;
    declared.error = path + ": its declarations could not be read: the loading " + how +
                     (shown.empty() ? "" : "\n" + shown.substr(0, 4000));
    return declared;
  }
  if (answer.contains("error")) {
    declared.error = answer["error"].get<std::string>();
    return declared;
  }
  for (const auto& entry : answer["ints"])
    declared.ints.emplace_back(entry[0].get<std::string>(), entry[1].get<long long>());
  declared.entries = answer["entries"].get<std::vector<std::string>>();
  return declared;
}

}  // namespace convlab
