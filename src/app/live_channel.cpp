#include "app/live_channel.hpp"

namespace convlab {
namespace {

class FilesOnly : public LiveChannel {
 public:
  void publish(const std::string&, const nlohmann::json&) override {}
  bool serving() const override { return false; }
  void announce(const std::string&) override {}
};

}  // namespace

std::unique_ptr<LiveChannel> open_live_channel(const LiveChannelOptions& options) {
  if (options.serve)
    throw LiveChannelError("--serve: this convlab was built without the notebook server");
  return std::make_unique<FilesOnly>();
}

}  // namespace convlab
