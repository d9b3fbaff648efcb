#include "core/child_processes.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <map>
#include <sstream>

namespace convlab {
namespace {

// This process's environment with the job's settings in place of the variables they name;
// made before fork, since the child may call only async-signal-safe functions.
std::vector<std::string> environment_of(const ChildJob& job) {
  std::vector<std::string> variables;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string variable(*entry);
    const std::string name = variable.substr(0, variable.find('=') + 1);
    bool replaced = false;
    for (const std::string& setting : job.environment)
      replaced |= setting.compare(0, name.size(), name) == 0;
    if (!replaced) variables.push_back(variable);
  }
  variables.insert(variables.end(), job.environment.begin(), job.environment.end());
  return variables;
}

// The jobs running now, for signal_running_jobs: a slot is 0 or a child's pid (pid_t is an int
// here, as sig_atomic_t is).
std::array<volatile sig_atomic_t, 64> running_pids{};

void note_running(pid_t pid, bool running) {
  for (auto& slot : running_pids)
    if (slot == (running ? 0 : pid)) {
      slot = running ? pid : 0;
      return;
    }
}

pid_t start(const ChildJob& job) {
  std::vector<std::string> variables = environment_of(job);
  std::vector<char*> envp;
  for (auto& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  std::vector<char*> argv;
  for (const auto& arg : job.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  // The child: its folder, its log, then the program; nothing here may return.
  if (::chdir(job.directory.c_str()) != 0) ::_exit(127);
  const int log = ::open(job.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) ::_exit(127);
  ::dup2(log, STDOUT_FILENO);
  ::dup2(log, STDERR_FILENO);
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null >= 0) ::dup2(null, STDIN_FILENO);
  ::execvpe(argv[0], argv.data(), envp.data());
  ::_exit(127);
}

}  // namespace

void run_jobs(std::vector<ChildJob>& jobs, unsigned parallel) {
  if (parallel == 0) parallel = 1;
  std::map<pid_t, size_t> running;
  size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && running.size() < parallel) {
      const pid_t pid = start(jobs[next]);
      if (pid < 0) {
        jobs[next].exit_code = 127;
      } else {
        running[pid] = next;
        note_running(pid, true);
      }
      ++next;
    }
    if (running.empty()) continue;
    int status = 0;
    const pid_t done = ::waitpid(-1, &status, 0);
    if (done < 0) {
      if (errno == EINTR) continue;
      for (auto& [pid, index] : running) jobs[index].exit_code = 127;
      return;
    }
    const auto it = running.find(done);
    if (it == running.end()) continue;
    note_running(done, false);
    jobs[it->second].exit_code = WIFEXITED(status)
                                     ? WEXITSTATUS(status)
                                     : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    running.erase(it);
  }
}

void signal_running_jobs(int signal) {
  for (const auto& slot : running_pids)
    if (slot > 0) ::kill(static_cast<pid_t>(slot), signal);
}

bool program_available(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "/usr/bin:/bin");
  std::string folder;
  while (std::getline(folders, folder, ':')) {
    const std::string candidate = (folder.empty() ? "." : folder) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

}  // namespace convlab
