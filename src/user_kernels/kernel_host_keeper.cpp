#include "user_kernels/kernel_host_keeper.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "user_kernels/process_tree.hpp"

namespace convlab {
namespace {

// How long a keeper waits for the processes below it to die once killed: a process leaving a
// CUDA context can take a while in the driver.
constexpr double kDescendantsEndSeconds = 30.0;

sigset_t keeper_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  for (int signal : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGPIPE}) sigaddset(&signals, signal);
  return signals;
}

// Forks the server, in a process group of its own, killed when the keeper ends; it runs `serve`
// and exits with its status. The keeper is single-threaded (it has just been executed and starts
// nothing), so the child may run any code; no second exec of convlab is paid per host.
pid_t start_server(const std::function<int()>& serve) {
  const pid_t keeper = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != keeper) ::_exit(127);  // the keeper ended before the line above
    struct sigaction plain {};
    plain.sa_handler = SIG_DFL;
    ::sigaction(SIGCHLD, &plain, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::prctl(PR_SET_CHILD_SUBREAPER, 0);
    std::exit(serve());
  }
  if (pid > 0) ::setpgid(pid, pid);  // both sides, so it holds before either goes on
  return pid;
}

struct ServerEnd {
  bool ended = false;  // false: the keeper was asked to end first
  int status = 0;
};

// Starts the server and waits for its end or a request to end; then ends every process below.
ServerEnd keep(const std::function<int()>& serve, int close_after_start) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  block_keeper_signals();
  struct sigaction quiet {};
  quiet.sa_handler = SIG_DFL;
  quiet.sa_flags = SA_NOCLDSTOP;  // a server stopped between requests wakes nobody
  ::sigaction(SIGCHLD, &quiet, nullptr);
  const pid_t pid = start_server(serve);
  if (close_after_start >= 0) ::close(close_after_start);  // the server holds it now
  ServerEnd end;
  if (pid < 0) return {true, 127 << 8};
  const sigset_t waited = keeper_signals();
  while (!end.ended) {
    const int signal = ::sigwaitinfo(&waited, nullptr);
    if (signal == SIGCHLD) {
      int status = 0;
      pid_t reaped = 0;
      while ((reaped = ::waitpid(-1, &status, WNOHANG)) > 0)
        if (reaped == pid) end = {true, status};
    } else if (signal > 0 && signal != SIGPIPE) {
      break;
    }
  }
  end_descendants(kDescendantsEndSeconds);
  return end;
}

// Ends this process as the server ended: by the same signal, or with the same status.
[[noreturn]] void end_as(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    struct sigaction fatal {};
    fatal.sa_handler = SIG_DFL;
    ::sigaction(signal, &fatal, nullptr);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal);
    ::sigprocmask(SIG_UNBLOCK, &only, nullptr);
    ::kill(::getpid(), signal);
    ::_exit(128 + signal);
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

void die_with_parent(int signal) {
  ::prctl(PR_SET_PDEATHSIG, signal);
}

}  // namespace

void block_keeper_signals() {
  const sigset_t signals = keeper_signals();
  ::sigprocmask(SIG_BLOCK, &signals, nullptr);
}

void keep_channel_host(int channel, const std::function<int()>& serve) {
  const ServerEnd end = keep(serve, channel);
  if (end.ended) end_as(end.status);
  ::_exit(0);
}

int keep_describing(pid_t parent, const std::function<int()>& describe) {
  block_keeper_signals();
  die_with_parent(SIGTERM);  // taken by the wait below, which then ends everything
  if (parent > 0 && ::getppid() != parent) return 1;
  const ServerEnd end = keep(describe, -1);
  if (end.ended && WIFEXITED(end.status) && WEXITSTATUS(end.status) == 0) return 0;
  const nlohmann::json answer{
      {"ended", end.ended ? wait_status_words(end.status) : std::string("was stopped")}};
  std::cout << "\n" << answer.dump() << "\n" << std::flush;
  return 0;
}

void make_forked_children_die_with_their_parent() {
  ::pthread_atfork(nullptr, nullptr, [] { die_with_parent(SIGKILL); });
}

}  // namespace convlab
