#include "user_kernels/program_output.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "user_kernels/machine_cpus.hpp"

extern char** environ;

namespace convlab {
namespace {

// The child between fork and exec: only async-signal-safe calls. Reports a failure to start
// through `report` (close-on-exec, so a successful exec closes it unwritten).
[[noreturn]] void become_program(const char* path, char* const* argv, char* const* environment,
                                 const ProgramLimits& limits, const cpu_set_t& cpus, int output,
                                 int report) {
  ::setpgid(0, 0);  // a group of its own: a timeout kills the compiler and what it started
  ::sched_setaffinity(0, sizeof cpus, &cpus);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  const int input = ::open("/dev/null", O_RDONLY);
  if (input >= 0) ::dup2(input, STDIN_FILENO);
  ::dup2(output, STDOUT_FILENO);
  ::dup2(output, STDERR_FILENO);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  int error = 0;
  if (limits.address_space_bytes > 0) {
    const rlimit memory{limits.address_space_bytes, limits.address_space_bytes};
    if (::setrlimit(RLIMIT_AS, &memory) != 0) error = errno;
  }
  if (error == 0 && !limits.folder.empty() && ::chdir(limits.folder.c_str()) != 0) error = errno;
  if (error == 0) {
    ::execve(path, argv, environment);
    error = errno;
  }
  [[maybe_unused]] const ssize_t written = ::write(report, &error, sizeof error);
  ::_exit(127);
}

// Reads the program's output until it closes its end or the deadline passes.
void collect_output(int fd, pid_t pid, const ProgramLimits& limits, ProgramOutput& result) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long long>(limits.seconds * 1000));
  char buffer[8192];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);  // the program and the programs it started
      return;
    }
    pollfd entry{fd, POLLIN, 0};
    const int ready = ::poll(&entry, 1, static_cast<int>(left));
    if (ready <= 0) continue;  // EINTR or the deadline: checked above
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    if (result.output.size() < limits.max_output)
      result.output.append(buffer,
                           std::min<std::size_t>(got, limits.max_output - result.output.size()));
  }
}

// This process's environment without OpenMP's binding (OMP_PROC_BIND, OMP_PLACES), which convlab
// sets for its CPU rungs: a program started with it that loads OpenMP (NVRTC's child is convlab)
// pins its main thread to the first core it may use, and every compiler would take turns on it.
std::vector<std::string> environment_unbound() {
  std::vector<std::string> kept;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    if (text.rfind("OMP_PROC_BIND=", 0) == 0 || text.rfind("OMP_PLACES=", 0) == 0) continue;
    kept.push_back(text);
  }
  return kept;
}

// argv[0] as execvp would find it, looked up before fork: execvp is not async-signal-safe.
std::string program_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string folders = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (std::size_t start = 0; start <= folders.size();) {
    std::size_t end = folders.find(':', start);
    if (end == std::string::npos) end = folders.size();
    const std::string folder = end > start ? folders.substr(start, end - start) : ".";
    const std::string candidate = folder + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return name;  // execve fails with ENOENT and the failure names it
}

}  // namespace

ProgramOutput run_program(const std::vector<std::string>& argv, const ProgramLimits& limits) {
  ProgramOutput result;
  int output[2], report[2];
  if (::pipe2(output, O_CLOEXEC) != 0) {
    result.failure = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  if (::pipe2(report, O_CLOEXEC) != 0) {
    result.failure = std::string("pipe: ") + std::strerror(errno);
    ::close(output[0]);
    ::close(output[1]);
    return result;
  }
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const std::string path = program_path(argv.at(0));
  std::vector<std::string> environment = environment_unbound();
  std::vector<char*> variables;
  for (auto& variable : environment) variables.push_back(variable.data());
  variables.push_back(nullptr);
  // Compilers run side by side on the cores the measuring thread leaves, not on its one core.
  const cpu_set_t cpus = compiler_cpus();
  const pid_t pid = ::fork();
  if (pid == 0)
    become_program(path.c_str(), args.data(), variables.data(), limits, cpus, output[1], report[1]);
  ::close(output[1]);
  ::close(report[1]);
  if (pid < 0) {
    result.failure = std::string("fork: ") + std::strerror(errno);
    ::close(output[0]);
    ::close(report[0]);
    return result;
  }
  ::setpgid(pid, pid);  // also here, so that a kill at the deadline never misses the group
  collect_output(output[0], pid, limits, result);
  ::close(output[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (result.timed_out) ::kill(-pid, SIGKILL);  // stragglers of the group
  int error = 0;
  const bool not_started = ::read(report[0], &error, sizeof error) == sizeof error;
  ::close(report[0]);
  if (not_started) {
    result.failure = argv[0] + ": " + std::strerror(error);
    return result;
  }
  result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

ProgramOutput run_program(const std::vector<std::string>& argv, double seconds,
                          std::size_t max_output) {
  ProgramLimits limits;
  limits.seconds = seconds;
  limits.max_output = max_output;
  return run_program(argv, limits);
}

std::string program_end_words(const ProgramOutput& out) {
  if (out.signal != 0)
    return "was killed by signal " + std::to_string(out.signal) + " (" + ::strsignal(out.signal) +
           ")";
  return "exited with status " + std::to_string(out.exit_code);
}

}  // namespace convlab
