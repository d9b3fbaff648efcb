// The notebook server's security model (docs/notebook.md, "Serving the notebook"), each part tested
// against a real server on the loopback address over raw sockets, so that the exact bytes of every
// request are ours: the classes of Jupyter's own security advisories (open listening, missing
// tokens, DNS rebinding, open redirects, path traversal in all its spellings, links out of the
// folder, blocking on special files) and malformed or slow requests.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "html/page_frame.hpp"
#include "serve/notebook_server.hpp"
#include "serve/request_access.hpp"
#include "serve/request_path.hpp"
#include "test_serve_client.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using namespace serve_test;
using Clock = std::chrono::steady_clock;

const std::string kToken = "serve-test-token-0123456789abcdef";

// A notebook folder with a page of every served type, and around it what must never be served: a
// secret file beside it, a sibling folder whose name starts with the folder's name, links leading
// out, a FIFO and a device.
struct NotebookLayout {
  NotebookLayout() : root(scratch.path / "notebook") {
    write_text(root / "index.html", "<!DOCTYPE html><p>the index</p>");
    write_text(root / "page.html", "<!DOCTYPE html><p>a page</p>");
    write_text(root / "assets/notebook.css", "body { color: black; }");
    write_text(root / "assets/notebook.js", "\"use strict\";");
    write_text(root / "figure.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
    write_text(root / "picture.png", std::string("\x89PNG\r\n\x1a\n", 8));
    write_text(root / "data.json", "{\"a\": 1}");
    write_text(root / "assets/font.woff2", "wOF2");
    write_text(root / "notes.txt", "plain text");
    write_text(root / "sub/index.html", "<!DOCTYPE html><p>the sub index</p>");
    write_text(root / ".hidden", "HIDDEN-SECRET");
    fs::create_directories(root / "empty_folder");
    write_text(scratch.path / "secret.txt", "TOP-SECRET");
    write_text(scratch.path / "notebook-evil/secret.txt", "SIBLING-SECRET");
    fs::create_symlink("../secret.txt", root / "link_out_file");
    fs::create_symlink("..", root / "link_out_folder");
    fs::create_symlink(scratch.path / "notebook-evil", root / "link_sibling");
    fs::create_symlink("page.html", root / "link_inside.html");
    ::mkfifo((root / "fifo.html").c_str(), 0600);
    ::mkfifo((scratch.path / "outside.fifo").c_str(), 0600);
    fs::create_symlink("../outside.fifo", root / "link_fifo.html");
    fs::create_symlink("/dev/zero", root / "link_device.html");
  }
  ScratchFolder scratch;
  fs::path root;
};

class ServeSecurity : public ::testing::Test {
 protected:
  void SetUp() override { start({}); }

  void start(ServeOptions options) {
    server_.reset();
    options.root = layout_.root;
    if (options.token.empty()) options.token = kToken;
    options.request_log = [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(log_mutex_);
      log_.push_back(line);
    };
    server_ = std::make_unique<NotebookServer>(options, events_);
    server_->start();
    port_ = server_->port();
  }

  // A request with the token in an Authorization header (the path stays exactly as written).
  HttpReply get(const std::string& target, const std::string& method = "GET") {
    return send_request(
        port_, request_text(method, target, port_, "Authorization: token " + kToken + "\r\n"));
  }

  std::vector<std::string> log_lines() {
    std::lock_guard<std::mutex> lock(log_mutex_);
    return log_;
  }

  NotebookLayout layout_;
  LiveEvents events_;
  std::unique_ptr<NotebookServer> server_;
  int port_ = 0;
  std::mutex log_mutex_;
  std::vector<std::string> log_;
};

// --- listening ----------------------------------------------------------------------------------

std::vector<std::string> non_loopback_ipv4_addresses() {
  std::vector<std::string> addresses;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return addresses;
  for (ifaddrs* entry = list; entry; entry = entry->ifa_next) {
    if (!entry->ifa_addr || entry->ifa_addr->sa_family != AF_INET) continue;
    if (entry->ifa_flags & IFF_LOOPBACK) continue;
    char text[INET_ADDRSTRLEN];
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(entry->ifa_addr);
    ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    addresses.push_back(text);
  }
  ::freeifaddrs(list);
  return addresses;
}

TEST_F(ServeSecurity, ListensOnTheLoopbackAddressOnly) {
  EXPECT_EQ(server_->url(),
            "http://127.0.0.1:" + std::to_string(port_) + "/index.html?token=" + kToken);
  EXPECT_TRUE(RawConnection("127.0.0.1", port_).connected());
  // Every 127.x address is this machine; a server listening on all addresses would answer here.
  RawConnection other_loopback("127.0.0.2", port_);
  EXPECT_FALSE(other_loopback.connected());
  EXPECT_EQ(other_loopback.connect_errno(), ECONNREFUSED);
  for (const std::string& address : non_loopback_ipv4_addresses()) {
    RawConnection outside(address, port_);
    EXPECT_FALSE(outside.connected()) << "reachable on " << address;
  }
}

TEST_F(ServeSecurity, AnExplicitBindAddressIsTheOneListenedOn) {
  ServeOptions options;
  options.bind_address = "127.0.0.2";
  start(options);
  EXPECT_FALSE(RawConnection("127.0.0.1", port_).connected());
  const HttpReply reply =
      send_request(port_,
                   "GET /page.html HTTP/1.1\r\nHost: 127.0.0.2:" + std::to_string(port_) +
                       "\r\nAuthorization: token " + kToken + "\r\nConnection: close\r\n\r\n",
                   10s, "127.0.0.2");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(server_->url("page.html"),
            "http://127.0.0.2:" + std::to_string(port_) + "/page.html?token=" + kToken);
}

TEST_F(ServeSecurity, AnIpv6LoopbackBindIsReachedOnlyThere) {
  ServeOptions options;
  options.bind_address = "::1";
  try {
    start(options);
  } catch (const ServeError& error) {
    GTEST_SKIP() << "no IPv6 loopback on this machine: " << error.what();
  }
  EXPECT_FALSE(RawConnection("127.0.0.1", port_).connected());
  const std::string port = std::to_string(port_);
  const HttpReply reply =
      send_request(port_,
                   "GET /page.html HTTP/1.1\r\nHost: [::1]:" + port + "\r\nAuthorization: token " +
                       kToken + "\r\nConnection: close\r\n\r\n",
                   10s, "::1");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(server_->url("page.html"), "http://[::1]:" + port + "/page.html?token=" + kToken);
}

TEST_F(ServeSecurity, ABusyPortOrABadAddressIsAServeError) {
  ServeOptions busy;
  busy.root = layout_.root;
  busy.port = port_;
  NotebookServer second(busy, events_);
  try {
    second.start();
    FAIL() << "a second server started on a port in use";
  } catch (const ServeError& error) {
    EXPECT_NE(std::string(error.what()).find("127.0.0.1:" + std::to_string(port_)),
              std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("in use"), std::string::npos) << error.what();
  }
  for (const std::string& address :
       std::vector<std::string>{"localhost", "999.0.0.1", "evil.example", ""}) {
    ServeOptions options;
    options.root = layout_.root;
    options.bind_address = address;
    NotebookServer server(options, events_);
    EXPECT_THROW(server.start(), ServeError) << address;
  }
  ServeOptions no_folder;
  no_folder.root = layout_.root / "index.html";
  NotebookServer not_a_folder(no_folder, events_);
  EXPECT_THROW(not_a_folder.start(), ServeError);
  ServeOptions weak;
  weak.root = layout_.root;
  weak.token = "short";
  NotebookServer weak_token(weak, events_);
  EXPECT_THROW(weak_token.start(), ServeError);
}

TEST_F(ServeSecurity, AGeneratedTokenIs32RandomBytesInHex) {
  ServeOptions options;
  options.root = layout_.root;
  NotebookServer first(options, events_);
  NotebookServer second(options, events_);
  first.start();
  second.start();
  EXPECT_EQ(first.token().size(), 64u);
  EXPECT_EQ(first.token().find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(first.token(), second.token());
  EXPECT_NE(first.port(), second.port());
}

// --- the token ----------------------------------------------------------------------------------

TEST_F(ServeSecurity, EveryPathWantsTheToken) {
  const std::string almost = kToken.substr(0, kToken.size() - 1) + "0";
  const std::vector<std::string> wrong_ways = {
      "",
      "Authorization: token " + almost + "\r\n",
      "Authorization: token " + kToken.substr(1) + "\r\n",
      "Authorization: Bearer " + kToken + "\r\n",
      "Authorization: token\r\n",
      "Cookie: convlab_token_" + std::to_string(port_) + "=" + almost + "\r\n",
      "Cookie: convlab_token_1=" + kToken + "\r\n",  // another server's cookie
      "Cookie: " + kToken + "\r\n",
  };
  for (const std::string& path :
       std::vector<std::string>{"/", "/index.html", "/page.html", "/assets/notebook.css",
                                "/_events", "/missing.html", "/../secret.txt", "/fifo.html"}) {
    for (const std::string& headers : wrong_ways) {
      const HttpReply reply = send_request(port_, request_text("GET", path, port_, headers));
      EXPECT_EQ(reply.status, 403) << path << " with " << headers;
      EXPECT_FALSE(reply.has_header("set-cookie")) << path;
      EXPECT_EQ(reply.body.find("the index"), std::string::npos);
    }
    for (const std::string& query :
         std::vector<std::string>{"?token=" + almost, "?token=", "?tok=" + kToken,
                                  "?token=" + kToken + "&token=" + almost}) {
      EXPECT_EQ(send_request(port_, request_text("GET", path + query, port_)).status, 403)
          << path << query;
    }
  }
}

TEST_F(ServeSecurity, TheTokenComesInTheQueryACookieOrAnAuthorizationHeader) {
  const HttpReply by_query =
      send_request(port_, request_text("GET", "/page.html?token=" + kToken, port_));
  ASSERT_EQ(by_query.status, 200);
  EXPECT_EQ(by_query.body, "<!DOCTYPE html><p>a page</p>");
  const std::string cookie = by_query.header("set-cookie");
  const std::string name = "convlab_token_" + std::to_string(port_);
  EXPECT_EQ(cookie, name + "=" + kToken + "; HttpOnly; SameSite=Strict; Path=/");

  const HttpReply by_cookie =
      send_request(port_, request_text("GET", "/assets/notebook.css", port_,
                                       "Cookie: other=1; " + name + "=" + kToken + "; more=2\r\n"));
  EXPECT_EQ(by_cookie.status, 200);
  EXPECT_EQ(by_cookie.body, "body { color: black; }");
  EXPECT_FALSE(by_cookie.has_header("set-cookie"));

  const HttpReply by_header = get("/notes.txt");
  EXPECT_EQ(by_header.status, 200);
  EXPECT_EQ(by_header.body, "plain text");
}

TEST(ServeTokens, AreComparedWholeAndInConstantTimeShape) {
  EXPECT_TRUE(tokens_equal("abcdef", "abcdef"));
  EXPECT_FALSE(tokens_equal("abcdeg", "abcdef"));
  EXPECT_FALSE(tokens_equal("abcde", "abcdef"));
  EXPECT_FALSE(tokens_equal("abcdefg", "abcdef"));
  EXPECT_FALSE(tokens_equal("", "abcdef"));
  EXPECT_EQ(cookie_value("a=1; convlab_token_8=xyz ; b=2", "convlab_token_8"), "xyz");
  EXPECT_EQ(cookie_value("xconvlab_token_8=xyz", "convlab_token_8"), std::nullopt);
  EXPECT_EQ(authorization_token("Token abc"), "abc");
  EXPECT_EQ(authorization_token("Basic abc"), std::nullopt);
}

TEST_F(ServeSecurity, TheTokenAppearsInNoLogLine) {
  const std::string name = "convlab_token_" + std::to_string(port_);
  send_request(port_, request_text("GET", "/page.html?token=" + kToken, port_));
  send_request(port_, request_text("GET", "/missing.html?token=" + kToken + "&x=1", port_));
  send_request(port_,
               request_text("GET", "/page.html", port_, "Cookie: " + name + "=" + kToken + "\r\n"));
  send_request(port_, request_text("POST", "/page.html?token=" + kToken, port_));
  get("/notes.txt");
  get("/../secret.txt");
  send_request(port_, request_text("GET", "/page.html?token=wrong", port_));
  const auto lines = log_lines();
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0], "127.0.0.1 GET /page.html 200");
  EXPECT_EQ(lines[1], "127.0.0.1 GET /missing.html 404");
  EXPECT_EQ(lines[2], "127.0.0.1 GET /page.html 200");
  EXPECT_EQ(lines[3], "127.0.0.1 POST /page.html 405");
  EXPECT_EQ(lines[6], "127.0.0.1 GET /page.html 403");
  for (const std::string& line : lines) {
    EXPECT_EQ(line.find(kToken), std::string::npos) << line;
    EXPECT_EQ(line.find(kToken.substr(0, 8)), std::string::npos) << line;
    EXPECT_EQ(line.find("token"), std::string::npos) << line;
  }
}

// --- the Host header (DNS rebinding) ------------------------------------------------------------

TEST_F(ServeSecurity, TheHostHeaderMustNameThisServer) {
  const std::string port = std::to_string(port_);
  const std::string auth = "Authorization: token " + kToken + "\r\n";
  auto with_host = [&](const std::string& host_lines) {
    return send_request(
        port_, "GET /page.html HTTP/1.1\r\n" + host_lines + auth + "Connection: close\r\n\r\n");
  };
  for (const std::string& host : std::vector<std::string>{"127.0.0.1:" + port, "localhost:" + port,
                                                          "LocalHost:" + port, "[::1]:" + port})
    EXPECT_EQ(with_host("Host: " + host + "\r\n").status, 200) << host;
  for (const std::string& host : std::vector<std::string>{
           "evil.example:" + port, "evil.example", "127.0.0.1", "localhost", "127.0.0.1:1" + port,
           "127.0.0.1:" + port + "0", "localhost.:" + port, "127.0.0.2:" + port,
           "localhost.evil.example:" + port, "0.0.0.0:" + port, "[::]:" + port})
    EXPECT_EQ(with_host("Host: " + host + "\r\n").status, 403) << host;
  EXPECT_EQ(with_host("").status, 400);
  EXPECT_EQ(with_host("Host: \r\n").status, 400);
  EXPECT_EQ(with_host("Host: 127.0.0.1:" + port + "\r\nHost: evil.example:" + port + "\r\n").status,
            400);
  const HttpReply http10 =
      send_request(port_, "GET /page.html HTTP/1.0\r\nAuthorization: token " + kToken + "\r\n\r\n");
  EXPECT_EQ(http10.status, 400);
}

TEST(ServeHosts, AWildcardBindAcceptsIpLiteralsButNoNames) {
  EXPECT_TRUE(host_names_server("192.168.1.5:8888", "0.0.0.0", 8888));
  EXPECT_TRUE(host_names_server("[fe80::1]:8888", "::", 8888));
  EXPECT_FALSE(host_names_server("evil.example:8888", "0.0.0.0", 8888));
  EXPECT_FALSE(host_names_server("192.168.1.5:8888", "127.0.0.1", 8888));
  EXPECT_TRUE(host_names_server("192.168.1.5:8888", "192.168.1.5", 8888));
  EXPECT_TRUE(host_names_server("[::1]:8888", "::1", 8888));
  EXPECT_FALSE(host_names_server("192.168.1.5:8889", "0.0.0.0", 8888));
}

// --- methods and redirects ----------------------------------------------------------------------

TEST_F(ServeSecurity, OnlyGetAndHeadAreAnswered) {
  for (const std::string& method :
       std::vector<std::string>{"POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT"}) {
    const HttpReply reply = get("/page.html", method);
    EXPECT_EQ(reply.status, 405) << method;
    EXPECT_EQ(reply.header("allow"), "GET, HEAD") << method;
  }
  // A body the server never reads does not cost the client its answer.
  const HttpReply with_body = send_request(
      port_, request_text("POST", "/page.html", port_,
                          "Authorization: token " + kToken +
                              "\r\nContent-Type: text/plain\r\nContent-Length: 200000\r\n") +
                 std::string(200000, 'x'));
  EXPECT_EQ(with_body.status, 405);
  EXPECT_EQ(get("/page.html", "BREW").status, 400);

  const HttpReply head = get("/page.html", "HEAD");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
  EXPECT_EQ(head.header("content-length"), "28");
  EXPECT_EQ(head.header("content-type"), "text/html; charset=utf-8");
}

TEST_F(ServeSecurity, AMissingFaviconIsNoContentNotAnError) {
  const HttpReply favicon = get("/favicon.ico");
  EXPECT_EQ(favicon.status, 204);
  EXPECT_EQ(favicon.body, "");
  EXPECT_EQ(send_request(port_, request_text("GET", "/favicon.ico", port_)).status, 403);
  write_text(layout_.root / "favicon.ico", "ICON");
  EXPECT_EQ(get("/favicon.ico").body, "ICON");
}

TEST_F(ServeSecurity, NothingIsEverRedirected) {
  const HttpReply folder = get("/sub");
  EXPECT_EQ(folder.status, 200);
  EXPECT_EQ(folder.body, "<!DOCTYPE html><p>the sub index</p>");
  EXPECT_EQ(get("/sub/").body, "<!DOCTYPE html><p>the sub index</p>");
  EXPECT_EQ(get("/").body, "<!DOCTYPE html><p>the index</p>");
  EXPECT_EQ(get("/empty_folder/").status, 404);
  EXPECT_EQ(get("/empty_folder").status, 404);
  for (const std::string& target :
       std::vector<std::string>{"/sub", "/empty_folder", "//evil.example/", "/\\evil.example",
                                "/%2f%2fevil.example", "/..", "/missing"}) {
    const HttpReply reply = get(target);
    EXPECT_FALSE(reply.status >= 300 && reply.status < 400) << target;
    EXPECT_FALSE(reply.has_header("location")) << target;
  }
}

// --- containment --------------------------------------------------------------------------------

TEST_F(ServeSecurity, PathsLeavingTheFolderAreNotFound) {
  const std::vector<std::string> targets = {
      "/../secret.txt",
      "/%2e%2e/secret.txt",
      "/%2E%2E/secret.txt",
      "/%2E%2E%2Fsecret.txt",
      "/..%2fsecret.txt",
      "/..%2Fsecret.txt",
      "/.%2e/secret.txt",
      "/sub/../../secret.txt",
      "/sub/%2e%2e/%2e%2e/secret.txt",
      "/sub/..%2f..%2fsecret.txt",
      "/..\\secret.txt",
      "/%5c..%5csecret.txt",
      "/sub\\..\\..\\secret.txt",
      "/page.html%00.png",
      "/secret.txt%00",
      "/%00",
      "//etc/passwd",
      "/%2fetc%2fpasswd",
      "/%2Fetc/passwd",
      "/../notebook-evil/secret.txt",
      "/%2e%2e/notebook-evil/secret.txt",
      "/../../../../../../../../etc/passwd",
      "/./page.html",
      "/sub/./index.html",
      "/sub//index.html",
      "/.hidden",
      "/%2ehidden",
      "/link_out_file",
      "/link_out_folder/secret.txt",
      "/link_out_folder/notebook-evil/secret.txt",
      "/link_sibling/secret.txt",
      "/link_device.html",
      "/%252e%252e/secret.txt",
  };
  for (const std::string& target : targets) {
    const HttpReply reply = get(target);
    EXPECT_TRUE(reply.status == 404 || reply.status == 400) << target << " -> " << reply.status;
    EXPECT_EQ(reply.body.find("SECRET"), std::string::npos) << target;
    EXPECT_EQ(reply.body.find("root:"), std::string::npos) << target;
  }
  // Malformed escapes are bad requests; everything else that leaves is simply not there.
  EXPECT_EQ(get("/%zz").status, 400);
  EXPECT_EQ(get("/%4").status, 400);
  EXPECT_EQ(get("/../secret.txt").status, 404);
  EXPECT_EQ(get("/link_out_file").status, 404);
  EXPECT_EQ(get("/link_sibling/secret.txt").status, 404);
  // A link that stays inside is followed.
  EXPECT_EQ(get("/link_inside.html").body, "<!DOCTYPE html><p>a page</p>");
}

TEST_F(ServeSecurity, SpecialFilesAreNotFoundAndNeverBlock) {
  for (const std::string& target :
       std::vector<std::string>{"/fifo.html", "/link_fifo.html", "/link_device.html"}) {
    const auto began = Clock::now();
    const HttpReply reply = get(target);
    EXPECT_EQ(reply.status, 404) << target;
    EXPECT_LT(Clock::now() - began, 2s) << target;
  }
}

TEST(ServePaths, ContainmentIsDecidedOnWholeComponents) {
  EXPECT_TRUE(lies_within("/work/x/notebook", "/work/x/notebook"));
  EXPECT_TRUE(lies_within("/work/x/notebook", "/work/x/notebook/a/b.html"));
  EXPECT_FALSE(lies_within("/work/x/notebook", "/work/x/notebook-evil/secret.txt"));
  EXPECT_FALSE(lies_within("/work/x/notebook", "/work/x/notebookevil"));
  EXPECT_FALSE(lies_within("/work/x/notebook", "/work/x"));
  EXPECT_FALSE(lies_within("/work/x/notebook", "/etc/passwd"));
  EXPECT_EQ(decoded_target_path("/a%20b.html?token=x"), "/a b.html");
  EXPECT_EQ(decoded_target_path("/%2e%2e%2Fx"), "/../x");
  EXPECT_EQ(decoded_target_path("/%252e"), "/%2e");  // decoded once, not twice
  EXPECT_EQ(decoded_target_path("/%"), std::nullopt);
  EXPECT_EQ(decoded_target_path("/%g0"), std::nullopt);
  EXPECT_EQ(decoded_target_path("http://evil.example/"), std::nullopt);
  EXPECT_EQ(decoded_target_path("*"), std::nullopt);
}

// --- no state a request can change --------------------------------------------------------------

std::map<std::string, std::string> folder_state(const fs::path& folder) {
  std::map<std::string, std::string> state;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    const std::string name = fs::relative(entry.path(), folder).string();
    if (entry.is_symlink()) {
      state[name] = "-> " + fs::read_symlink(entry.path()).string();
    } else if (entry.is_regular_file()) {
      std::ifstream in(entry.path(), std::ios::binary);
      state[name] = std::string(std::istreambuf_iterator<char>(in), {});
    } else {
      state[name] = "(other)";
    }
  }
  return state;
}

TEST_F(ServeSecurity, NoRequestChangesAnything) {
  const auto before = folder_state(layout_.scratch.path);
  const std::string auth = "Authorization: token " + kToken + "\r\n";
  for (const std::string& method : std::vector<std::string>{"PUT", "POST", "DELETE", "PATCH"}) {
    for (const std::string& target :
         std::vector<std::string>{"/page.html", "/new.html", "/_events", "/sub/"}) {
      send_request(port_,
                   request_text(method, target, port_, auth + "Content-Length: 7\r\n") + "CHANGED");
    }
  }
  get("/page.html?token=x&write=1");
  EXPECT_EQ(folder_state(layout_.scratch.path), before);
  EXPECT_EQ(events_.published(), 0u);
}

// --- headers ------------------------------------------------------------------------------------

std::set<std::string> policy_directives(const std::string& policy) {
  std::set<std::string> directives;
  std::istringstream parts(policy);
  for (std::string part; std::getline(parts, part, ';');) {
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    if (!part.empty()) directives.insert(part);
  }
  return directives;
}

TEST_F(ServeSecurity, EveryResponseCarriesTheSafetyHeaders) {
  const std::map<std::string, std::string> types = {
      {"/page.html", "text/html; charset=utf-8"},
      {"/assets/notebook.js", "text/javascript; charset=utf-8"},
      {"/assets/notebook.css", "text/css; charset=utf-8"},
      {"/figure.svg", "image/svg+xml"},
      {"/picture.png", "image/png"},
      {"/data.json", "application/json"},
      {"/assets/font.woff2", "font/woff2"},
      {"/notes.txt", "text/plain; charset=utf-8"},
  };
  const auto page_policy = policy_directives(kContentSecurityPolicy);
  auto check_headers = [&](const HttpReply& reply, const std::string& what) {
    EXPECT_EQ(reply.header("x-content-type-options"), "nosniff") << what;
    EXPECT_EQ(reply.header("cache-control"), "no-store") << what;
    EXPECT_EQ(reply.header("referrer-policy"), "no-referrer") << what;
    EXPECT_EQ(reply.header("x-frame-options"), "DENY") << what;
    const auto served = policy_directives(reply.header("content-security-policy"));
    for (const std::string& directive : page_policy)
      EXPECT_TRUE(served.count(directive)) << what << ": the header lacks " << directive;
    EXPECT_TRUE(served.count("connect-src 'self'")) << what;
    EXPECT_EQ(reply.headers.count("content-security-policy"), 1u) << what;
  };
  for (const auto& [path, type] : types) {
    const HttpReply reply = get(path);
    EXPECT_EQ(reply.status, 200) << path;
    EXPECT_EQ(reply.header("content-type"), type) << path;
    check_headers(reply, path);
  }
  check_headers(get("/missing.html"), "a 404");
  check_headers(send_request(port_, request_text("GET", "/page.html", port_)), "a 403");
  check_headers(get("/page.html", "POST"), "a 405");
  check_headers(send_request(port_, "GET /\r\n\r\n"), "a 400");
}

// --- malformed and slow requests ----------------------------------------------------------------

TEST_F(ServeSecurity, BadRequestsGetAnErrorAndTheServerGoesOn) {
  const std::string auth = "Authorization: token " + kToken + "\r\n";
  const HttpReply long_uri = get("/" + std::string(10000, 'a'));
  EXPECT_EQ(long_uri.status, 414);
  const HttpReply long_header =
      send_request(port_, request_text("GET", "/page.html", port_,
                                       auth + "X-Long: " + std::string(10000, 'b') + "\r\n"));
  EXPECT_EQ(long_header.status, 400);
  std::string many_headers;
  for (int i = 0; i < 2000; ++i) many_headers += "X-H" + std::to_string(i) + ": value\r\n";
  const HttpReply too_many =
      send_request(port_, request_text("GET", "/page.html", port_, auth + many_headers));
  EXPECT_EQ(too_many.status, 400);  // more than ServeLimits::max_request_head_bytes
  const std::vector<std::string> garbage = {
      std::string("\x00\xff\xfe\r\n\r\n", 7),
      "GET\r\n\r\n",
      "GET / HTTP/9.9\r\n\r\n",
      "GET / HTTP/1.1 extra\r\n\r\n",
      "\r\n\r\n\r\n",
      "GET /page.html HTTP/1.1\nHost: 127.0.0.1\n\n",
      "GET /page.html?a?b HTTP/1.1\r\n\r\n",
      "GET /page.html HTTP/1.1\r\nRange: bytes=9-1\r\n" + auth + "\r\n",
      std::string(3000, 'A') + "\r\n\r\n",
  };
  for (const std::string& bytes : garbage) {
    const HttpReply reply = send_request(port_, bytes, 5s);
    EXPECT_NE(reply.status, 200) << bytes;
  }
  for (int i = 0; i < 20; ++i) {  // half requests, then gone
    RawConnection half("127.0.0.1", port_);
    half.send_bytes("GET /page.html HTTP/1.1\r\nHost: 127.0.0.1:");
  }
  const HttpReply after = get("/page.html");
  EXPECT_EQ(after.status, 200);
  EXPECT_EQ(after.body, "<!DOCTYPE html><p>a page</p>");
  // A Range is not honoured: the whole file comes, with 200.
  const HttpReply ranged =
      send_request(port_, request_text("GET", "/notes.txt", port_, auth + "Range: bytes=0-1\r\n"));
  EXPECT_EQ(ranged.status, 200);
  EXPECT_EQ(ranged.body, "plain text");
}

TEST_F(ServeSecurity, ASlowClientIsDroppedWithinItsDeadline) {
  ServeOptions options;
  options.limits.request_deadline = 1500ms;
  options.limits.read_timeout = 700ms;
  options.limits.keep_alive_timeout = 1000ms;
  start(options);
  // Slowloris: a byte of header every 300 ms, each well inside the read timeout.
  RawConnection trickle("127.0.0.1", port_);
  ASSERT_TRUE(trickle.send_bytes("GET /page.html HTTP/1.1\r\n"));
  const auto began = Clock::now();
  bool dropped = false;
  while (Clock::now() - began < 6s) {
    if (!trickle.send_bytes("X")) {
      dropped = true;
      break;
    }
    if (trickle.read_until_closed(300ms)) {
      dropped = true;
      break;
    }
  }
  const auto took = Clock::now() - began;
  EXPECT_TRUE(dropped);
  EXPECT_LT(took, 3500ms);
  // A client that connects and says nothing is dropped after the idle time.
  RawConnection silent("127.0.0.1", port_);
  const auto silent_began = Clock::now();
  EXPECT_TRUE(silent.read_until_closed(5s));
  EXPECT_LT(Clock::now() - silent_began, 3s);
  // Meanwhile and after, the server answers.
  EXPECT_EQ(get("/page.html").status, 200);
}

// Idle connections, and connections sending their head a byte at a time, hold no worker: with
// only 4 workers and 300 such connections open, an authorised request is answered within a second,
// again and again (tests/test_serve_load.cpp holds 1,000 against the default server).
TEST_F(ServeSecurity, IdleAndSlowConnectionsHoldNoWorker) {
  ServeOptions options;
  options.limits.worker_threads = 4;
  start(options);
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 300; ++i) {
    held.push_back(std::make_unique<RawConnection>("127.0.0.1", port_));
    ASSERT_TRUE(held.back()->connected());
    if (i % 3 == 1) held.back()->send_bytes("GET /page.html HTTP/1.1\r\nHost: 127.0.0.1:");
    if (i % 3 == 2) held.back()->send_bytes("GET /page.html HTTP/1.1\r\n" + std::string(4, 'X'));
  }
  for (int round = 0; round < 5; ++round) {
    for (std::size_t i = 0; i < held.size(); i += 3) held[i + 2]->send_bytes("X");  // trickle
    const auto began = Clock::now();
    const HttpReply reply = get("/page.html");
    const auto took = Clock::now() - began;
    EXPECT_EQ(reply.status, 200) << "round " << round;
    EXPECT_LT(took, 1s) << "round " << round;
  }
}

// At the cap on held connections the one idle longest is closed for a newcomer, so that the
// server keeps answering however many connections are opened.
TEST_F(ServeSecurity, AtTheCapTheConnectionIdleLongestIsClosed) {
  ServeOptions options;
  options.limits.max_held_connections = 50;
  start(options);
  std::vector<std::unique_ptr<RawConnection>> idle;
  for (int i = 0; i < 50; ++i) idle.push_back(std::make_unique<RawConnection>("127.0.0.1", port_));
  std::this_thread::sleep_for(200ms);  // all of them held
  RawConnection newcomer("127.0.0.1", port_);
  EXPECT_TRUE(idle.front()->read_until_closed(2s)) << "the oldest idle connection is kept";
  const HttpReply reply = get("/page.html");
  EXPECT_EQ(reply.status, 200);
  EXPECT_TRUE(newcomer.send_bytes(
      request_text("GET", "/notes.txt", port_, "Authorization: token " + kToken + "\r\n")));
  EXPECT_TRUE(newcomer.read_until("plain text", 2s)) << newcomer.received();
}

TEST_F(ServeSecurity, AKeptAliveConnectionServesSeveralRequestsInOrder) {
  RawConnection connection("127.0.0.1", port_);
  auto request = [&](const std::string& path, const std::string& more) {
    return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) +
           "\r\nAuthorization: token " + kToken + "\r\n" + more + "\r\n";
  };
  ASSERT_TRUE(connection.send_bytes(request("/notes.txt", "") + request("/data.json", "") +
                                    request("/page.html", "Connection: close\r\n")));
  EXPECT_TRUE(connection.read_until_closed(5s));
  const std::string& all = connection.received();
  const std::size_t first = all.find("plain text");
  const std::size_t second = all.find("{\"a\": 1}");
  const std::size_t third = all.find("<p>a page</p>");
  ASSERT_NE(third, std::string::npos) << all;
  EXPECT_LT(first, second);
  EXPECT_LT(second, third);
  std::size_t answers = 0;
  for (std::size_t at = all.find("HTTP/1.1 200"); at != std::string::npos;
       at = all.find("HTTP/1.1 200", at + 1))
    ++answers;
  EXPECT_EQ(answers, 3u);
}

}  // namespace
}  // namespace convlab
