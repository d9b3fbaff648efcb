#include "core/file_watch.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/file_io.hpp"

namespace convlab {
namespace {

// Waits for the descriptor to be readable; false when `timeout_ms` passed first (-1: no limit).
bool readable(int fd, int timeout_ms) {
  pollfd wait{fd, POLLIN, 0};
  for (;;) {
    const int ready = ::poll(&wait, 1, timeout_ms);
    if (ready >= 0) return ready > 0;
    if (errno != EINTR) return false;
  }
}

}  // namespace

FileWatch::FileWatch(const std::string& path) {
  const std::filesystem::path file(path);
  name_ = file.filename().string();
  const std::string folder = file.parent_path().empty() ? "." : file.parent_path().string();
  fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd_ < 0) throw FileError(path + ": cannot watch: " + std::strerror(errno));
  if (::inotify_add_watch(fd_, folder.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE) < 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd_);
    throw FileError(folder + ": cannot watch the folder of " + path + ": " + reason);
  }
}

FileWatch::~FileWatch() {
  ::close(fd_);
}

bool FileWatch::drain() {
  alignas(inotify_event) char buffer[16 * 1024];
  bool named = false;
  for (;;) {
    const ssize_t length = ::read(fd_, buffer, sizeof buffer);
    if (length <= 0) return named;  // EAGAIN: nothing more pending
    for (ssize_t at = 0; at < length;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      if (event->len > 0 && name_ == event->name) named = true;
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
}

void FileWatch::wait_for_save(int quiet_ms) {
  do {
    readable(fd_, -1);
  } while (!drain());
  wait_until_quiet(quiet_ms);
}

void FileWatch::wait_until_quiet(int quiet_ms) {
  while (readable(fd_, quiet_ms)) drain();
}

bool FileWatch::saved() {
  return readable(fd_, 0) && drain();
}

}  // namespace convlab
