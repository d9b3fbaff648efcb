// SHA-256 (FIPS 180-4), for image fingerprints, config hashes, build ids and record keys.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace convlab {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, size_t size);
  void update(std::string_view text) { update(text.data(), text.size()); }
  std::array<std::uint8_t, 32> finish();
  std::string finish_hex();

 private:
  void compress(const std::uint8_t* block);
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

std::string sha256_hex(const void* data, size_t size);
inline std::string sha256_hex(std::string_view text) {
  return sha256_hex(text.data(), text.size());
}
// Hash of a regular file's bytes; empty string when it cannot be read or is not a regular file (a
// FIFO or a device is never opened for reading).
std::string sha256_file_hex(const std::string& path);

}  // namespace convlab
