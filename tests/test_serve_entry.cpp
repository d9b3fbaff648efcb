// The entry points a command calls to serve a notebook (serve/serve_notebook.hpp): the one line
// that shows the URL with its token, and serving until SIGINT or SIGTERM.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sstream>
#include <thread>

#include "serve/serve_notebook.hpp"
#include "test_serve_client.hpp"

namespace convlab {
namespace {

using namespace serve_test;
using Clock = std::chrono::steady_clock;

const std::string kToken = "serve-entry-token-0123456789abcdef";

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

TEST(ServeEntry, StartingPrintsTheUrlWithTheTokenOnce) {
  ScratchFolder folder;
  write_text(folder.path / "index.html", "<!DOCTYPE html><p>index</p>");
  LiveEvents events;
  ServeOptions options;
  options.root = folder.path;
  std::ostringstream announce;
  auto server = start_notebook_server(options, events, announce);
  const std::string text = announce.str();
  EXPECT_EQ(text.rfind("Serving the notebook at " + server->url() + "\n", 0), 0u) << text;
  EXPECT_EQ(text.find(server->token()), text.rfind(server->token())) << "the token shows once";
  const HttpReply reply = send_request(
      server->port(), request_text("GET", "/index.html?token=" + server->token(), server->port()));
  EXPECT_EQ(reply.status, 200);
}

TEST(ServeEntry, ServesUntilSigtermThenReturns) {
  ScratchFolder folder;
  write_text(folder.path / "index.html", "<!DOCTYPE html><p>index</p>");
  ServeOptions options;
  options.root = folder.path;
  options.token = kToken;
  options.port = free_port();
  std::ostringstream announce;
  std::atomic<bool> returned{false};
  std::thread serving([&] {
    serve_notebook_until_interrupted(options, announce);
    returned = true;
  });
  int status = 0;
  for (const auto until = Clock::now() + 10s; status != 200 && Clock::now() < until;) {
    status = send_request(options.port, request_text("GET", "/?token=" + kToken, options.port), 2s)
                 .status;
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(status, 200);
  // The signal goes to the serving thread, which blocks it and takes it with sigwait.
  ::pthread_kill(serving.native_handle(), SIGTERM);
  const auto began = Clock::now();
  serving.join();
  EXPECT_TRUE(returned);
  EXPECT_LT(Clock::now() - began, 3s);
  EXPECT_NE(announce.str().find("http://127.0.0.1:" + std::to_string(options.port) +
                                "/index.html?token=" + kToken),
            std::string::npos);
  EXPECT_FALSE(RawConnection("127.0.0.1", options.port).connected());
}

}  // namespace
}  // namespace convlab
