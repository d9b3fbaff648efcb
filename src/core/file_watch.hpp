// Waiting for files to be saved, with inotify and no polling: each file's folder is watched, since
// editors save by writing a new file and renaming it over the old one (a watch on the file itself
// would follow the old one away), and only events naming one of the files count. Files in one
// folder share its watch. A save is often several events (create, write, close, rename); they are
// taken as one once the folders stay quiet.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace convlab {

class FileWatch {
 public:
  // Watches one file. Throws FileError (core/file_io.hpp) when its folder cannot be watched.
  explicit FileWatch(const std::string& path);
  ~FileWatch();
  FileWatch(const FileWatch&) = delete;
  FileWatch& operator=(const FileWatch&) = delete;

  // Watches these files from now on instead of the ones before: the folders of files no longer
  // named are let go, those of new ones watched. Returns what could not be watched, one message a
  // folder (the other files are watched all the same).
  std::vector<std::string> watch(const std::vector<std::string>& paths);
  // The files watched, as given.
  const std::vector<std::string>& files() const { return files_; }

  // Blocks in poll() with no timeout until one of the files is saved, then until `quiet_ms` pass
  // with no further event of the folders. Returns the files saved, in the order of files(); empty
  // when wake() ended the wait first.
  std::vector<std::string> wait_for_save(int quiet_ms = 100);
  // Ends a wait_for_save of another thread (or the next one), so that the waiting thread can take
  // a request that is not a save (a page that asks to measure a point again). Thread-safe.
  void wake();
  // The files saved since the last wait or check; does not block.
  std::vector<std::string> saved();
  // Waits until `quiet_ms` pass with no event of the folders (the rest of a save's burst); returns
  // the files saved meanwhile.
  std::vector<std::string> wait_until_quiet(int quiet_ms = 100);

 private:
  // Reads the pending events and adds the files they name to `named`.
  void drain(std::set<std::string>& named);
  std::vector<std::string> in_order(const std::set<std::string>& named) const;

  int fd_ = -1;
  int wake_fd_ = -1;  // an eventfd that wake() makes readable
  std::vector<std::string> files_;
  // Watch descriptor -> the name of each file in that folder -> the file as given.
  std::map<int, std::map<std::string, std::string>> watched_;
};

}  // namespace convlab
