#include "test_support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace convlab::testing {

std::filesystem::path fresh_directory(const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("convlab-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  return path;
}

void DirectoryTest::SetUp() {
  dir_ = fresh_directory(::testing::UnitTest::GetInstance()->current_test_info()->name());
}

void DirectoryTest::TearDown() {
  std::filesystem::remove_all(dir_);
}

CommandResult run_convlab(const std::string& arguments, const std::filesystem::path& directory) {
  return run_shell("\"$CONVLAB\" " + arguments, directory);
}

CommandResult run_shell(const std::string& command_line) {
  return run_shell(command_line, std::filesystem::current_path());
}

CommandResult run_shell(const std::string& command_line, const std::filesystem::path& directory) {
  const std::string command = "cd '" + directory.string() +
                              "' && CONVLAB='" CONVLAB_EXECUTABLE "' && export CONVLAB && { " +
                              command_line + "\n} 2>&1";
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> chunk{};
  size_t n = 0;
  while ((n = fread(chunk.data(), 1, chunk.size(), pipe)) > 0)
    result.output.append(chunk.data(), n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
}

}  // namespace convlab::testing
