#include "user_kernels/process_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

namespace convlab {
namespace {

struct ProcessEntry {
  pid_t parent = 0;
  bool alive = false;  // not a zombie
};

// /proc/PID/stat: "PID (COMM) S PPID ...", where COMM may hold spaces and parentheses.
bool read_entry(pid_t pid, ProcessEntry* entry) {
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char text[1024];
  const ssize_t size = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (size <= 0) return false;
  text[size] = '\0';
  const char* close_paren = std::strrchr(text, ')');
  if (close_paren == nullptr || close_paren[1] == '\0' || close_paren[2] == '\0') return false;
  const char state = close_paren[2];
  char* end = nullptr;
  entry->parent = static_cast<pid_t>(std::strtol(close_paren + 3, &end, 10));
  entry->alive = state != 'Z' && state != 'X' && state != 'x';
  return end != close_paren + 3;
}

std::map<pid_t, ProcessEntry> every_process() {
  std::map<pid_t, ProcessEntry> processes;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return processes;
  while (const dirent* item = ::readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(item->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    ProcessEntry entry;
    if (read_entry(static_cast<pid_t>(pid), &entry)) processes[static_cast<pid_t>(pid)] = entry;
  }
  ::closedir(proc);
  return processes;
}

// SIGKILL to `pid` only while it is still below the caller: through a pidfd, opened and then
// checked, so that a number reused by an unrelated process between the reading of /proc and the
// kill is never signalled. Without pidfds (kernels before 5.3), kill(2).
void kill_if_below(pid_t pid, const std::set<pid_t>& tree) {
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_send_signal)
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd >= 0) {
    ProcessEntry entry;
    if (read_entry(pid, &entry) && tree.count(entry.parent) > 0)
      ::syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0);
    ::close(pidfd);
    return;
  }
  if (errno != ENOSYS) return;  // it ended meanwhile
#endif
  ::kill(pid, SIGKILL);
}

void reap_children() {
  int status = 0;
  while (::waitpid(-1, &status, WNOHANG) > 0) {
  }
}

void pause_briefly() {
  const timespec pause{0, 500 * 1000};
  ::nanosleep(&pause, nullptr);
}

}  // namespace

std::vector<pid_t> descendants_of(pid_t root) {
  std::multimap<pid_t, pid_t> children;
  std::map<pid_t, ProcessEntry> processes = every_process();
  for (const auto& [pid, entry] : processes) children.emplace(entry.parent, pid);
  std::vector<pid_t> below;
  std::vector<pid_t> open{root};
  while (!open.empty()) {
    const pid_t parent = open.back();
    open.pop_back();
    const auto [first, last] = children.equal_range(parent);
    for (auto it = first; it != last; ++it) {
      open.push_back(it->second);
      if (processes[it->second].alive) below.push_back(it->second);
    }
  }
  return below;
}

void stop_every_thread(pid_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/task";
  DIR* tasks = ::opendir(path.c_str());
  if (tasks == nullptr) return;
  while (const dirent* item = ::readdir(tasks)) {
    char* end = nullptr;
    const long tid = std::strtol(item->d_name, &end, 10);
    if (tid > 0 && *end == '\0') ::syscall(SYS_tgkill, pid, static_cast<pid_t>(tid), SIGSTOP);
  }
  ::closedir(tasks);
}

bool end_descendants(double seconds) {
  const pid_t self = ::getpid();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    reap_children();
    const std::vector<pid_t> below = descendants_of(self);
    if (below.empty()) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::set<pid_t> tree(below.begin(), below.end());
    tree.insert(self);
    for (pid_t pid : below) kill_if_below(pid, tree);
    pause_briefly();
  }
}

std::string wait_status_words(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return "was killed by signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "stopped";
}

bool wait_for_child_to_end(pid_t pid, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
#if defined(SYS_pidfd_open)
  // A pidfd becomes readable when the process ends: no polling where the kernel has them.
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd >= 0) {
    int ready = 0;
    do {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now())
                            .count();
      pollfd entry{pidfd, POLLIN, 0};
      ready = ::poll(&entry, 1, static_cast<int>(std::clamp<long long>(left + 1, 0, 1 << 30)));
    } while (ready < 0 && errno == EINTR);
    ::close(pidfd);
    return ready > 0;
  }
  if (errno == ESRCH) return true;  // reaped already
#endif
  for (;;) {
    siginfo_t info{};
    const int waited = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    if ((waited == 0 && info.si_pid == pid) || (waited < 0 && errno == ECHILD)) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    pause_briefly();
  }
}

bool wait_for_child(pid_t pid, double seconds, int* status) {
  *status = 0;
  if (!wait_for_child_to_end(pid, seconds)) return false;
  while (::waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
  return true;  // reaped here, or elsewhere already (ECHILD)
}

}  // namespace convlab
