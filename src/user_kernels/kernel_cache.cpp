#include "user_kernels/kernel_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>

#include "core/file_io.hpp"
#include "core/sha256.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "0%03o", static_cast<unsigned>(mode & 0777));
  return text;
}

// Folders 0700 and files 0600, whatever the umask made them: nobody else reads or replaces code
// this process loads.
void seal_modes(const std::string& folder) {
  std::error_code error;
  ::chmod(folder.c_str(), 0700);
  for (const auto& entry : fs::recursive_directory_iterator(folder, error)) {
    if (entry.is_symlink(error)) continue;
    ::chmod(entry.path().c_str(), entry.is_directory(error) ? 0700 : 0600);
  }
}

// Folders of compiles that never finished (a process killed half-way) are removed once they are
// an hour old: no compile takes that long, so none of them is still being written.
void remove_abandoned_entries(const fs::path& cache) {
  std::error_code error;
  const auto now = fs::file_time_type::clock::now();
  for (const auto& entry : fs::directory_iterator(cache, error)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".building.") == std::string::npos && name.find(".damaged.") == std::string::npos)
      continue;
    const auto written = entry.last_write_time(error);
    if (!error && now - written > std::chrono::hours(1)) fs::remove_all(entry.path(), error);
  }
}

std::string unique_suffix() {
  std::random_device random;
  return std::to_string(::getpid()) + "." + std::to_string(random());
}

}  // namespace

void require_private_cache(const std::string& cache) {
  struct stat info {};
  if (::stat(cache.c_str(), &info) != 0) {
    if (errno != ENOENT)
      throw KernelCacheRefused(cache +
                               ": the kernel cache cannot be used: " + std::strerror(errno));
    const fs::path parent = fs::path(cache).parent_path();
    if (!parent.empty()) create_folders(parent.string());
    if (::mkdir(cache.c_str(), 0700) != 0 && errno != EEXIST)
      throw KernelCacheRefused(cache +
                               ": the kernel cache cannot be made: " + std::strerror(errno));
    ::chmod(cache.c_str(), 0700);
    if (::stat(cache.c_str(), &info) != 0)
      throw KernelCacheRefused(cache +
                               ": the kernel cache cannot be used: " + std::strerror(errno));
  }
  const std::string why =
      " convlab loads the code in its kernel cache, so it uses only a folder of its own user that "
      "nobody else can write (set CONVLAB_KERNEL_CACHE to another folder)";
  if (!S_ISDIR(info.st_mode))
    throw KernelCacheRefused(cache + ": the kernel cache is " + file_kind_words(info.st_mode) +
                             ", not a folder;" + why);
  if (info.st_uid != ::geteuid())
    throw KernelCacheRefused(cache + ": the kernel cache belongs to user " +
                             std::to_string(info.st_uid) + ", not to this user (" +
                             std::to_string(::geteuid()) + ");" + why);
  if (info.st_mode & (S_IWGRP | S_IWOTH))
    throw KernelCacheRefused(cache + ": the kernel cache is writable by " +
                             ((info.st_mode & S_IWOTH) ? "every user" : "its group") + " (mode " +
                             octal_mode(info.st_mode) + ");" + why + ", or chmod 700 it");
}

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

bool cache_entry_intact(const std::string& folder, const nlohmann::json& manifest) {
  const auto artifact = manifest.find("artifact");
  const auto recorded = manifest.find("artifact_sha256");
  if (artifact == manifest.end() || !artifact->is_string() || recorded == manifest.end() ||
      !recorded->is_string())
    return false;
  const std::string name = artifact->get<std::string>();
  if (name.empty() || name.find('/') != std::string::npos) return false;
  try {
    const std::string bytes = read_file(folder + "/" + name, 1u << 30, Links::refuse);
    return sha256_hex(bytes) == recorded->get<std::string>();
  } catch (const FileError&) {
    return false;
  }
}

void discard_cache_entry(const std::string& folder) {
  const std::string aside = folder + ".damaged." + unique_suffix();
  if (::rename(folder.c_str(), aside.c_str()) != 0) return;  // another process moved it first
  std::error_code ignored;
  fs::remove_all(aside, ignored);
}

std::string begin_cache_entry(const std::string& folder) {
  static std::once_flag once;
  std::call_once(once, [&] { remove_abandoned_entries(fs::path(folder).parent_path()); });
  const std::string building = folder + ".building." + unique_suffix();
  if (::mkdir(building.c_str(), 0700) != 0)
    throw FileError(building + ": cannot make a kernel cache entry: " + std::strerror(errno));
  ::chmod(building.c_str(), 0700);  // whatever the umask took away or left
  return building;
}

void finish_cache_entry(const std::string& building, const std::string& folder,
                        const nlohmann::json& manifest) {
  write_file(building + "/manifest.json", manifest.dump(2) + "\n", WriteTarget::owned);
  seal_modes(building);
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
  fs::remove_all(building, ignored);
}

}  // namespace convlab
