// The notebook server's actions (serve/action_requests.hpp, docs/notebook.md "Writing and running
// in the page"), against a real server on the loopback address over raw sockets: a state-changing
// request reaches the command's handler only with the token, a Host and an Origin that name the
// server, the session's CSRF token, a JSON body of a bounded size given by its length and arriving
// in time; every other request is answered without the handler, and without its body being read.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "serve/notebook_server.hpp"
#include "serve/request_access.hpp"
#include "test_serve_client.hpp"

namespace convlab {
namespace {

using namespace serve_test;
using Clock = std::chrono::steady_clock;

const std::string kToken = "serve-actions-token-0123456789abcdef";

class ServeActions : public ::testing::Test {
 protected:
  void SetUp() override {
    write_text(scratch_.path / "notebook/index.html", "<!DOCTYPE html><p>index</p>");
    start({});
  }

  void start(ServeLimits limits) {
    server_.reset();
    ServeOptions options;
    options.root = scratch_.path / "notebook";
    options.token = kToken;
    options.limits = limits;
    options.actions = [this](const ActionRequest& request) {
      std::lock_guard<std::mutex> lock(mutex_);
      calls_.push_back(request);
      if (request.name == "save" && request.method != "POST")
        return ActionAnswer{405, "{\"error\":\"a POST\"}", "POST"};
      return ActionAnswer{200, "{\"done\":true}", ""};
    };
    server_ = std::make_unique<NotebookServer>(options, events_);
    server_->start();
    port_ = server_->port();
    origin_ = "http://127.0.0.1:" + std::to_string(port_);
  }

  std::vector<ActionRequest> calls() {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_;
  }

  // A POST as the page sends it, with `drop` naming one header to leave out and `replace` headers
  // to send instead of the page's.
  HttpReply post(const std::string& name, const std::string& body,
                 const std::map<std::string, std::string>& replace = {},
                 const std::string& drop = "") {
    std::map<std::string, std::string> headers{{"Authorization", "token " + kToken},
                                               {"Origin", origin_},
                                               {"X-Convlab-CSRF", server_->csrf_token()},
                                               {"Content-Type", "application/json"},
                                               {"Content-Length", std::to_string(body.size())},
                                               {"Sec-Fetch-Site", "same-origin"}};
    for (const auto& [header, value] : replace) headers[header] = value;
    std::string extra;
    for (const auto& [header, value] : headers)
      if (header != drop) extra += header + ": " + value + "\r\n";
    return send_request(port_, request_text("POST", "/_api/" + name, port_, extra) + body);
  }

  ScratchFolder scratch_;
  LiveEvents events_;
  std::unique_ptr<NotebookServer> server_;
  int port_ = 0;
  std::string origin_;
  std::mutex mutex_;
  std::vector<ActionRequest> calls_;
};

TEST_F(ServeActions, APageRequestReachesTheHandlerWithItsBody) {
  const HttpReply reply = post("save", "{\"key\":\"config\"}");
  EXPECT_EQ(reply.status, 200) << reply.raw;
  EXPECT_EQ(reply.body, "{\"done\":true}");
  EXPECT_EQ(reply.header("content-type"), "application/json");
  EXPECT_EQ(reply.header("x-frame-options"), "DENY");
  ASSERT_EQ(calls().size(), 1u);
  EXPECT_EQ(calls()[0].method, "POST");
  EXPECT_EQ(calls()[0].name, "save");
  EXPECT_EQ(calls()[0].body, "{\"key\":\"config\"}");
  // localhost names the server too; a charset after the type is the page's own business.
  EXPECT_EQ(post("save", "{}",
                 {{"Origin", "http://localhost:" + std::to_string(port_)},
                  {"Content-Type", "application/json; charset=utf-8"}})
                .status,
            200);
}

TEST_F(ServeActions, TheSessionGivesItsCsrfTokenOnlyWithTheToken) {
  const HttpReply with = send_request(
      port_,
      request_text("GET", "/_api/session", port_, "Authorization: token " + kToken + "\r\n"));
  EXPECT_EQ(with.status, 200);
  EXPECT_EQ(with.body, "{\"csrf\":\"" + server_->csrf_token() + "\"}");
  EXPECT_NE(server_->csrf_token(), kToken);
  EXPECT_EQ(server_->csrf_token().size(), 64u);
  const HttpReply without = send_request(port_, request_text("GET", "/_api/session", port_));
  EXPECT_EQ(without.status, 403);
  EXPECT_EQ(without.body.find(server_->csrf_token()), std::string::npos);
  // Nothing that reads it from another origin is allowed to: no CORS header is ever sent.
  EXPECT_FALSE(with.has_header("access-control-allow-origin"));
  EXPECT_TRUE(calls().empty());
}

TEST_F(ServeActions, EveryMissingOrForeignCredentialIsRefusedBeforeTheHandler) {
  const std::string body = "{\"key\":\"config\",\"text\":\"x\"}";
  struct Case {
    std::string what;
    std::map<std::string, std::string> replace;
    std::string drop;
    int status;
  };
  const std::string port = std::to_string(port_);
  const std::vector<Case> cases = {
      {"no token", {}, "Authorization", 403},
      {"a wrong token", {{"Authorization", "token wrong-token-0123456789abcdef"}}, "", 403},
      {"no Origin", {}, "Origin", 403},
      {"a foreign Origin", {{"Origin", "http://evil.example"}}, "", 403},
      {"a foreign Origin on this port", {{"Origin", "http://evil.example:" + port}}, "", 403},
      {"the server's Origin on another port", {{"Origin", "http://127.0.0.1:1"}}, "", 403},
      {"an https Origin", {{"Origin", "https://127.0.0.1:" + port}}, "", 403},
      {"a null Origin", {{"Origin", "null"}}, "", 403},
      {"a cross-site fetch", {{"Sec-Fetch-Site", "cross-site"}}, "", 403},
      {"a same-site fetch", {{"Sec-Fetch-Site", "same-site"}}, "", 403},
      {"no CSRF token", {}, "X-Convlab-CSRF", 403},
      {"the auth token as CSRF token", {{"X-Convlab-CSRF", kToken}}, "", 403},
      {"a form's content type", {{"Content-Type", "application/x-www-form-urlencoded"}}, "", 415},
      {"text/plain", {{"Content-Type", "text/plain"}}, "", 415},
      {"no content type", {}, "Content-Type", 415},
      {"a rebinding Host", {{"Host", "evil.example:" + port}}, "", 403},
  };
  for (const Case& c : cases) {
    std::map<std::string, std::string> replace = c.replace;
    HttpReply reply;
    if (replace.count("Host")) {
      // request_text writes its own Host: build this one by hand.
      reply = send_request(port_, "POST /_api/save HTTP/1.1\r\nHost: " + replace["Host"] +
                                      "\r\nConnection: close\r\nAuthorization: token " + kToken +
                                      "\r\nOrigin: " + origin_ +
                                      "\r\nX-Convlab-CSRF: " + server_->csrf_token() +
                                      "\r\nContent-Type: application/json\r\nContent-Length: " +
                                      std::to_string(body.size()) + "\r\n\r\n" + body);
    } else {
      reply = post("save", body, replace, c.drop);
    }
    EXPECT_EQ(reply.status, c.status) << c.what << "\n" << reply.raw;
  }
  EXPECT_TRUE(calls().empty()) << calls().size() << " requests reached the handler";
}

TEST_F(ServeActions, BodiesAreBoundedGivenByTheirLengthAndOnTime) {
  ServeLimits limits;
  limits.max_request_body_bytes = 1000;
  limits.request_body_deadline = std::chrono::milliseconds(800);
  start(limits);
  // Larger than allowed: refused from its Content-Length, the body never read.
  const HttpReply large = post("save", std::string(1001, 'x'));
  EXPECT_EQ(large.status, 413) << large.raw;
  // Chunked, or without a length: refused.
  EXPECT_EQ(
      post("save", "5\r\nhello\r\n0\r\n\r\n", {{"Transfer-Encoding", "chunked"}}, "Content-Length")
          .status,
      411);
  EXPECT_EQ(post("save", "", {}, "Content-Length").status, 411);
  EXPECT_EQ(post("save", "{}", {{"Content-Length", "-1"}}).status, 400);
  // A body that trickles in is dropped at its deadline, not waited on.
  RawConnection slow("127.0.0.1", port_);
  ASSERT_TRUE(slow.connected());
  const std::string head =
      request_text("POST", "/_api/save", port_,
                   "Authorization: token " + kToken + "\r\nOrigin: " + origin_ +
                       "\r\nX-Convlab-CSRF: " + server_->csrf_token() +
                       "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n");
  const auto sent = Clock::now();
  ASSERT_TRUE(slow.send_bytes(head + "{\"a\":"));
  EXPECT_TRUE(slow.read_until("\r\n\r\n", std::chrono::seconds(5)));
  const double waited = std::chrono::duration<double>(Clock::now() - sent).count();
  EXPECT_NE(slow.received().find(" 408 "), std::string::npos) << slow.received();
  EXPECT_LT(waited, 3.0);
  EXPECT_GT(waited, 0.5);
  // Exactly at the limit: admitted.
  EXPECT_EQ(post("save", std::string(1000, ' ')).status, 200);
  ASSERT_EQ(calls().size(), 1u);
  EXPECT_EQ(calls()[0].body.size(), 1000u);
}

TEST_F(ServeActions, OnlyActionsTakeAPostAndAGetReachesTheHandlerAsAGet) {
  // A page of the folder is still read only.
  const HttpReply page = post("../index.html", "{}");
  EXPECT_NE(page.status, 200);
  const HttpReply file = send_request(
      port_, request_text("POST", "/index.html", port_,
                          "Authorization: token " + kToken + "\r\nOrigin: " + origin_ +
                              "\r\nX-Convlab-CSRF: " + server_->csrf_token() +
                              "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n") +
                 "{}");
  EXPECT_EQ(file.status, 405);
  EXPECT_EQ(file.header("allow"), "GET, HEAD");
  // An action named with a path, or a name that is none, is no action.
  EXPECT_EQ(post("a/b", "{}").status, 404);
  EXPECT_EQ(post("..", "{}").status, 404);
  EXPECT_TRUE(calls().empty());
  // A GET of an action is the handler's to refuse.
  const HttpReply get = send_request(
      port_, request_text("GET", "/_api/save", port_, "Authorization: token " + kToken + "\r\n"));
  EXPECT_EQ(get.status, 405);
  EXPECT_EQ(get.header("allow"), "POST");
  ASSERT_EQ(calls().size(), 1u);
  EXPECT_EQ(calls()[0].method, "GET");
  // Other methods are refused by the server.
  const HttpReply put = send_request(
      port_, request_text("PUT", "/_api/save", port_, "Authorization: token " + kToken + "\r\n"));
  EXPECT_EQ(put.status, 405);
  EXPECT_EQ(calls().size(), 1u);
}

TEST_F(ServeActions, AServerWithoutActionsIsReadOnly) {
  ServeOptions options;
  options.root = scratch_.path / "notebook";
  options.token = kToken;
  LiveEvents events;
  NotebookServer plain(options, events);
  plain.start();
  const HttpReply session =
      send_request(plain.port(), request_text("GET", "/_api/session", plain.port(),
                                              "Authorization: token " + kToken + "\r\n"));
  EXPECT_EQ(session.status, 404);
  const HttpReply post = send_request(
      plain.port(), request_text("POST", "/_api/save", plain.port(),
                                 "Authorization: token " + kToken + "\r\nContent-Length: 2\r\n") +
                        "{}");
  EXPECT_EQ(post.status, 405);
}

TEST(OriginNamesServer, AcceptsThePagesOwnOriginOnly) {
  EXPECT_TRUE(origin_names_server("http://127.0.0.1:8888", "127.0.0.1", 8888));
  EXPECT_TRUE(origin_names_server("http://localhost:8888", "127.0.0.1", 8888));
  EXPECT_TRUE(origin_names_server("http://[::1]:8888", "127.0.0.1", 8888));
  EXPECT_FALSE(origin_names_server("http://127.0.0.1:8889", "127.0.0.1", 8888));
  EXPECT_FALSE(origin_names_server("http://127.0.0.1:8888/", "127.0.0.1", 8888));
  EXPECT_FALSE(origin_names_server("https://127.0.0.1:8888", "127.0.0.1", 8888));
  EXPECT_FALSE(origin_names_server("http://evil.example:8888", "127.0.0.1", 8888));
  EXPECT_FALSE(origin_names_server("null", "127.0.0.1", 8888));
  EXPECT_FALSE(origin_names_server("", "127.0.0.1", 8888));
}

}  // namespace
}  // namespace convlab
