#include "core/standard_output.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <mutex>
#include <streambuf>

namespace convlab {
namespace {

// Unbuffered as std::streambuf sees it (every character reaches overflow or xsputn), so that the
// lock covers every change to the buffer.
class CheckedOutputBuffer : public std::streambuf {
 public:
  explicit CheckedOutputBuffer(int fd) : fd_(fd), line_buffered_(::isatty(fd) == 1) {}

  std::optional<std::string> finish() {
    const std::lock_guard<std::mutex> lock(mutex_);
    write_out();
    if (error_ == 0) return std::nullopt;
    return std::string("write error: ") + std::strerror(error_);
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char byte = traits_type::to_char_type(c);
    return xsputn(&byte, 1) == 1 ? c : traits_type::eof();
  }

  std::streamsize xsputn(const char* data, std::streamsize size) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (error_ != 0) return 0;
    pending_.append(data, static_cast<std::size_t>(size));
    const bool line_done = line_buffered_ && std::memchr(data, '\n', size) != nullptr;
    if (line_done || pending_.size() >= kCapacity) write_out();
    return error_ == 0 ? size : 0;
  }

  int sync() override {
    const std::lock_guard<std::mutex> lock(mutex_);
    write_out();
    return error_ == 0 ? 0 : -1;
  }

 private:
  static constexpr std::size_t kCapacity = 1 << 16;

  void write_out() {
    std::size_t done = 0;
    while (error_ == 0 && done < pending_.size()) {
      const ssize_t n = ::write(fd_, pending_.data() + done, pending_.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {  // inherited non-blocking
        pollfd ready{fd_, POLLOUT, 0};
        ::poll(&ready, 1, -1);
        continue;
      }
      if (n <= 0)
        error_ = n < 0 ? errno : EIO;
      else
        done += static_cast<std::size_t>(n);
    }
    pending_.clear();
  }

  int fd_;
  bool line_buffered_;
  std::mutex mutex_;
  std::string pending_;
  int error_ = 0;
};

CheckedOutputBuffer* checked_buffer = nullptr;

}  // namespace

void use_checked_standard_output() {
  if (checked_buffer != nullptr) return;
  std::cout.flush();
  checked_buffer = new CheckedOutputBuffer(STDOUT_FILENO);  // lives until the process ends
  std::cout.rdbuf(checked_buffer);
}

std::optional<std::string> finish_standard_output() {
  std::cout.flush();
  if (checked_buffer == nullptr) return std::nullopt;
  return checked_buffer->finish();
}

}  // namespace convlab
