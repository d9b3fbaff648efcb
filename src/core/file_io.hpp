// Reading and writing files whatever stands at their path. What is there is looked at (lstat,
// and fstat once open) before a byte is read or a file replaced: a FIFO is never opened in a way
// that blocks, an endless device (/dev/zero, /dev/urandom) is never read, a directory or a link is
// named for what it is. Every write is checked through its flush, close and rename, so a failure
// is reported as "PATH: write error: REASON" and a partial file never replaces a good one.
//
// Two kinds of target (WriteTarget): the files convlab keeps in folders of its own (results, the
// journal, the lock, exported data, pictures, saved outputs), where only a regular file or nothing
// may stand; and a file the user names on the command line (export --out FILE, compare --json
// FILE), which may also be a link (followed), a device or a FIFO (written straight through).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace convlab {

// A file that cannot be read or written as asked; what() is "PATH: REASON".
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "a directory", "a FIFO", "a character device", "a block device", "a socket", "a symbolic link"
// or "a regular file", for messages.
std::string file_kind_words(mode_t mode);

constexpr std::size_t kNoSizeLimit = std::numeric_limits<std::size_t>::max();

enum class Links { follow, refuse };

// The bytes of the regular file at `path`; nullopt when nothing is there. Anything else is refused
// with a FileError naming the path and what it is, before a byte is read: a directory, a FIFO, a
// device, a socket, and a symbolic link when `links` is refuse. The file is opened without
// blocking and checked again once open, in case the path was replaced in between. A file larger
// than `max_bytes` is refused without being read.
std::optional<std::string> read_file_if_present(const std::string& path,
                                                std::size_t max_bytes = kNoSizeLimit,
                                                Links links = Links::follow);
// The same, and a missing file is a FileError too.
std::string read_file(const std::string& path, std::size_t max_bytes = kNoSizeLimit,
                      Links links = Links::follow);

// What is left of an open descriptor, read to its end (EINTR retried): its bytes, or the errno of
// a failed read, or too_large once it held more than `max_bytes`. The caller closes it; readers
// with errors of their own (the config's) word the failure themselves.
struct DescriptorRead {
  std::string bytes;
  int error = 0;
  bool too_large = false;
};
DescriptorRead read_descriptor(int fd, std::size_t max_bytes = kNoSizeLimit);

// One read(2) of up to `size` bytes, retried when a signal interrupts it: the bytes read (0 at the
// end), or -1 with errno set.
ssize_t read_some(int fd, char* into, std::size_t size);

// A descriptor open for reading on the regular file at `path`, with read_file_if_present's checks
// (a missing file is a FileError too); the caller closes it. For readers that stream a file.
int open_regular_file(const std::string& path, Links links = Links::follow);

// Whether a regular file at `path` (a link followed) holds exactly `content`. Sizes are compared
// first, so at most content.size() bytes are read; false for anything but a regular file, which is
// never opened.
bool file_holds(const std::string& path, std::string_view content);

enum class WriteTarget {
  // A file in a folder convlab writes (results, journal, exports, pictures, saved outputs): only a
  // regular file or nothing may stand there; anything else, a symbolic link included, is refused
  // and left as it is.
  owned,
  // A file named on the command line: a link is followed (the file it points to is replaced, the
  // link stays); a device or a FIFO is written straight through, never read (a FIFO no process
  // reads is refused instead of waited on); a directory is refused.
  named,
};

enum class Durability {
  closed,   // the data is handed to the kernel and the file closed, both checked
  on_disk,  // flushed to disk (fsync) before the rename, for files a crash must not cut short
};

// A file written whole or not at all. The bytes go to a temporary file of this process next to the
// target, `PATH.<pid>.<random>.tmp`, and commit() renames it over the target once every write,
// the flush and the close have succeeded. Any failure throws FileError "PATH: write error: REASON"
// and removes the temporary file; so does destroying an AtomicFile that was not committed. Devices
// and FIFOs named by the user (WriteTarget::named) are written directly instead.
class AtomicFile {
 public:
  AtomicFile(std::string path, WriteTarget target, Durability durability = Durability::closed);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t size);
  void write(std::string_view text) { write(text.data(), text.size()); }
  void commit();

  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what, int code);
  void close_descriptor();

  std::string path_;        // as named, for messages
  std::string final_path_;  // what is replaced: path_, or the file a link points to
  std::string temporary_;   // empty when written directly (a device or FIFO)
  Durability durability_;
  int fd_ = -1;
};

// Writes `content` as an AtomicFile.
void write_file(const std::string& path, std::string_view content, WriteTarget target,
                Durability durability = Durability::closed);

// Writes `content` unless a regular file at `path` holds it already, so that an unchanged file
// keeps its modification time (make, the figure renderer and the notebook redo only what is
// stale); true when written. The folders above `path` are created where missing. A device or FIFO
// named by the user is written, never read.
bool write_file_if_changed(const std::string& path, std::string_view content,
                           WriteTarget target = WriteTarget::owned);

// A file appended to and kept open (the results journal, the file of rejected journal lines): a
// regular file or nothing must stand at `path`; a link or anything else is refused before it is
// opened for writing. Writes, the flush to disk and the close are checked, each failure a
// FileError "PATH: write error: REASON"; a write that fails part way is undone (the file is cut
// back to its size before it), so that no partial line stays, and where that cannot be done the
// message says a partial line may stay. Appenders hold a lock of their own.
class AppendFile {
 public:
  explicit AppendFile(std::string path);
  ~AppendFile();
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;

  bool created() const { return created_; }  // the file did not exist before
  // The file's last byte, nullopt when it is empty.
  std::optional<char> last_byte() const;
  void write(std::string_view text);
  void flush_to_disk();
  void close();

 private:
  std::string path_;
  int fd_ = -1;
  bool created_ = false;
};

// Throws FileError unless a regular file or nothing stands at `path` (a link is refused): for a
// file convlab will replace or append to, checked before work that would otherwise be lost starts.
void require_owned_place(const std::string& path);

// Throws FileError unless `path` is a folder or could be created as one: the first part of it
// that exists must be a folder ("out: is a regular file, not a folder").
void require_folder_place(const std::string& path);

// Creates a folder and its parents; a FileError names the path when one of them is a file or
// cannot be made.
void create_folders(const std::string& path);

// Opens (creating it when missing) a regular file for locking (flock) and returns its descriptor;
// refuses anything else at `path`, a link included, with a FileError naming it.
int open_lock_file(const std::string& path);

// Flushes a folder to disk, so that a file created or renamed in it stays after a crash. Best
// effort: a folder that cannot be opened is left as it is.
void flush_folder_of(const std::string& path);

}  // namespace convlab
