#include "core/file_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>

namespace convlab {
namespace {

std::string reason(int code) {
  return std::strerror(code);
}

[[noreturn]] void refuse(const std::string& path, mode_t mode, const std::string& advice) {
  throw FileError(path + ": is " + file_kind_words(mode) + advice);
}

std::string temporary_name(const std::string& path) {
  std::random_device entropy;
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".%ld.%08x.tmp", static_cast<long>(::getpid()), entropy());
  return path + suffix;
}

// Writes every byte, retrying interrupted and partial writes; a descriptor left non-blocking by
// whoever opened it is waited on rather than taken for an error. Returns 0 or the errno.
int write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd ready{fd, POLLOUT, 0};
      ::poll(&ready, 1, -1);
      continue;
    }
    if (n < 0) return errno;
    if (n == 0) return EIO;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return 0;
}

// Cuts the file back to `size` bytes, retrying when interrupted. Returns 0 or the errno.
int truncate_to(int fd, off_t size) {
  while (::ftruncate(fd, size) != 0)
    if (errno != EINTR) return errno;
  return 0;
}

// Opens what `path` names for reading without blocking, and checks once open that it is a regular
// file: the path may have been replaced since it was looked at.
int open_regular_for_reading(const std::string& path, Links links) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
                                          (links == Links::refuse ? O_NOFOLLOW : 0));
  if (fd < 0) {
    if (errno == ELOOP && links == Links::refuse) refuse(path, S_IFLNK, ", not a regular file");
    throw FileError(path + ": cannot read (" + reason(errno) + ")");
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw FileError(path + ": is not a regular file");
  }
  return fd;
}

const char* const kOwnedAdvice = ", where convlab keeps a regular file of its own; move it away";

std::string mebibytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g MiB", static_cast<double>(bytes) / double(1 << 20));
  return text;
}

}  // namespace

std::string file_kind_words(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

namespace {

// What stands at `path`: false when nothing; a FileError when it is not a regular file.
bool look_before_reading(const std::string& path, Links links, struct stat& info) {
  const int looked =
      links == Links::refuse ? ::lstat(path.c_str(), &info) : ::stat(path.c_str(), &info);
  if (looked != 0) {
    if (errno == ENOENT) return false;
    throw FileError(path + ": cannot read (" + reason(errno) + ")");
  }
  if (!S_ISREG(info.st_mode)) refuse(path, info.st_mode, ", not a regular file");
  return true;
}

}  // namespace

int open_regular_file(const std::string& path, Links links) {
  struct stat info {};
  if (!look_before_reading(path, links, info))
    throw FileError(path + ": cannot read (" + reason(ENOENT) + ")");
  return open_regular_for_reading(path, links);
}

std::optional<std::string> read_file_if_present(const std::string& path, std::size_t max_bytes,
                                                Links links) {
  struct stat info {};
  if (!look_before_reading(path, links, info)) return std::nullopt;
  if (static_cast<std::size_t>(info.st_size) > max_bytes)
    throw FileError(path + ": is larger than " + mebibytes(max_bytes) + "; not read");
  const int fd = open_regular_for_reading(path, links);
  DescriptorRead read = read_descriptor(fd, max_bytes);
  ::close(fd);
  if (read.error != 0) throw FileError(path + ": cannot read (" + reason(read.error) + ")");
  if (read.too_large)  // it grew while being read
    throw FileError(path + ": is larger than " + mebibytes(max_bytes) + "; not read");
  return std::move(read.bytes);
}

ssize_t read_some(int fd, char* into, std::size_t size) {
  ssize_t got;
  do {
    got = ::read(fd, into, size);
  } while (got < 0 && errno == EINTR);
  return got;
}

DescriptorRead read_descriptor(int fd, std::size_t max_bytes) {
  DescriptorRead read;
  // A file's size is known: its bytes get one allocation, not a doubling string's (which holds up
  // to three times the file while it grows).
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0 &&
      static_cast<std::uint64_t>(info.st_size) <= max_bytes)
    read.bytes.reserve(static_cast<std::size_t>(info.st_size) + 1);
  char chunk[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      read.error = errno;
      return read;
    }
    if (n == 0) return read;
    read.bytes.append(chunk, static_cast<std::size_t>(n));
    if (read.bytes.size() > max_bytes) {
      read.too_large = true;
      return read;
    }
  }
}

std::string read_file(const std::string& path, std::size_t max_bytes, Links links) {
  auto bytes = read_file_if_present(path, max_bytes, links);
  if (!bytes) throw FileError(path + ": cannot read (" + reason(ENOENT) + ")");
  return std::move(*bytes);
}

bool file_holds(const std::string& path, std::string_view content) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode) ||
      static_cast<std::size_t>(info.st_size) != content.size())
    return false;
  int fd = -1;
  try {
    fd = open_regular_for_reading(path, Links::follow);
  } catch (const FileError&) {
    return false;
  }
  std::string bytes(content.size() + 1, '\0');  // one more, to notice a file that grew
  std::size_t have = 0;
  while (have < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + have, bytes.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    have += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return have == content.size() && std::string_view(bytes.data(), have) == content;
}

AtomicFile::AtomicFile(std::string path, WriteTarget target, Durability durability)
    : path_(std::move(path)), final_path_(path_), durability_(durability) {
  struct stat info {};
  if (::lstat(path_.c_str(), &info) != 0) {
    if (errno != ENOENT) throw FileError(path_ + ": write error: " + reason(errno));
    info.st_mode = 0;  // nothing there
  } else if (target == WriteTarget::owned) {
    if (!S_ISREG(info.st_mode)) refuse(path_, info.st_mode, kOwnedAdvice);
  } else if (S_ISLNK(info.st_mode)) {
    if (::stat(path_.c_str(), &info) != 0)
      throw FileError(path_ + ": is a symbolic link to nothing (" + reason(errno) + ")");
    if (S_ISREG(info.st_mode)) {
      char resolved[PATH_MAX];
      if (::realpath(path_.c_str(), resolved) == nullptr)
        throw FileError(path_ + ": write error: " + reason(errno));
      final_path_ = resolved;
    }
  }
  if (S_ISDIR(info.st_mode)) refuse(path_, info.st_mode, "; name a file");
  if (S_ISSOCK(info.st_mode)) refuse(path_, info.st_mode, "; name a file");
  if (S_ISFIFO(info.st_mode) || S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) {
    // Written straight through, never read: O_NONBLOCK makes a FIFO nobody reads fail at once
    // (ENXIO) instead of waiting for a reader.
    fd_ = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0 && errno == ENXIO)
      throw FileError(path_ + ": is a FIFO that no process reads; nothing was written");
    if (fd_ < 0) throw FileError(path_ + ": write error: " + reason(errno));
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    return;
  }
  temporary_ = temporary_name(final_path_);
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    const int code = errno;
    temporary_.clear();
    throw FileError(path_ + ": write error: " + reason(code));
  }
  // The file that is replaced keeps its permissions.
  if (S_ISREG(info.st_mode)) ::fchmod(fd_, info.st_mode & 07777);
}

AtomicFile::~AtomicFile() {
  close_descriptor();
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

void AtomicFile::close_descriptor() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void AtomicFile::fail(const std::string& what, int code) {
  close_descriptor();
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  temporary_.clear();
  throw FileError(path_ + ": " + what + ": " + reason(code));
}

void AtomicFile::write(const void* data, std::size_t size) {
  if (fd_ < 0) throw FileError(path_ + ": write error: the file is closed");
  if (const int code = write_all(fd_, static_cast<const char*>(data), size))
    fail("write error", code);
}

void AtomicFile::commit() {
  if (fd_ < 0) throw FileError(path_ + ": write error: the file is closed");
  if (!temporary_.empty() && durability_ == Durability::on_disk && ::fsync(fd_) != 0)
    fail("write error", errno);
  const int fd = fd_;
  fd_ = -1;
  // Linux releases the descriptor also when close is interrupted; other errors (NFS, quotas) mean
  // the data did not arrive.
  if (::close(fd) != 0 && errno != EINTR) fail("write error", errno);
  if (temporary_.empty()) return;
  if (std::rename(temporary_.c_str(), final_path_.c_str()) != 0) fail("write error", errno);
  temporary_.clear();
  if (durability_ == Durability::on_disk) flush_folder_of(final_path_);
}

void write_file(const std::string& path, std::string_view content, WriteTarget target,
                Durability durability) {
  AtomicFile file(path, target, durability);
  file.write(content);
  file.commit();
}

bool write_file_if_changed(const std::string& path, std::string_view content, WriteTarget target) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (!folder.empty()) create_folders(folder.string());
  struct stat info {};
  const bool regular =
      ::lstat(path.c_str(), &info) == 0 &&
      (S_ISREG(info.st_mode) || (target == WriteTarget::named && S_ISLNK(info.st_mode)));
  if (regular && file_holds(path, content)) return false;
  write_file(path, content, target);
  return true;
}

AppendFile::AppendFile(std::string path) : path_(std::move(path)) {
  struct stat info {};
  if (::lstat(path_.c_str(), &info) == 0) {
    if (!S_ISREG(info.st_mode)) refuse(path_, info.st_mode, kOwnedAdvice);
  } else if (errno == ENOENT) {
    created_ = true;
  } else {
    throw FileError(path_ + ": write error: " + reason(errno));
  }
  fd_ = ::open(path_.c_str(), O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
               0666);
  if (fd_ < 0 && errno == ELOOP) refuse(path_, S_IFLNK, "; move it away (nothing was written)");
  if (fd_ < 0) throw FileError(path_ + ": write error: " + reason(errno));
  if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw FileError(path_ + ": is not a regular file; move it away (nothing was written)");
  }
}

AppendFile::~AppendFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<char> AppendFile::last_byte() const {
  struct stat info {};
  char last = 0;
  if (fd_ < 0 || ::fstat(fd_, &info) != 0 || info.st_size == 0 ||
      ::pread(fd_, &last, 1, info.st_size - 1) != 1)
    return std::nullopt;
  return last;
}

void AppendFile::write(std::string_view text) {
  if (fd_ < 0) throw FileError(path_ + ": write error: the file is closed");
  struct stat before {};
  const bool sized = ::fstat(fd_, &before) == 0;
  if (const int code = write_all(fd_, text.data(), text.size())) {
    // The write failed already: cutting the file back to its size before it, so that no partial
    // line stays behind, is a best effort. Where it cannot be done the message says so.
    std::string undone;
    if (!sized)
      undone = "; a partial line may stay at its end";
    else if (const int cut = truncate_to(fd_, before.st_size))
      undone = "; a partial line may stay at its end (cutting it back: " + reason(cut) + ")";
    throw FileError(path_ + ": write error: " + reason(code) + undone);
  }
}

void AppendFile::flush_to_disk() {
  if (fd_ >= 0 && ::fsync(fd_) != 0) throw FileError(path_ + ": write error: " + reason(errno));
}

void AppendFile::close() {
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && errno != EINTR)
    throw FileError(path_ + ": write error: " + reason(errno));
  if (created_) flush_folder_of(path_);
}

void require_owned_place(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) == 0) {
    if (!S_ISREG(info.st_mode)) refuse(path, info.st_mode, kOwnedAdvice);
  } else if (errno != ENOENT && errno != ENOTDIR) {
    throw FileError(path + ": cannot be looked at (" + reason(errno) + ")");
  }
}

void require_folder_place(const std::string& path) {
  for (std::filesystem::path part = path; !part.empty() && part != part.root_path();
       part = part.parent_path()) {
    struct stat info {};
    if (::stat(part.c_str(), &info) != 0) continue;
    if (S_ISDIR(info.st_mode)) return;
    throw FileError(part.string() + ": is " + file_kind_words(info.st_mode) + ", not a folder" +
                    (part == path ? "" : "; cannot create " + path));
  }
}

void create_folders(const std::string& path) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (!error) return;
  require_folder_place(path);  // names the part in the way, when one is
  throw FileError(path + ": cannot create the folder (" + error.message() + ")");
}

int open_lock_file(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode))
    refuse(path, info.st_mode, ", where convlab keeps its lock file; move it away");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0 && errno == ELOOP)
    refuse(path, S_IFLNK, ", where convlab keeps its lock file; move it away");
  if (fd < 0) throw FileError(path + ": cannot open (" + reason(errno) + ")");
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw FileError(path + ": is not a regular file, where convlab keeps its lock file");
  }
  return fd;
}

void flush_folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string folder =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace convlab
