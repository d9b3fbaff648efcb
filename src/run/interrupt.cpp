#include "run/interrupt.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <mutex>
#include <thread>

#include "user_kernels/kernel_host_client.hpp"

namespace convlab {
namespace {

std::mutex handler_mutex;
std::function<std::string()> current_handler;
pthread_t watcher_thread;

sigset_t interrupt_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  return signals;
}

void say(const std::string& line) {
  const std::string text = line + "\n";
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(STDERR_FILENO, text.data() + written, text.size() - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
}

[[noreturn]] void watch(sigset_t signals) {
  int signal = 0;
  while (sigwait(&signals, &signal) != 0) {
  }
  std::function<std::string()> handler;
  {
    const std::lock_guard<std::mutex> lock(handler_mutex);
    handler = current_handler;
  }
  std::string line = "interrupted before any point ran; nothing was written";
  if (handler) {
    try {
      line = handler();
    } catch (const std::exception& error) {
      line =
          std::string("interrupted; the results could not be brought up to date: ") + error.what();
    }
  }
  // Users' kernels end with the run: their hosts, and whatever those started.
  end_kernel_hosts_now();
  std::cout.flush();  // its writes are checked and buffered apart from C's stdout
  std::fflush(stdout);
  say("\n" + line);
  ::_exit(128 + signal);
}

// A thread that was started before the mask was set (a shared library's own worker, made while it
// loaded) or that unblocks the signals would otherwise take them with the default action, ending
// the process without the results write. Such a thread hands the signal on to the watcher, where
// it waits blocked until sigwait takes it. pthread_kill only sends, so it is safe in a handler.
void forward_to_watcher(int signal) {
  pthread_kill(watcher_thread, signal);
}

void install_forwarding(const sigset_t& signals) {
  struct sigaction action {};
  action.sa_handler = forward_to_watcher;
  action.sa_mask = signals;
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

}  // namespace

void watch_for_interrupts() {
  static std::once_flag started;
  std::call_once(started, [] {
    const sigset_t signals = interrupt_signals();
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::thread watcher(watch, signals);
    watcher_thread = watcher.native_handle();
    watcher.detach();
    install_forwarding(signals);
  });
}

void set_interrupt_handler(std::function<std::string()> handler) {
  const std::lock_guard<std::mutex> lock(handler_mutex);
  current_handler = std::move(handler);
}

void clear_interrupt_handler() {
  const std::lock_guard<std::mutex> lock(handler_mutex);
  current_handler = nullptr;
}

}  // namespace convlab
