// Shared helpers of the report tests: fixture paths, scratch directories, reading files.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace convlab::report_test {

inline std::filesystem::path fixtures() {
  return CONVLAB_REPORT_FIXTURES;
}
inline std::filesystem::path fixture_results() {
  return fixtures() / "fixture-demo" / "results.json";
}

// A fresh directory under the system temporary directory, removed by the destructor.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& purpose) {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("convlab-" + purpose + "-" + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace convlab::report_test
