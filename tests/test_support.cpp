#include "test_support.hpp"

#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

namespace convlab::testing {
namespace {

namespace fs = std::filesystem;

// Removes a folder a test made, also where the test took the write permission of some of its
// folders away (as the hostile-file tests do) and did not give it back, which makes remove_all
// fail for a user other than root.
void remove_folder(const fs::path& path) {
  std::error_code error;
  fs::remove_all(path, error);
  if (!error || !fs::exists(path, error)) return;
  for (auto entry = fs::recursive_directory_iterator(path, error);
       !error && entry != fs::recursive_directory_iterator(); entry.increment(error))
    if (entry->is_directory(error))
      fs::permissions(entry->path(), fs::perms::owner_all, fs::perm_options::add, error);
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, error);
  fs::remove_all(path, error);
}

// Every folder fresh_directory made in this process, removed when the process ends. Most tests
// remove their folder themselves, but one that fails an ASSERT first, or that forgot, used to
// leave it in /tmp for good (a whole `make test` left about a hundred). ctest runs every test in
// a process of its own, so each folder goes right after its test.
// CONVLAB_KEEP_TEST_FOLDERS=1 keeps them, to look at what a failing test left.
class MadeFolders {
 public:
  void add(const fs::path& path) {
    const std::lock_guard<std::mutex> lock(mutex_);
    paths_.insert(path);
  }
  ~MadeFolders() {
    // A forked child that exits normally must not take its parent's folders with it.
    if (::getpid() != owner_) return;
    const char* keep = std::getenv("CONVLAB_KEEP_TEST_FOLDERS");
    if (keep != nullptr && std::string(keep) == "1") return;
    for (const fs::path& path : paths_) remove_folder(path);
  }

 private:
  const pid_t owner_ = ::getpid();
  std::mutex mutex_;
  std::set<fs::path> paths_;
};

MadeFolders& made_folders() {
  static MadeFolders folders;
  return folders;
}

}  // namespace

std::filesystem::path fresh_directory(const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("convlab-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  made_folders().add(path);
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
                              "' && CONVLAB='" CONVLAB_EXECUTABLE "' && export CONVLAB && " +
                              // Runs record no CPU calibration unless a test asks for one: it
                              // costs a second, and its figures move with the machine's load.
                              "export CONVLAB_CPU_CALIBRATION_SECONDS="
                              "${CONVLAB_CPU_CALIBRATION_SECONDS:-0} && { " +
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

std::string device_for_test(const std::string& name, const std::filesystem::path& directory) {
  const std::string system = "/dev/" + name;
  if (::geteuid() != 0) return system;  // others cannot replace what /dev holds
  struct stat info {};
  const std::string copy = (directory / name).string();
  if (::stat(system.c_str(), &info) != 0 || !S_ISCHR(info.st_mode) ||
      ::mknod(copy.c_str(), S_IFCHR | 0666, info.st_rdev) != 0)
    return "";
  const int fd = ::open(copy.c_str(), O_WRONLY | O_NONBLOCK);  // a nodev mount refuses
  if (fd < 0) return "";
  ::close(fd);
  return copy;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
}

FileOpens::FileOpens(const std::filesystem::path& file)
    : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)), name_(file.filename().string()) {
  // Closes are watched too, so that two opens in a row are never merged into one event.
  const std::string folder = file.parent_path().empty() ? "." : file.parent_path().string();
  if (fd_ < 0 || ::inotify_add_watch(fd_, folder.c_str(), IN_OPEN | IN_CLOSE) < 0)
    ADD_FAILURE() << "cannot watch " << folder << ": " << std::strerror(errno);
}

FileOpens::~FileOpens() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t FileOpens::take() {
  std::size_t opens = 0;
  alignas(inotify_event) char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd_, buffer, sizeof buffer);
    if (got <= 0) break;  // EAGAIN: every event so far is read
    for (ssize_t at = 0; at < got;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      if (event->mask & IN_Q_OVERFLOW) ADD_FAILURE() << "inotify dropped events";
      if ((event->mask & IN_OPEN) && event->len > 0 && name_ == event->name) ++opens;
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
  return opens;
}

}  // namespace convlab::testing
