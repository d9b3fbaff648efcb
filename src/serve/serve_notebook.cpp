#include "serve/serve_notebook.hpp"

#include <pthread.h>
#include <signal.h>

#include <ostream>

namespace convlab {

std::unique_ptr<NotebookServer> start_notebook_server(ServeOptions options, LiveEvents& events,
                                                      std::ostream& announce) {
  auto server = std::make_unique<NotebookServer>(std::move(options), events);
  server->start();
  announce << "Serving the notebook at " << server->url() << "\n"
           << "(Ctrl-C stops it; the link holds the token, so share it with no one)" << std::endl;
  return server;
}

void serve_notebook_until_interrupted(ServeOptions options, std::ostream& announce) {
  sigset_t stopping;
  sigemptyset(&stopping);
  sigaddset(&stopping, SIGINT);
  sigaddset(&stopping, SIGTERM);
  sigset_t before;
  pthread_sigmask(SIG_BLOCK, &stopping, &before);
  struct RestoreMask {
    sigset_t mask;
    ~RestoreMask() { pthread_sigmask(SIG_SETMASK, &mask, nullptr); }
  } restore{before};
  LiveEvents events;
  auto server = start_notebook_server(std::move(options), events, announce);
  int signal_number = 0;
  while (sigwait(&stopping, &signal_number) != 0) {
  }
  server->stop();
}

}  // namespace convlab
