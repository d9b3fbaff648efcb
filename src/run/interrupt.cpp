#include "run/interrupt.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <thread>

namespace convlab {
namespace {

std::mutex handler_mutex;
std::function<std::string()> current_handler;

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
  std::fflush(stdout);
  say("\n" + line);
  ::_exit(128 + signal);
}

}  // namespace

void watch_for_interrupts() {
  static std::once_flag started;
  std::call_once(started, [] {
    const sigset_t signals = interrupt_signals();
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::thread(watch, signals).detach();
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
