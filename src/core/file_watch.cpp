#include "core/file_watch.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "core/file_io.hpp"

namespace convlab {
namespace {

constexpr uint32_t kSaveEvents = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE;

// Waits for the descriptor to be readable; false when `timeout_ms` passed first (-1: no limit).
bool readable(int fd, int timeout_ms) {
  pollfd wait{fd, POLLIN, 0};
  for (;;) {
    const int ready = ::poll(&wait, 1, timeout_ms);
    if (ready >= 0) return ready > 0;
    if (errno != EINTR) return false;
  }
}

std::string folder_of(const std::filesystem::path& file) {
  return file.parent_path().empty() ? "." : file.parent_path().string();
}

}  // namespace

FileWatch::FileWatch(const std::string& path) {
  fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd_ < 0) throw FileError(path + ": cannot watch: " + std::strerror(errno));
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  const std::vector<std::string> problems = watch({path});
  if (!problems.empty() || wake_fd_ < 0) {
    const std::string problem =
        problems.empty() ? path + ": cannot watch: " + std::strerror(errno) : problems.front();
    ::close(fd_);
    if (wake_fd_ >= 0) ::close(wake_fd_);
    throw FileError(problem);
  }
}

FileWatch::~FileWatch() {
  ::close(fd_);
  ::close(wake_fd_);
}

void FileWatch::wake() {
  const std::uint64_t one = 1;
  // A counter that is already readable stays so; nothing is lost when this write fails.
  [[maybe_unused]] const ssize_t written = ::write(wake_fd_, &one, sizeof one);
}

std::vector<std::string> FileWatch::watch(const std::vector<std::string>& paths) {
  std::vector<std::string> problems;
  std::map<int, std::map<std::string, std::string>> watched;
  files_.clear();
  for (const std::string& path : paths) {
    if (std::find(files_.begin(), files_.end(), path) != files_.end()) continue;
    const std::filesystem::path file(path);
    const std::string folder = folder_of(file);
    // The same folder, however it is spelt, gives the descriptor it already has.
    const int descriptor = ::inotify_add_watch(fd_, folder.c_str(), kSaveEvents);
    if (descriptor < 0) {
      problems.push_back(folder + ": cannot watch the folder of " + path + ": " +
                         std::strerror(errno));
      continue;
    }
    watched[descriptor].emplace(file.filename().string(), path);
    files_.push_back(path);
  }
  for (const auto& [descriptor, names] : watched_)
    if (!watched.count(descriptor)) ::inotify_rm_watch(fd_, descriptor);
  watched_ = std::move(watched);
  return problems;
}

void FileWatch::drain(std::set<std::string>& named) {
  alignas(inotify_event) char buffer[16 * 1024];
  for (;;) {
    const ssize_t length = ::read(fd_, buffer, sizeof buffer);
    if (length <= 0) return;  // EAGAIN: nothing more pending
    for (ssize_t at = 0; at < length;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      if (event->mask & IN_Q_OVERFLOW) {
        // Events were lost: any file may have been saved.
        named.insert(files_.begin(), files_.end());
        continue;
      }
      const auto folder = watched_.find(event->wd);
      if (event->len == 0 || folder == watched_.end()) continue;  // a folder let go of
      const auto file = folder->second.find(event->name);
      if (file != folder->second.end()) named.insert(file->second);
    }
  }
}

std::vector<std::string> FileWatch::in_order(const std::set<std::string>& named) const {
  std::vector<std::string> ordered;
  for (const std::string& file : files_)
    if (named.count(file)) ordered.push_back(file);
  return ordered;
}

std::vector<std::string> FileWatch::wait_for_save(int quiet_ms) {
  std::set<std::string> named;
  while (named.empty()) {
    pollfd waits[2] = {{fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    if (::poll(waits, 2, -1) < 0 && errno != EINTR) break;
    if (waits[1].revents & POLLIN) {
      std::uint64_t count = 0;
      [[maybe_unused]] const ssize_t taken = ::read(wake_fd_, &count, sizeof count);
      drain(named);
      if (named.empty()) return {};
      break;
    }
    drain(named);
  }
  while (readable(fd_, quiet_ms)) drain(named);
  return in_order(named);
}

std::vector<std::string> FileWatch::wait_until_quiet(int quiet_ms) {
  std::set<std::string> named;
  while (readable(fd_, quiet_ms)) drain(named);
  return in_order(named);
}

std::vector<std::string> FileWatch::saved() {
  std::set<std::string> named;
  if (readable(fd_, 0)) drain(named);
  return in_order(named);
}

}  // namespace convlab
