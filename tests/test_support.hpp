// Helpers shared by the tests: random images, problems, and running the convlab executable.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "filters/filter_library.hpp"
#include "images/image_source.hpp"

namespace convlab::testing {

inline Image random_image(int width, int height, int channels, std::uint64_t seed) {
  return generate_image(width, height, channels, seed, "noise");
}

inline Filter filter_of(const std::string& type, int size) {
  FilterRequest request;
  request.type = type;
  request.size = size;
  return make_filter(request);
}

// A fresh empty directory under the system temporary directory, removed (with everything in it)
// when the test process ends, unless CONVLAB_KEEP_TEST_FOLDERS=1.
std::filesystem::path fresh_directory(const std::string& name);

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs the convlab executable with `arguments` (a shell-quoted string) in `directory`.
CommandResult run_convlab(const std::string& arguments, const std::filesystem::path& directory);
// Runs a shell command line; stdout and stderr together.
CommandResult run_shell(const std::string& command_line);

// Runs a shell command line in `directory`; $CONVLAB names the executable.
CommandResult run_shell(const std::string& command, const std::filesystem::path& directory);

// A test with a fresh directory of its own, named after the test and removed afterwards.
class DirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  std::filesystem::path dir_;
};

// A character device to use as a hostile target: /dev/<name> (null, zero, full, urandom). As root,
// a node of the same device made in `directory` instead, so that a writer that wrongly replaces its
// target (a rename over it) replaces that node, never the system's /dev/<name>. Empty when, as
// root, no usable node can be made there (a file system mounted nodev): skip the test then.
std::string device_for_test(const std::string& name, const std::filesystem::path& directory);

#define CONVLAB_DEVICE_OR_SKIP(variable, name, directory)                              \
  const std::string variable = ::convlab::testing::device_for_test(name, directory);   \
  if (variable.empty())                                                                \
  GTEST_SKIP() << "running as root, and no device node can be made in " << (directory) \
               << " (nodev?) to stand for /dev/" << (name) << " without risking the system's"

std::string read_text(const std::filesystem::path& path);
// Each line followed by a newline, for a failure message that lists what a check found.
std::string joined(const std::vector<std::string>& lines);
void write_text(const std::filesystem::path& path, const std::string& text);

// The opens of one file by any process, as the kernel reports them (inotify's IN_OPEN on its
// folder, by name): a read counts whichever function or process makes it, and a file replaced by
// a rename, as editors save, is still counted.
class FileOpens {
 public:
  explicit FileOpens(const std::filesystem::path& file);
  ~FileOpens();
  FileOpens(const FileOpens&) = delete;
  FileOpens& operator=(const FileOpens&) = delete;
  // The opens since the last call, or since it was made.
  std::size_t take();

 private:
  int fd_ = -1;
  std::string name_;
};

}  // namespace convlab::testing
