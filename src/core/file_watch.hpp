// Waiting for a file to be saved, with inotify and no polling: the file's folder is watched, since
// editors save by writing a new file and renaming it over the old one (a watch on the file itself
// would follow the old one away), and only events naming the file count. A save is often several
// events (create, write, close, rename); they are taken as one once the folder stays quiet.
#pragma once

#include <string>

namespace convlab {

class FileWatch {
 public:
  // Throws FileError (core/file_io.hpp) when the folder cannot be watched.
  explicit FileWatch(const std::string& path);
  ~FileWatch();
  FileWatch(const FileWatch&) = delete;
  FileWatch& operator=(const FileWatch&) = delete;

  // Blocks in poll() with no timeout until the file is saved, then until `quiet_ms` pass with no
  // further event of the folder.
  void wait_for_save(int quiet_ms = 100);
  // Whether the file was saved since the last wait or check; does not block.
  bool saved();
  // Waits until `quiet_ms` pass with no event of the folder (the rest of a save's burst).
  void wait_until_quiet(int quiet_ms = 100);

 private:
  bool drain();  // reads the pending events; true when one named the file

  int fd_ = -1;
  std::string name_;  // the file's name in its folder
};

}  // namespace convlab
