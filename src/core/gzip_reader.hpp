// Reading a gzip-compressed file (`gzip FILE` makes FILE.gz) as its decompressed bytes, a piece at
// a time: a results file of some thousand records (tens of MB of JSON) is kept compressed in the
// tree at a sixth of its size, and read as if it were the plain file. The decompressed bytes are
// bounded as they come, so a small file that would inflate beyond the bound is refused by name
// before it is held; a truncated or corrupt stream is refused by name too. Several gzip members one
// after another (`cat a.gz b.gz`) read as their bytes one after another, as gzip -d reads them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace convlab {

// Whether `path` names a compressed file: it ends with ".gz".
bool is_gzip_path(const std::string& path);

// Whether this build reads gzip files (zlib was found when it was configured).
bool gzip_supported();

class GzipReader {
 public:
  // Reads from `fd` (open for reading; the caller closes it), naming `path` in its FileErrors.
  // More than `max_bytes` decompressed is a FileError. Without zlib in the build, a FileError.
  GzipReader(int fd, std::string path, std::uint64_t max_bytes);
  ~GzipReader();
  GzipReader(const GzipReader&) = delete;
  GzipReader& operator=(const GzipReader&) = delete;

  // Up to `size` (at least 1) decompressed bytes into `into`; 0 once the stream has ended.
  std::size_t read(char* into, std::size_t size);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The decompressed bytes of the gzip file at `path`, which must be a regular file (read_file's
// checks), at most `max_bytes` of them.
std::string read_gzip_file(const std::string& path, std::uint64_t max_bytes);

}  // namespace convlab
