// What a test leaves behind when it is killed: a test process ended by a signal (a time limit's
// SIGKILL, an interrupted `ctest`) runs no destructor, and its scratch folder, its browser's
// temporary folder, chromedriver, Chromium and a `convlab watch` it started would stay. A
// LeftoverGuard hands them to a small bash of its own (dash's kill takes no process group),
// outside the test's process tree and session (so that whatever kills the test and its children
// leaves it), which waits for the test to close a pipe, as it does at its end or as the kernel
// does on any death, and then stops the processes and removes the folder. The destructor closes
// the pipe and waits until that is done.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace convlab::notebook_test {

class LeftoverGuard {
 public:
  explicit LeftoverGuard(const std::string& folder) {
    int control[2], done[2];
    if (::pipe2(control, O_CLOEXEC) != 0) return;
    if (::pipe2(done, O_CLOEXEC) != 0) {
      ::close(control[0]);
      ::close(control[1]);
      return;
    }
    // Each line read is an argument of kill: a process id, or a process group as -id. The folder
    // comes as the shell's $1, never as code.
    static const char* const kScript =
        "while read target; do targets=\"$targets $target\"; done; "
        "for t in $targets; do kill -TERM -- \"$t\" 2>/dev/null; done; "
        "for t in $targets; do kill -0 -- \"$t\" 2>/dev/null && sleep 1 && break; done; "
        "for t in $targets; do kill -KILL -- \"$t\" 2>/dev/null; done; "
        "rm -rf -- \"$1\"";
    const char* argv[] = {"/bin/bash", "-c", kScript, "leftover-guard", folder.c_str(), nullptr};
    const pid_t child = ::fork();
    if (child == 0) {
      // Only async-signal-safe calls from here: the test may have threads.
      ::setsid();
      if (::fork() != 0) ::_exit(0);
      ::dup2(control[0], 0);
      ::dup2(done[1], 1);
      ::execv("/bin/bash", const_cast<char* const*>(argv));
      ::_exit(127);
    }
    ::close(control[0]);
    ::close(done[1]);
    if (child < 0) {
      ::close(control[1]);
      ::close(done[0]);
      return;
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    control_ = control[1];
    done_ = done[0];
  }
  LeftoverGuard(const LeftoverGuard&) = delete;
  LeftoverGuard& operator=(const LeftoverGuard&) = delete;

  // Stopped at the end too: a process, or with `group` its whole process group.
  void stop_at_end(pid_t pid, bool group = false) {
    if (control_ < 0 || pid <= 0) return;
    const std::string line = (group ? "-" : "") + std::to_string(pid) + "\n";
    if (::write(control_, line.data(), line.size()) < 0) return;  // the guard is gone: no cleanup
  }

  // Now: the processes stopped and the folder removed before this returns.
  ~LeftoverGuard() {
    if (control_ < 0) return;
    ::close(control_);
    char byte;
    while (::read(done_, &byte, 1) > 0) {
    }
    ::close(done_);
  }

 private:
  int control_ = -1;  // the guard reads it; closing it starts the cleanup
  int done_ = -1;     // the guard's stdout: end of file once it has finished
};

}  // namespace convlab::notebook_test
