// The live channel: LiveEvents, and GET /_events on a real server read over raw sockets: what a
// page gets when it connects, what it gets after, heartbeats, the limit on open streams, and that
// neither a stalled page nor the server's stop waits on anyone.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "serve/notebook_server.hpp"
#include "test_serve_client.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using namespace serve_test;
using Clock = std::chrono::steady_clock;

const std::string kToken = "serve-events-token-0123456789abcdef";

TEST(LiveEvents, ANewStreamGetsTheLatestOfEachNameThenWhatFollows) {
  LiveEvents events;
  events.publish("progress", R"({"point":1})");
  events.publish("cell", R"({"id":"a"})");
  events.publish("progress", R"({"point":2})");
  std::uint64_t after = 0;
  const auto first = events.latest_of_each_name(after);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].name, "cell");
  EXPECT_EQ(first[1].name, "progress");
  EXPECT_EQ(first[1].json_data, R"({"point":2})");
  EXPECT_EQ(after, 3u);
  EXPECT_TRUE(events.wait_after(after, std::chrono::milliseconds(10)).empty());
  events.publish("cell", R"({"id":"b"})");
  events.publish("cell", R"({"id":"c"})");
  const auto next = events.wait_after(after, std::chrono::milliseconds(10));
  ASSERT_EQ(next.size(), 2u);  // every event, not only the latest: cells b and c both changed
  EXPECT_EQ(next[0].json_data, R"({"id":"b"})");
  EXPECT_EQ(next[1].json_data, R"({"id":"c"})");
  EXPECT_EQ(after, 5u);
}

TEST(LiveEvents, AStreamThatFellBehindGetsTheLatestOfEachChangedName) {
  LiveEvents events;
  events.publish("old", "{}");
  std::uint64_t after = 1;
  for (std::size_t i = 0; i < LiveEvents::kKeptEvents + 10; ++i)
    events.publish(i % 2 ? "progress" : "cell", "{\"i\":" + std::to_string(i) + "}");
  const auto caught_up = events.wait_after(after, std::chrono::milliseconds(10));
  ASSERT_EQ(caught_up.size(), 2u);
  EXPECT_EQ(caught_up[1].json_data, "{\"i\":" + std::to_string(LiveEvents::kKeptEvents + 9) + "}");
  EXPECT_EQ(after, LiveEvents::kKeptEvents + 11);
}

TEST(LiveEvents, NamesAreCheckedAndDataLinesSplit) {
  LiveEvents events;
  EXPECT_THROW(events.publish("", "{}"), std::invalid_argument);
  EXPECT_THROW(events.publish("a\nb", "{}"), std::invalid_argument);
  EXPECT_THROW(events.publish("a:b", "{}"), std::invalid_argument);
  EXPECT_EQ(event_stream_text({1, "cell", "{\n  \"a\": 1\r\n}"}),
            "event: cell\ndata: {\ndata:   \"a\": 1\ndata: }\n\n");
  EXPECT_EQ(event_stream_text({1, "cell", ""}), "event: cell\ndata: \n\n");
}

class ServeEvents : public ::testing::Test {
 protected:
  void SetUp() override {
    write_text(folder_.path / "index.html", "<!DOCTYPE html><p>index</p>");
    start({});
  }

  void start(ServeLimits limits) {
    server_.reset();
    ServeOptions options;
    options.root = folder_.path;
    options.token = kToken;
    options.limits = limits;
    server_ = std::make_unique<NotebookServer>(options, events_);
    server_->start();
    port_ = server_->port();
  }

  // Opens /_events the way a page does after loading with ?token=: with the cookie.
  std::unique_ptr<RawConnection> open_stream() {
    auto connection = std::make_unique<RawConnection>("127.0.0.1", port_);
    connection->send_bytes("GET /_events HTTP/1.1\r\nHost: localhost:" + std::to_string(port_) +
                           "\r\nAccept: text/event-stream\r\nCookie: convlab_token_" +
                           std::to_string(port_) + "=" + kToken + "\r\n\r\n");
    return connection;
  }

  ScratchFolder folder_;
  LiveEvents events_;
  std::unique_ptr<NotebookServer> server_;
  int port_ = 0;
};

TEST_F(ServeEvents, APageGetsTheLatestStateThenEveryNewEvent) {
  events_.publish("progress", R"({"done":1,"of":4})");
  events_.publish("progress", R"({"done":2,"of":4})");
  auto stream = open_stream();
  ASSERT_TRUE(stream->read_until(R"(data: {"done":2,"of":4})", 5s)) << stream->received();
  const HttpReply head = parse_reply(stream->received());
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("content-type"), "text/event-stream");
  EXPECT_EQ(head.header("cache-control"), "no-store");
  EXPECT_EQ(head.header("x-content-type-options"), "nosniff");
  EXPECT_NE(stream->received().find("retry: "), std::string::npos);
  EXPECT_EQ(stream->received().find(R"({"done":1,"of":4})"), std::string::npos);
  const auto published = Clock::now();
  events_.publish("cell", R"({"id":"figure-1"})");
  ASSERT_TRUE(stream->read_until("event: cell\ndata: {\"id\":\"figure-1\"}\n\n", 5s));
  EXPECT_LT(Clock::now() - published, 1s);
}

TEST_F(ServeEvents, AnIdleStreamGetsHeartbeats) {
  ServeLimits limits;
  limits.heartbeat_interval = std::chrono::milliseconds(200);
  start(limits);
  auto stream = open_stream();
  ASSERT_TRUE(stream->read_until(": heartbeat\n\n", 3s)) << stream->received();
}

TEST_F(ServeEvents, OpenStreamsAreLimitedAndALeavingPageFreesItsPlace) {
  ServeLimits limits;
  limits.max_event_streams = 2;
  start(limits);
  auto first = open_stream();
  auto second = open_stream();
  ASSERT_TRUE(first->read_until("retry: ", 5s));
  ASSERT_TRUE(second->read_until("retry: ", 5s));
  auto third = open_stream();
  EXPECT_TRUE(third->read_until_closed(5s));
  EXPECT_EQ(parse_reply(third->received()).status, 503);
  first->close_now();
  bool reopened = false;
  const auto until = Clock::now() + 10s;
  while (!reopened && Clock::now() < until) {
    auto again = open_stream();
    reopened = again->read_until("retry: ", 2s);
    if (!reopened) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(reopened);
}

TEST_F(ServeEvents, AStalledPageHoldsUpNeitherThePublisherNorOtherPages) {
  ServeLimits limits;
  limits.write_timeout = std::chrono::milliseconds(500);
  start(limits);
  auto stalled = open_stream();  // never read from again
  ASSERT_TRUE(stalled->read_until("retry: ", 5s));
  auto reader = open_stream();
  ASSERT_TRUE(reader->read_until("retry: ", 5s));
  const std::string big(16384, 'x');
  const auto began = Clock::now();
  for (int i = 0; i < 600; ++i)  // about 10 MB, more than the socket buffers hold
    events_.publish("bulk", "\"" + big + std::to_string(i) + "\"");
  EXPECT_LT(Clock::now() - began, 1s);
  events_.publish("last", "{}");
  EXPECT_TRUE(reader->read_until("event: last\n", 10s));
}

TEST_F(ServeEvents, StoppingEndsOpenStreamsPromptly) {
  std::vector<std::unique_ptr<RawConnection>> streams;
  for (int i = 0; i < 5; ++i) {
    streams.push_back(open_stream());
    ASSERT_TRUE(streams.back()->read_until("retry: ", 5s));
  }
  const auto began = Clock::now();
  server_->stop();
  EXPECT_LT(Clock::now() - began, 2s);
  for (auto& stream : streams) EXPECT_TRUE(stream->read_until_closed(2s));
  EXPECT_FALSE(RawConnection("127.0.0.1", port_).connected());
}

TEST_F(ServeEvents, TheChannelAnswersHeadWithoutStreaming) {
  const HttpReply head = send_request(
      port_, request_text("HEAD", "/_events", port_, "Authorization: token " + kToken + "\r\n"),
      3s);
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("content-type"), "text/event-stream");
  EXPECT_EQ(head.body, "");
}

}  // namespace
}  // namespace convlab
