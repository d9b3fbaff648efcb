#include "user_kernels/verified_artifact.hpp"

#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/file_io.hpp"
#include "core/sha256.hpp"
#include "user_kernels/kernel_host_channel.hpp"

namespace convlab {

std::string read_verified_artifact(const std::string& path, const std::string& expected) {
  std::string bytes;
  try {
    bytes = read_file(path, kMaxArtifactBytes, Links::refuse);
  } catch (const std::exception& error) {
    throw ArtifactRefused(path + ": the compiled kernel cannot be read: " + error.what());
  }
  const std::string found = sha256_hex(bytes);
  if (found != expected)
    throw ArtifactRefused(path +
                          ": the compiled kernel is not the one the kernel cache recorded "
                          "(sha256 " +
                          found.substr(0, 12) + ", recorded " + expected.substr(0, 12) +
                          "); it was replaced after it was checked, and is not loaded");
  return bytes;
}

void* load_verified_library(const std::string& path, const std::string& expected) {
  static std::mutex mutex;
  static std::map<std::string, void*> loaded;  // by sha256
  static std::map<void*, std::string> loaded_from;
  // The loader knows a library by the name it was opened under: a name given twice is taken for
  // the library loaded first. Each copy keeps its descriptor open, so no two share a name.
  static std::vector<std::unique_ptr<SealedBuffer>> copies;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto found = loaded.find(expected);
  if (found != loaded.end()) return found->second;
  const std::string bytes = read_verified_artifact(path, expected);
  // The loader maps the memfd's pages, which its seals keep as they were checked.
  auto sealed = std::make_unique<SealedBuffer>(bytes.data(), bytes.size(), "convlab-kernel");
  const std::string fd_path = "/proc/self/fd/" + std::to_string(sealed->fd());
  void* handle = ::dlopen(fd_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    throw ArtifactRefused(path + ": cannot be loaded: " + (why ? why : "dlopen failed"));
  }
  if (loaded_from.count(handle) != 0)  // a kernel closed a copy's descriptor and its name came back
    throw ArtifactRefused(path +
                          ": cannot be loaded apart from another variant (its copy's "
                          "name was taken); it is not run");
  copies.push_back(std::move(sealed));
  loaded[expected] = handle;
  loaded_from[handle] = expected;
  return handle;
}

}  // namespace convlab
