// A small WebDriver client for the browser tests: starts chromedriver on a free loopback port,
// opens a headless Chromium session and speaks the W3C WebDriver protocol (HTTP and JSON, through
// Debian's cpp-httplib): navigate, find, click, hover, run a script, read the browser's console
// and network log, take screenshots. BrowserUnavailable says why a browser could not be had, so a
// test can skip with that reason.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "leftover_guard.hpp"

namespace convlab::notebook_test {

class BrowserUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class WebDriverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LogEntry {
  std::string level;  // SEVERE, WARNING, INFO, ...
  std::string message;
};

class Browser {
 public:
  // Throws BrowserUnavailable when chromium or chromedriver is missing or will not start.
  static std::unique_ptr<Browser> start(int width = 1280, int height = 1000);
  ~Browser();
  Browser(const Browser&) = delete;
  Browser& operator=(const Browser&) = delete;

  void open(const std::string& url);
  // Runs `script` in the page (a function body; arguments as `arguments[i]`) and returns its
  // value. Elements are passed and returned as {"element-6066-...": id} objects.
  nlohmann::json execute(const std::string& script,
                         const nlohmann::json& arguments = nlohmann::json::array());
  std::string find(const std::string& css);  // throws WebDriverError when there is none
  std::vector<std::string> find_all(const std::string& css);
  nlohmann::json element_argument(const std::string& element) const;
  void click(const std::string& element);
  // Scrolls the element into view and moves the pointer to its centre.
  void hover(const std::string& element);
  void type(const std::string& element, const std::string& text);
  std::vector<LogEntry> console_log();        // entries since the last call
  std::vector<std::string> requested_urls();  // every URL the page asked for, since the last call
  std::string screenshot_png();               // the viewport
  std::string element_screenshot_png(const std::string& element);
  // The whole page: the window grown to the document's height for one screenshot.
  std::string page_screenshot_png();
  void resize(int width, int height);

 private:
  Browser() = default;
  nlohmann::json call(const std::string& method, const std::string& path,
                      const nlohmann::json& body = nullptr);

  int port_ = 0;
  int driver_pid_ = -1;
  std::string session_;
  std::string temp_folder_;  // TMPDIR of chromedriver and Chromium; holds log_file_
  // Stops chromedriver's process group (Chromium is in it) and removes temp_folder_ however the
  // test ends.
  std::unique_ptr<LeftoverGuard> guard_;
  std::string log_file_;
  int width_ = 1280, height_ = 1000;
};

// PNG bytes from base64.
std::string base64_decode(const std::string& text);

}  // namespace convlab::notebook_test
