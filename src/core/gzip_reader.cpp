#include "core/gzip_reader.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "core/file_io.hpp"

#if CONVLAB_WITH_ZLIB
#include <zlib.h>
#endif

namespace convlab {

bool is_gzip_path(const std::string& path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

#if CONVLAB_WITH_ZLIB

bool gzip_supported() {
  return true;
}

struct GzipReader::State {
  int fd;
  std::string path;
  std::uint64_t max_bytes;
  std::uint64_t produced = 0;
  z_stream stream{};
  std::array<unsigned char, 1 << 16> input{};
  bool input_ended = false;
  bool stream_ended = false;  // the last member ended, and no byte follows it

  // More compressed bytes into `input`; false at the end of the file.
  bool refill() {
    ssize_t got;
    do {
      got = ::read(fd, input.data(), input.size());
    } while (got < 0 && errno == EINTR);
    if (got < 0) throw FileError(path + ": cannot read (" + std::strerror(errno) + ")");
    stream.next_in = input.data();
    stream.avail_in = static_cast<uInt>(got);
    return got > 0;
  }
};

GzipReader::GzipReader(int fd, std::string path, std::uint64_t max_bytes)
    : state_(std::make_unique<State>()) {
  state_->fd = fd;
  state_->path = std::move(path);
  state_->max_bytes = max_bytes;
  // 15 + 16: the largest window, and a gzip header and trailer (not zlib's or raw deflate).
  if (inflateInit2(&state_->stream, 15 + 16) != Z_OK)
    throw FileError(state_->path + ": cannot start decompressing (out of memory)");
}

GzipReader::~GzipReader() {
  inflateEnd(&state_->stream);
}

std::size_t GzipReader::read(char* into, std::size_t size) {
  State& s = *state_;
  if (s.stream_ended) return 0;
  s.stream.next_out = reinterpret_cast<unsigned char*>(into);
  s.stream.avail_out = static_cast<uInt>(size);
  while (s.stream.avail_out == size) {
    if (s.stream.avail_in == 0 && !s.input_ended && !s.refill()) s.input_ended = true;
    if (s.stream.avail_in == 0 && s.input_ended) {
      if (s.stream.total_in == 0 && s.produced == 0) throw FileError(s.path + ": empty, not gzip");
      throw FileError(s.path + ": the compressed data ends early (a truncated file?)");
    }
    const int status = inflate(&s.stream, Z_NO_FLUSH);
    if (status == Z_STREAM_END) {
      // Another member may follow; the end of the file after a member is the end of the data.
      if (s.stream.avail_in == 0 && !s.refill()) {
        s.stream_ended = true;
        break;
      }
      inflateReset(&s.stream);
    } else if (status == Z_DATA_ERROR || status == Z_NEED_DICT) {
      throw FileError(s.path + ": not valid gzip data (" +
                      (s.stream.msg ? std::string(s.stream.msg) : "corrupt") + ")");
    } else if (status == Z_MEM_ERROR) {
      throw FileError(s.path + ": out of memory while decompressing");
    }
  }
  const std::size_t got = size - s.stream.avail_out;
  s.produced += got;
  if (s.produced > s.max_bytes)
    throw FileError(s.path + ": decompresses to more than " + std::to_string(s.max_bytes >> 20) +
                    " MiB, more than convlab reads");
  return got;
}

#else

bool gzip_supported() {
  return false;
}

struct GzipReader::State {};

GzipReader::GzipReader(int, std::string path, std::uint64_t) {
  throw FileError(path +
                  ": a gzip-compressed file, and this convlab was built without zlib (install "
                  "zlib1g-dev, scripts/install-deps.sh, and build again; or decompress it with "
                  "gzip -dk)");
}

GzipReader::~GzipReader() = default;

std::size_t GzipReader::read(char*, std::size_t) {
  return 0;
}

#endif

std::string read_gzip_file(const std::string& path, std::uint64_t max_bytes) {
  const int fd = open_regular_file(path);
  struct Closing {
    int fd;
    ~Closing() { ::close(fd); }
  } closing{fd};
  GzipReader reader(fd, path, max_bytes);
  std::string text;
  std::array<char, 1 << 16> piece{};
  while (const std::size_t got = reader.read(piece.data(), piece.size()))
    text.append(piece.data(), got);
  return text;
}

}  // namespace convlab
