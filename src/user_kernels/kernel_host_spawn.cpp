#include "user_kernels/kernel_host_spawn.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "user_kernels/kernel_host_keeper.hpp"
#include "user_kernels/machine_cpus.hpp"

extern char** environ;

namespace convlab {
namespace {

// Runs `fork_child` on a thread that lasts as long as the process. A parent-death signal is sent
// when the *thread* that forked the child ends, not the process: a host forked from a thread
// that ends earlier (a worker of a pool) would die with it.
pid_t fork_on_lasting_thread(const std::function<pid_t()>& fork_child) {
  struct Lasting {
    std::mutex one_at_a_time, mutex;
    std::condition_variable changed;
    const std::function<pid_t()>* job = nullptr;
    pid_t result = -1;
    int error = 0;
  };
  // Never destroyed: the thread waits on it until the process ends.
  static Lasting* lasting = [] {
    auto* made = new Lasting();
    std::thread([made] {
      std::unique_lock<std::mutex> lock(made->mutex);
      for (;;) {
        made->changed.wait(lock, [made] { return made->job != nullptr; });
        made->result = (*made->job)();
        made->error = errno;
        made->job = nullptr;
        made->changed.notify_all();
      }
    }).detach();
    return made;
  }();
  const std::lock_guard<std::mutex> one(lasting->one_at_a_time);
  std::unique_lock<std::mutex> lock(lasting->mutex);
  lasting->job = &fork_child;
  lasting->changed.notify_all();
  lasting->changed.wait(lock, [] { return lasting->job == nullptr; });
  errno = lasting->error;
  return lasting->result;
}

// Copies what the host prints to this process's standard error until every writer has closed it.
void forward_output(int from) {
  std::thread([from] {
    char chunk[4096];
    for (;;) {
      const ssize_t got = ::read(from, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      for (ssize_t sent = 0; sent < got;) {
        const ssize_t wrote = ::write(STDERR_FILENO, chunk + sent, static_cast<size_t>(got - sent));
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) break;
        sent += wrote;
      }
    }
    ::close(from);
  }).detach();
}

// Moves `fd` to `target` without close-on-exec (dup2 onto itself would keep the flag).
void place(int fd, int target) {
  if (fd == target)
    ::fcntl(fd, F_SETFD, 0);
  else
    ::dup2(fd, target);
}

}  // namespace

pid_t spawn_kernel_host_keeper(const std::string& program, int channel) {
  const std::string fd_text = std::to_string(kKernelHostChannelFd);
  std::vector<std::string> args{program, "kernel-host", "--channel", fd_text};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  int output[2];
  if (::pipe2(output, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("cannot start a kernel host: pipe: ") +
                             std::strerror(errno));
  const int nothing = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  const cpu_set_t cpus = machine_cpus();
  const pid_t parent = ::getpid();
  // Between fork and exec only async-signal-safe calls.
  const pid_t pid = fork_on_lasting_thread([&] {
    const pid_t child = ::fork();
    if (child > 0) ::setpgid(child, child);  // both sides, so it holds before either goes on
    if (child != 0) return child;
    // A process group of its own, not a session: the terminal's signals reach only its
    // foreground group, and a session would be a scheduling group of its own (autogroup),
    // which makes every round trip wait for its turn on a busy machine.
    ::setpgid(0, 0);
    block_keeper_signals();  // and so taken, not fatal, when the keeper begins
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127);     // convlab ended before the line above
    ::sched_setaffinity(0, sizeof cpus, &cpus);  // restricted to the cpuset where there is one
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);  // a crashing kernel leaves no core file behind
    if (nothing >= 0) ::dup2(nothing, STDIN_FILENO);
    ::dup2(output[1], STDOUT_FILENO);
    ::dup2(output[1], STDERR_FILENO);
    place(channel, kKernelHostChannelFd);
    ::execve(argv[0], argv.data(), environ);
    ::_exit(127);
  });
  const int error = errno;
  if (nothing >= 0) ::close(nothing);
  ::close(output[1]);
  if (pid < 0) {
    ::close(output[0]);
    throw std::runtime_error(std::string("cannot start a kernel host: fork: ") +
                             std::strerror(error));
  }
  forward_output(output[0]);
  return pid;
}

}  // namespace convlab
