#include "impl/user/kernel_cache.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>

#include "core/file_io.hpp"
#include "core/sha256.hpp"

namespace convlab {

std::string cache_entry_folder(const std::string& cache, const std::string& stem,
                               const nlohmann::json& key) {
  std::string safe;
  for (char c : stem.substr(0, 40)) safe += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return cache + "/" + safe + "-" + sha256_hex(key.dump()).substr(0, 20);
}

std::optional<nlohmann::json> read_cache_manifest(const std::string& folder) {
  std::optional<std::string> text;
  try {
    text = read_file_if_present(folder + "/manifest.json", 1 << 20, Links::refuse);
  } catch (const FileError&) {
    return std::nullopt;
  }
  if (!text) return std::nullopt;
  nlohmann::json manifest = nlohmann::json::parse(*text, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) return std::nullopt;
  return manifest;
}

// Folders of compiles that never finished (a process killed half-way) are removed once they are
// an hour old: no compile takes that long, so none of them is still being written.
void remove_abandoned_entries(const std::filesystem::path& cache) {
  std::error_code error;
  const auto now = std::filesystem::file_time_type::clock::now();
  for (const auto& entry : std::filesystem::directory_iterator(cache, error)) {
    if (entry.path().filename().string().find(".building.") == std::string::npos) continue;
    const auto written = entry.last_write_time(error);
    if (!error && now - written > std::chrono::hours(1))
      std::filesystem::remove_all(entry.path(), error);
  }
}

std::string begin_cache_entry(const std::string& folder) {
  create_folders(std::filesystem::path(folder).parent_path().string());
  static std::once_flag once;
  std::call_once(once,
                 [&] { remove_abandoned_entries(std::filesystem::path(folder).parent_path()); });
  std::random_device random;
  const std::string building =
      folder + ".building." + std::to_string(::getpid()) + "." + std::to_string(random());
  create_folders(building);
  return building;
}

void finish_cache_entry(const std::string& building, const std::string& folder,
                        const nlohmann::json& manifest) {
  write_file(building + "/manifest.json", manifest.dump(2) + "\n", WriteTarget::owned);
  if (::rename(building.c_str(), folder.c_str()) != 0) {
    // Another process finished the same entry first (ENOTEMPTY / EEXIST): keep theirs.
    const int error = errno;
    abandon_cache_entry(building);
    if (error != ENOTEMPTY && error != EEXIST)
      throw FileError(folder + ": cannot complete the kernel cache entry: " + std::strerror(error));
  }
}

void abandon_cache_entry(const std::string& building) {
  std::error_code ignored;
  std::filesystem::remove_all(building, ignored);
}

}  // namespace convlab
