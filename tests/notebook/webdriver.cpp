#include "webdriver.hpp"

#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace convlab::notebook_test {
namespace {

using nlohmann::json;

const char* const kElementKey = "element-6066-11e4-a52e-4f735466cecf";

std::string find_program(const std::vector<std::string>& names) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "/usr/bin:/bin");
  std::string folder;
  std::vector<std::string> list;
  while (std::getline(folders, folder, ':')) list.push_back(folder);
  for (const auto& name : names)
    for (const auto& dir : list) {
      const std::string candidate = dir + "/" + name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
  return "";
}

// A loopback port nothing listens on now.
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw BrowserUnavailable("no socket for chromedriver's port");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(fd);
    throw BrowserUnavailable("no free loopback port for chromedriver");
  }
  const int port = ntohs(address.sin_port);
  ::close(fd);
  return port;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string base64_decode(const std::string& text) {
  static const std::string alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned value = 0;
  int bits = -8;
  for (char c : text) {
    const size_t index = alphabet.find(c);
    if (index == std::string::npos) continue;  // padding and line breaks
    value = (value << 6) | static_cast<unsigned>(index);
    bits += 6;
    if (bits >= 0) {
      out += static_cast<char>((value >> bits) & 0xFF);
      bits -= 8;
    }
  }
  return out;
}

std::unique_ptr<Browser> Browser::start(int width, int height) {
  const std::string chromium = find_program({"chromium", "chromium-browser", "google-chrome"});
  const std::string driver = find_program({"chromedriver"});
  if (chromium.empty())
    throw BrowserUnavailable(
        "Chromium is not installed (scripts/install-deps.sh test installs it)");
  if (driver.empty())
    throw BrowserUnavailable(
        "chromedriver is not installed (scripts/install-deps.sh test installs chromium-driver)");
  std::unique_ptr<Browser> browser(new Browser());
  browser->width_ = width;
  browser->height_ = height;
  browser->port_ = free_port();
  // A temporary folder of the browser's own, removed with it: chromedriver and Chromium make
  // their profiles and scratch folders in TMPDIR and leave some of them behind after they quit
  // (a whole `make test` left a dozen, 13 MB, in /tmp).
  std::string folder = (std::filesystem::temp_directory_path() / "convlab-browser-XXXXXX").string();
  if (::mkdtemp(folder.data()) == nullptr)
    throw BrowserUnavailable("cannot make a temporary folder for the browser in " +
                             std::filesystem::temp_directory_path().string());
  browser->temp_folder_ = folder;
  browser->guard_ = std::make_unique<LeftoverGuard>(folder);
  browser->log_file_ = folder + "/chromedriver.log";
  // The environment is made before fork: the child may call only async-signal-safe functions.
  std::vector<std::string> variables{"TMPDIR=" + folder};
  for (char** entry = environ; *entry != nullptr; ++entry)
    if (std::string(*entry).rfind("TMPDIR=", 0) != 0) variables.emplace_back(*entry);
  std::vector<char*> envp;
  for (auto& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  const std::string port = "--port=" + std::to_string(browser->port_);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);  // a process group of its own, which Chromium joins
    if (!std::freopen(browser->log_file_.c_str(), "w", stdout) ||
        !std::freopen(browser->log_file_.c_str(), "a", stderr))
      ::_exit(127);
    ::execle(driver.c_str(), driver.c_str(), port.c_str(), "--allowed-ips=127.0.0.1",
             static_cast<char*>(nullptr), envp.data());
    ::_exit(127);
  }
  if (pid < 0) throw BrowserUnavailable("cannot start chromedriver");
  ::setpgid(pid, pid);  // as the child does: set before either goes on
  browser->driver_pid_ = pid;
  browser->guard_->stop_at_end(pid, true);
  // Ready within seconds, or not at all.
  httplib::Client client("127.0.0.1", browser->port_);
  client.set_connection_timeout(1);
  bool ready = false;
  for (int attempt = 0; attempt < 100 && !ready; ++attempt) {
    if (auto response = client.Get("/status"); response && response->status == 200)
      ready = json::parse(response->body, nullptr, false)
                  .value("value", json::object())
                  .value("ready", false);
    if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (!ready)
    throw BrowserUnavailable("chromedriver did not answer within 10 s: " +
                             read_file(browser->log_file_));
  const json capabilities = {
      {"capabilities",
       {{"alwaysMatch",
         {{"browserName", "chrome"},
          {"goog:chromeOptions",
           {{"binary", chromium},
            {"args",
             {"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--no-first-run", "--hide-scrollbars", "--force-device-scale-factor=1",
              "--window-size=" + std::to_string(width) + "," + std::to_string(height)}}}},
          {"goog:loggingPrefs", {{"browser", "ALL"}, {"performance", "ALL"}}}}}}}};
  try {
    const json value = browser->call("POST", "/session", capabilities);
    browser->session_ = value.value("sessionId", "");
  } catch (const WebDriverError& error) {
    throw BrowserUnavailable(std::string("Chromium did not start under chromedriver: ") +
                             error.what());
  }
  if (browser->session_.empty()) throw BrowserUnavailable("chromedriver gave no session");
  return browser;
}

Browser::~Browser() {
  if (!session_.empty()) {
    try {
      call("DELETE", "/session/" + session_);
    } catch (const std::exception&) {
      // The process is stopped below either way.
    }
  }
  if (driver_pid_ > 0) {
    ::kill(driver_pid_, SIGTERM);
    int status = 0;
    ::waitpid(driver_pid_, &status, 0);
  }
  guard_.reset();  // Chromium's processes that outlived chromedriver, and the folder
  std::error_code ignored;
  if (!temp_folder_.empty()) std::filesystem::remove_all(temp_folder_, ignored);
}

json Browser::call(const std::string& method, const std::string& path, const json& body) {
  httplib::Client client("127.0.0.1", port_);
  client.set_read_timeout(60);
  httplib::Result response =
      method == "GET" ? client.Get(path.c_str())
      : method == "DELETE"
          ? client.Delete(path.c_str())
          : client.Post(path.c_str(), body.is_null() ? "{}" : body.dump(), "application/json");
  if (!response) throw WebDriverError(method + " " + path + ": no answer from chromedriver");
  const json reply = json::parse(response->body, nullptr, false);
  if (reply.is_discarded()) throw WebDriverError(method + " " + path + ": " + response->body);
  const json value = reply.value("value", json());
  if (response->status != 200) {
    const std::string error = value.is_object() ? value.value("error", "") : "";
    const std::string message = value.is_object() ? value.value("message", "") : response->body;
    throw WebDriverError(method + " " + path + ": " + error + ": " + message.substr(0, 600));
  }
  return value;
}

void Browser::open(const std::string& url) {
  call("POST", "/session/" + session_ + "/url", {{"url", url}});
}

json Browser::execute(const std::string& script, const json& arguments) {
  return call("POST", "/session/" + session_ + "/execute/sync",
              {{"script", script}, {"args", arguments}});
}

std::string Browser::find(const std::string& css) {
  const json value = call("POST", "/session/" + session_ + "/element",
                          {{"using", "css selector"}, {"value", css}});
  return value.at(kElementKey).get<std::string>();
}

std::vector<std::string> Browser::find_all(const std::string& css) {
  const json value = call("POST", "/session/" + session_ + "/elements",
                          {{"using", "css selector"}, {"value", css}});
  std::vector<std::string> elements;
  for (const auto& element : value) elements.push_back(element.at(kElementKey).get<std::string>());
  return elements;
}

json Browser::element_argument(const std::string& element) const {
  return {{kElementKey, element}};
}

void Browser::click(const std::string& element) {
  execute("arguments[0].scrollIntoView({block: 'center'});",
          json::array({element_argument(element)}));
  call("POST", "/session/" + session_ + "/element/" + element + "/click", json::object());
}

void Browser::hover(const std::string& element) {
  execute("arguments[0].scrollIntoView({block: 'center'});",
          json::array({element_argument(element)}));
  const json actions = {{"actions",
                         {{{"type", "pointer"},
                           {"id", "mouse"},
                           {"parameters", {{"pointerType", "mouse"}}},
                           {"actions",
                            {{{"type", "pointerMove"},
                              {"duration", 0},
                              {"origin", element_argument(element)},
                              {"x", 0},
                              {"y", 0}}}}}}}};
  call("POST", "/session/" + session_ + "/actions", actions);
}

void Browser::type(const std::string& element, const std::string& text) {
  call("POST", "/session/" + session_ + "/element/" + element + "/value", {{"text", text}});
}

std::vector<LogEntry> Browser::console_log() {
  std::vector<LogEntry> entries;
  for (const auto& entry : call("POST", "/session/" + session_ + "/se/log", {{"type", "browser"}}))
    entries.push_back({entry.value("level", ""), entry.value("message", "")});
  return entries;
}

std::vector<std::string> Browser::requested_urls() {
  std::vector<std::string> urls;
  for (const auto& entry :
       call("POST", "/session/" + session_ + "/se/log", {{"type", "performance"}})) {
    const json message = json::parse(entry.value("message", "{}"), nullptr, false);
    if (message.is_discarded()) continue;
    const json& inner = message.value("message", json::object());
    if (inner.value("method", "") != "Network.requestWillBeSent") continue;
    urls.push_back(inner["params"]["request"].value("url", ""));
  }
  return urls;
}

std::string Browser::screenshot_png() {
  return base64_decode(call("GET", "/session/" + session_ + "/screenshot").get<std::string>());
}

std::string Browser::element_screenshot_png(const std::string& element) {
  return base64_decode(call("GET", "/session/" + session_ + "/element/" + element + "/screenshot")
                           .get<std::string>());
}

void Browser::resize(int width, int height) {
  call("POST", "/session/" + session_ + "/window/rect", {{"width", width}, {"height", height}});
}

std::string Browser::page_screenshot_png() {
  const json size = execute(
      "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight];");
  const int height = std::min(16000, size[1].get<int>() + 120);
  resize(width_, height);
  execute("window.scrollTo(0, 0);");
  const std::string png = screenshot_png();
  resize(width_, height_);
  return png;
}

}  // namespace convlab::notebook_test
