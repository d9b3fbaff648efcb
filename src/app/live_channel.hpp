// How `convlab watch` tells the open notebook pages that one changed: with --serve, server-sent
// events of the notebook server (serve/notebook_server.hpp); without it, nothing (the pages are
// files, reloaded by hand).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "serve/action_requests.hpp"

namespace convlab {

class LiveChannelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LiveChannelOptions {
  bool serve = false;
  std::string bind_address = "127.0.0.1";
  int port = 0;      // 0: a free one
  std::string root;  // the notebook folder
  // What the page may ask of the watch besides its files (serve/action_requests.hpp); none: the
  // served notebook is read only.
  ActionHandler actions;
};

class LiveChannel {
 public:
  virtual ~LiveChannel() = default;
  // Thread-safe; a page opened later gets the latest event of each name first.
  virtual void publish(const std::string& event, const nlohmann::json& data) = 0;
  // Whether pages are served (they then follow the events).
  virtual bool serving() const = 0;
  // Prints the URL of `page` (with its token) the first time it is called; later calls say nothing.
  virtual void announce(const std::string& page) = 0;
};

// Starts the server when options.serve; throws LiveChannelError when it cannot.
std::unique_ptr<LiveChannel> open_live_channel(const LiveChannelOptions& options);

}  // namespace convlab
