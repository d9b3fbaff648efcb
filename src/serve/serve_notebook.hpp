// Entry points for the commands that serve a notebook (`--serve`): start a server and print the one
// line that holds its token, or serve until Ctrl-C.
#pragma once

#include <iosfwd>
#include <memory>

#include "serve/notebook_server.hpp"

namespace convlab {

// Starts a server on `options` and writes "Serving the notebook at URL" (the only line that shows
// the token) to `announce`. Throws ServeError, as NotebookServer::start does.
std::unique_ptr<NotebookServer> start_notebook_server(ServeOptions options, LiveEvents& events,
                                                      std::ostream& announce);

// Serves `options.root` until SIGINT or SIGTERM arrives, then stops and returns. Both signals are
// blocked while it serves (in this thread and the server's) and taken with sigwait, so no handler
// of the caller's runs meanwhile; the signal mask is restored before it returns.
void serve_notebook_until_interrupted(ServeOptions options, std::ostream& announce);

}  // namespace convlab
