// Preloaded into convlab by a test: starts a thread while the library loads, before convlab's
// main() blocks SIGINT and SIGTERM, as some shared libraries do with their own workers. That
// thread leaves both signals unblocked, so the kernel may hand it a signal meant for the run.
#include <pthread.h>
#include <unistd.h>

namespace {

void* wait_forever(void*) {
  for (;;) pause();
  return nullptr;
}

__attribute__((constructor)) void start_stray_thread() {
  pthread_t thread;
  if (pthread_create(&thread, nullptr, wait_forever, nullptr) == 0) pthread_detach(thread);
}

}  // namespace
