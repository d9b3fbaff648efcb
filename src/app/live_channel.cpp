#include "app/live_channel.hpp"

#include <iostream>

#ifdef CONVLAB_WITH_SERVE
#include "serve/live_events.hpp"
#include "serve/notebook_server.hpp"
#endif

namespace convlab {
namespace {

// The pages are files, reloaded by hand: nobody to tell.
class FilesOnly : public LiveChannel {
 public:
  void publish(const std::string&, const nlohmann::json&) override {}
  bool serving() const override { return false; }
  void announce(const std::string&) override {}
};

#ifdef CONVLAB_WITH_SERVE
// The notebook server (serve/notebook_server.hpp) and its events.
class Served : public LiveChannel {
 public:
  explicit Served(const LiveChannelOptions& options) {
    ServeOptions serve;
    serve.root = options.root;
    serve.bind_address = options.bind_address;
    serve.port = options.port;
    serve.actions = options.actions;
    server_ = std::make_unique<NotebookServer>(std::move(serve), events_);
    try {
      server_->start();
    } catch (const ServeError& error) {
      throw LiveChannelError(std::string("--serve: ") + error.what());
    }
  }
  ~Served() override { server_->stop(); }

  void publish(const std::string& event, const nlohmann::json& data) override {
    events_.publish(event, data.dump());
  }
  bool serving() const override { return true; }
  // The one line that shows the token.
  void announce(const std::string& page) override {
    if (announced_) return;
    announced_ = true;
    std::cout << "convlab watch: serving the page at " << server_->url(page) << std::endl;
  }

 private:
  LiveEvents events_;
  std::unique_ptr<NotebookServer> server_;
  bool announced_ = false;
};
#endif

}  // namespace

std::unique_ptr<LiveChannel> open_live_channel(const LiveChannelOptions& options) {
#ifdef CONVLAB_WITH_SERVE
  if (options.serve) return std::make_unique<Served>(options);
#else
  if (options.serve)
    throw LiveChannelError(
        "--serve: this convlab was built without cpp-httplib; install libcpp-httplib-dev "
        "(scripts/install-deps.sh build) and build again");
#endif
  return std::make_unique<FilesOnly>();
}

}  // namespace convlab
