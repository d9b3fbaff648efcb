#include "user_kernels/kernel_host_channel.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace convlab {
namespace {

constexpr int kMaxFds = 4;
constexpr int kReadOnlySeals = F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;

void send_all(int socket, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t sent = ::send(socket, data, size, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) throw ChannelClosed(std::string("kernel host channel: ") + std::strerror(errno));
    data += sent;
    size -= static_cast<std::size_t>(sent);
  }
}

// Waits until `socket` is readable or the deadline passes.
void wait_readable(int socket, std::chrono::steady_clock::time_point deadline, bool forever) {
  for (;;) {
    int wait_ms = -1;
    if (!forever) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) throw ChannelTimeout("no answer in time");
      wait_ms = static_cast<int>(std::min<long long>(left.count(), 1 << 30));
    }
    pollfd entry{socket, POLLIN, 0};
    const int ready = ::poll(&entry, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) throw ChannelClosed(std::string("kernel host channel: ") + std::strerror(errno));
    if (ready > 0) return;
  }
}

// Reads exactly `size` bytes; the first read takes the descriptors sent with them.
void receive_all(int socket, char* data, std::size_t size, std::vector<int>* fds,
                 std::chrono::steady_clock::time_point deadline, bool forever) {
  while (size > 0) {
    wait_readable(socket, deadline, forever);
    iovec io{data, size};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
    msghdr header{};
    header.msg_iov = &io;
    header.msg_iovlen = 1;
    if (fds != nullptr) {
      header.msg_control = control;
      header.msg_controllen = sizeof control;
    }
    const ssize_t got = ::recvmsg(socket, &header, MSG_CMSG_CLOEXEC);
    if (got < 0 && errno == EINTR) continue;
    if (got == 0) throw ChannelClosed("the kernel host closed its channel");
    if (got < 0) throw ChannelClosed(std::string("kernel host channel: ") + std::strerror(errno));
    if (fds != nullptr) {
      for (cmsghdr* c = CMSG_FIRSTHDR(&header); c != nullptr; c = CMSG_NXTHDR(&header, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
          const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
          const int* received = reinterpret_cast<const int*>(CMSG_DATA(c));
          fds->insert(fds->end(), received, received + count);
        }
      fds = nullptr;
    }
    data += got;
    size -= static_cast<std::size_t>(got);
  }
}

}  // namespace

void send_message(int socket, const nlohmann::json& body, const std::vector<int>& fds) {
  const std::string text = body.dump();
  const std::uint32_t length = static_cast<std::uint32_t>(text.size());
  iovec io{const_cast<std::uint32_t*>(&length), sizeof length};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  msghdr header{};
  header.msg_iov = &io;
  header.msg_iovlen = 1;
  if (!fds.empty()) {
    header.msg_control = control;
    header.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* c = CMSG_FIRSTHDR(&header);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  ssize_t sent;
  do {
    sent = ::sendmsg(socket, &header, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  if (sent != static_cast<ssize_t>(sizeof length))
    throw ChannelClosed(std::string("kernel host channel: ") + std::strerror(errno));
  send_all(socket, text.data(), text.size());
}

ChannelMessage receive_message(int socket, int timeout_ms) {
  const bool forever = timeout_ms < 0;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(forever ? 0 : timeout_ms);
  ChannelMessage message;
  std::uint32_t length = 0;
  receive_all(socket, reinterpret_cast<char*>(&length), sizeof length, &message.fds, deadline,
              forever);
  if (length > kMaxChannelMessageBytes) throw ChannelClosed("kernel host message too large");
  std::string text(length, '\0');
  receive_all(socket, text.data(), length, nullptr, deadline, forever);
  message.body = nlohmann::json::parse(text, nullptr, false);
  if (message.body.is_discarded() || !message.body.is_object())
    throw ChannelClosed("kernel host message is not a JSON object");
  return message;
}

SharedBuffer::SharedBuffer(std::size_t bytes, const char* name) : size_(bytes) {
  fd_ = ::memfd_create(name, MFD_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  if (::ftruncate(fd_, static_cast<off_t>(std::max<std::size_t>(bytes, 1))) != 0) {
    const int error = errno;
    release();
    throw std::runtime_error(std::string("shared buffer of ") + std::to_string(bytes) +
                             " bytes: " + std::strerror(error));
  }
  data_ =
      ::mmap(nullptr, std::max<std::size_t>(bytes, 1), PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (data_ == MAP_FAILED) {
    data_ = nullptr;
    const int error = errno;
    release();
    throw std::runtime_error(std::string("mmap: ") + std::strerror(error));
  }
}

SharedBuffer SharedBuffer::adopt(int fd, std::size_t bytes, bool writable) {
  SharedBuffer buffer;
  buffer.fd_ = fd;
  buffer.size_ = bytes;
  const int protection = PROT_READ | (writable ? PROT_WRITE : 0);
  buffer.data_ = ::mmap(nullptr, std::max<std::size_t>(bytes, 1), protection, MAP_SHARED, fd, 0);
  if (buffer.data_ == MAP_FAILED) {
    buffer.data_ = nullptr;
    throw std::runtime_error(std::string("mmap of a shared buffer: ") + std::strerror(errno));
  }
  return buffer;
}

SharedBuffer::~SharedBuffer() {
  release();
}

SharedBuffer::SharedBuffer(SharedBuffer&& other) noexcept
    : fd_(other.fd_), data_(other.data_), size_(other.size_) {
  other.fd_ = -1;
  other.data_ = nullptr;
  other.size_ = 0;
}

SharedBuffer& SharedBuffer::operator=(SharedBuffer&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = other.fd_;
    data_ = other.data_;
    size_ = other.size_;
    other.fd_ = -1;
    other.data_ = nullptr;
    other.size_ = 0;
  }
  return *this;
}

void SharedBuffer::release() {
  if (data_ != nullptr) ::munmap(data_, std::max<std::size_t>(size_, 1));
  if (fd_ >= 0) ::close(fd_);
  data_ = nullptr;
  fd_ = -1;
}

SealedBuffer::SealedBuffer(const void* data, std::size_t bytes, const char* name) {
  fd_ = ::memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  const auto fail = [this, name](const std::string& what) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error(std::string("sealed copy (") + name + "): " + what + ": " +
                             std::strerror(error));
  };
  // Written through the descriptor, never mapped writable here: F_SEAL_WRITE refuses a file
  // that has a writable shared mapping.
  if (::ftruncate(fd_, static_cast<off_t>(std::max<std::size_t>(bytes, 1))) != 0) fail("ftruncate");
  const char* from = static_cast<const char*>(data);
  for (std::size_t done = 0; done < bytes;) {
    const ssize_t wrote = ::pwrite(fd_, from + done, bytes - done, static_cast<off_t>(done));
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) fail("write");
    done += static_cast<std::size_t>(wrote);
  }
  if (::fcntl(fd_, F_ADD_SEALS, kReadOnlySeals) != 0) fail("F_ADD_SEALS");
}

SealedBuffer::~SealedBuffer() {
  if (fd_ >= 0) ::close(fd_);
}

bool sealed_against_writes(int fd) {
  const int seals = ::fcntl(fd, F_GET_SEALS);
  return seals >= 0 && (seals & kReadOnlySeals) == kReadOnlySeals;
}

}  // namespace convlab
