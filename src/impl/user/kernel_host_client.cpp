#include "impl/user/kernel_host_client.hpp"

#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "core/number_text.hpp"
#include "impl/user/kernel_host_channel.hpp"
#include "impl/user/program_output.hpp"

extern char** environ;

namespace convlab {
namespace {

// The file descriptor the host finds its channel on.
constexpr int kHostChannelFd = 3;

// Every CPU of the machine: a host's OpenMP threads spread over the cores the run may use, not
// only the core the calling thread happens to be pinned to (the mask a child inherits).
cpu_set_t machine_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  const long count = sysconf(_SC_NPROCESSORS_CONF);
  for (long cpu = 0; cpu < count && cpu < CPU_SETSIZE; ++cpu) CPU_SET(cpu, &set);
  return set;
}

// fork and exec: between them only async-signal-safe calls (dup2, sigprocmask, sched_setaffinity).
pid_t spawn_host(const std::string& program, int channel) {
  const std::string fd_text = std::to_string(kHostChannelFd);
  std::vector<std::string> args{program, "kernel-host", "--channel", fd_text};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const cpu_set_t cpus = machine_cpus();
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::sched_setaffinity(0, sizeof cpus, &cpus);  // restricted to the cpuset where there is one
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);    // a crashing kernel leaves no core file behind
  ::dup2(channel, kHostChannelFd);       // dup2 clears close-on-exec on the copy
  ::dup2(STDERR_FILENO, STDOUT_FILENO);  // what a kernel prints never mixes into results
  ::execve(argv[0], argv.data(), environ);
  ::_exit(127);
}

}  // namespace

std::string wait_status_words(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return "was killed by signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "stopped";
}

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

void KernelHost::start() {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    throw KernelHostError(std::string("cannot start a kernel host: socketpair: ") +
                          std::strerror(errno));
  const pid_t pid = spawn_host(kernel_host_program(), ends[1]);
  ::close(ends[1]);
  if (pid < 0) {
    ::close(ends[0]);
    throw KernelHostError(std::string("cannot start a kernel host: fork: ") + std::strerror(errno));
  }
  pid_ = pid;
  socket_ = ends[0];
  ++generation_;
}

void KernelHost::stop() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (socket_ >= 0) ::close(socket_);
  pid_ = -1;
  socket_ = -1;
}

void KernelHost::fail(const std::string& reason) {
  stop();
  throw KernelHostError(reason);
}

nlohmann::json KernelHost::request(const nlohmann::json& body, const std::vector<int>& fds,
                                   double seconds, double limit) {
  if (pid_ <= 0) start();
  try {
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
    fail("timed out after " + format_exact(limit) +
         " s (measure.timeout); its process was stopped");
  } catch (const ChannelClosed&) {
    int status = 0;
    pid_t ended = -1;
    while ((ended = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
    }
    const std::string how = ended == pid_ ? wait_status_words(status) : "ended";
    pid_ = -1;
    fail("the kernel's process " + how + " (each user kernel runs in a process of its own)");
  }
}

KernelHost& kernel_host(Family family) {
  static std::mutex mutex;
  static std::map<Family, std::unique_ptr<KernelHost>>* hosts =
      new std::map<Family, std::unique_ptr<KernelHost>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto& host = (*hosts)[family];
  if (!host) host = std::make_unique<KernelHost>(family);
  return *host;
}

LibraryDeclarations describe_shared_library(const std::string& path) {
  LibraryDeclarations declared;
  const ProgramOutput out =
      run_program({kernel_host_program(), "kernel-host", "--describe", path}, 30.0, 1 << 20);
  if (out.exit_code == -1) {
    declared.error = out.failure;
    return declared;
  }
  const std::size_t start = out.output.rfind("\n{");
  const std::string last = start == std::string::npos ? out.output : out.output.substr(start + 1);
  const nlohmann::json answer = nlohmann::json::parse(last, nullptr, false);
  if (out.timed_out || out.exit_code != 0 || answer.is_discarded() || !answer.is_object()) {
    declared.error = path + ": its declarations could not be read: the loading " +
                     (out.timed_out ? std::string("did not finish within 30 s")
                                    : "ended with status " + std::to_string(out.exit_code)) +
                     (out.output.empty() ? "" : "\n" + out.output.substr(0, 4000));
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
