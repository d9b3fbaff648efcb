// The channel between convlab and a kernel host process (kernel_host.hpp): messages are JSON
// objects, each sent as a 4-byte length and its text over a Unix stream socket, and may carry
// file descriptors (shared memory holding the image and the output) alongside (SCM_RIGHTS).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace convlab {

// The other end closed the channel (the process ended) or a message could not be read.
class ChannelClosed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// No message arrived within the time asked.
class ChannelTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ChannelMessage {
  nlohmann::json body;
  std::vector<int> fds;  // received descriptors; the receiver owns and closes them
};

inline constexpr std::size_t kMaxChannelMessageBytes = 64u << 20;

// Sends `body` with `fds` (at most 4); throws ChannelClosed when the other end is gone.
void send_message(int socket, const nlohmann::json& body, const std::vector<int>& fds = {});
// Waits at most `timeout_ms` (negative: for ever) for the next message.
ChannelMessage receive_message(int socket, int timeout_ms = -1);

// A shared-memory file of `bytes` bytes (memfd), mapped read-write here; unmapped and closed
// when destroyed.
class SharedBuffer {
 public:
  SharedBuffer() = default;
  explicit SharedBuffer(std::size_t bytes, const char* name);
  // Maps a descriptor received from the other process (taking it over).
  static SharedBuffer adopt(int fd, std::size_t bytes, bool writable);
  ~SharedBuffer();
  SharedBuffer(SharedBuffer&& other) noexcept;
  SharedBuffer& operator=(SharedBuffer&& other) noexcept;
  SharedBuffer(const SharedBuffer&) = delete;
  SharedBuffer& operator=(const SharedBuffer&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return size_; }
  int fd() const { return fd_; }

 private:
  void release();
  int fd_ = -1;
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

// A copy of `bytes` bytes in a memfd sealed against every change (F_SEAL_WRITE, F_SEAL_SHRINK,
// F_SEAL_GROW, then F_SEAL_SEAL): a process it is sent to can map it only for reading, and
// mprotect cannot make that mapping writable (EACCES), so no kernel can change the input another
// point reads. Nothing maps it here; closed when destroyed.
class SealedBuffer {
 public:
  SealedBuffer(const void* data, std::size_t bytes, const char* name);
  ~SealedBuffer();
  SealedBuffer(const SealedBuffer&) = delete;
  SealedBuffer& operator=(const SealedBuffer&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

// Whether `fd` is a memfd sealed as SealedBuffer seals it (checked where it is received).
bool sealed_against_writes(int fd);

}  // namespace convlab
