#include "app/file_writes.hpp"

namespace convlab {

namespace fs = std::filesystem;

bool write_if_changed(const fs::path& path, const std::string& content, WriteTarget target) {
  if (path.has_parent_path()) create_folders(path.parent_path().string());
  return write_file_if_changed(path.string(), content, target);
}

std::string read_text_file(const fs::path& path, std::size_t max_bytes) {
  return read_file(path.string(), max_bytes);
}

}  // namespace convlab
