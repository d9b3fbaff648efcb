#include "store/results_store.hpp"

#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>
#include <thread>

#include "core/file_io.hpp"
#include "store/derive.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// results.json.<pid>.<random>.tmp, or results.json.tmp of earlier versions.
bool is_temporary_name(const std::string& name, const std::string& prefix) {
  const std::string suffix = ".tmp";
  return name.size() >= prefix.size() + suffix.size() && name.rfind(prefix, 0) == 0 &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A results file kept compressed is read, never added to: writing results.json beside it would
// leave two files, and compressing again is the user's choice.
void refuse_compressed_only(const std::string& results_path) {
  const std::string stored = stored_results_path(results_path);
  if (stored != results_path)
    throw ResultsFileError(stored +
                           ": a compressed results file, which convlab reads but does not add "
                           "to; decompress it first (gzip -dk), or choose another --out");
}

void create_folder(const std::string& out_dir) {
  try {
    create_folders(out_dir);
  } catch (const FileError& error) {
    throw ResultsFileError(error.what());
  }
}

// A file system that cannot lock says so with one of these; anything else is a real failure.
bool lock_unsupported(int code) {
  return code == ENOLCK || code == EOPNOTSUPP || code == ENOSYS || code == EINVAL;
}

}  // namespace

ResultsLock::ResultsLock(const std::string& path, LockUse use) {
  try {
    fd_ = open_lock_file(path);
  } catch (const FileError& error) {
    throw ResultsFileError(error.what());
  }
  // Writes take milliseconds: a short wait is normal when runs share the folder. A long one is
  // announced, once per process.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (true) {
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    if (use == LockUse::best_effort && lock_unsupported(errno)) {
      static bool announced = false;
      if (!announced)
        std::cerr << "convlab: " << path << ": this file system cannot lock ("
                  << std::strerror(errno)
                  << "); going on without it, as this file has one writer\n";
      announced = true;
      return;
    }
    if (errno != EWOULDBLOCK && errno != EINTR) break;  // the blocking call below reports it
    if (std::chrono::steady_clock::now() > deadline) {
      static bool announced = false;
      if (!announced)
        std::cerr << "convlab: " << path << " is held by another convlab process; waiting\n";
      announced = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int code = errno;
    ::close(fd_);
    throw ResultsFileError(path + ": cannot lock (" + std::strerror(code) + ")");
  }
}

ResultsLock::~ResultsLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the lock
}

void remove_stale_temporaries(const std::string& out_dir, const std::string& file_name) {
  std::error_code error;
  for (fs::directory_iterator it(out_dir, error), end; !error && it != end; it.increment(error))
    if (is_temporary_name(it->path().filename().string(), file_name)) fs::remove(it->path(), error);
}

ResultsStore::ResultsStore(std::string out_dir, std::string file_name, LockUse lock_use)
    : out_dir_(std::move(out_dir)),
      file_name_(std::move(file_name)),
      results_path_(out_dir_ + "/" + file_name_),
      journal_path_(journal_path_for(results_path_)),
      lock_path_(fs::path(results_path_).replace_extension(".lock").string()),
      lock_use_(lock_use) {}

ResultsFile ResultsStore::read() const {
  try {
    require_folder_place(out_dir_);
  } catch (const FileError& error) {
    throw ResultsFileError(std::string(error.what()) + "; choose another --out");
  }
  refuse_compressed_only(results_path_);
  std::error_code error;
  if (!fs::is_directory(out_dir_, error) || ::access(out_dir_.c_str(), W_OK) != 0)
    return read_results(results_path_);  // nobody can be writing here with convlab
  const ResultsLock lock(lock_path_, lock_use_);
  // What a run will replace or append to is looked at before any point runs.
  for (const auto& path : {results_path_, journal_path_, rejected_path_for(journal_path_)}) {
    try {
      require_owned_place(path);
    } catch (const FileError& error) {
      throw ResultsFileError(error.what());
    }
  }
  return read_results(results_path_);
}

void ResultsStore::append(const std::vector<JournalLine>& lines) const {
  refuse_compressed_only(results_path_);
  create_folder(out_dir_);
  const ResultsLock lock(lock_path_, lock_use_);
  append_journal(journal_path_, lines);
}

ResultsFile ResultsStore::compact() const {
  refuse_compressed_only(results_path_);
  create_folder(out_dir_);
  const ResultsLock lock(lock_path_, lock_use_);
  remove_stale_temporaries(out_dir_, file_name_);
  std::vector<RejectedLine> rejected;
  ResultsFile results = read_results(results_path_, &rejected);
  std::error_code error;
  if (!fs::exists(journal_path_, error)) return results;
  // Set aside first: a crash before the journal is removed sets them aside again, losing nothing.
  set_aside_rejected_lines(journal_path_, rejected);
  write_results_atomically(results_path_, results);
  // Folding the journal in again would change nothing, so a crash before this line loses nothing.
  if (!fs::remove(journal_path_, error) && error)
    throw ResultsFileError(journal_path_ + ": cannot remove (" + error.message() + ")");
  return results;
}

ResultsFile ResultsStore::update(const std::function<void(ResultsFile&)>& change) const {
  refuse_compressed_only(results_path_);
  create_folder(out_dir_);
  const ResultsLock lock(lock_path_, lock_use_);
  remove_stale_temporaries(out_dir_, file_name_);
  ResultsFile results = read_results(results_path_);
  change(results);
  derive_metrics(results);
  write_results_atomically(results_path_, results);
  std::error_code error;
  if (!fs::remove(journal_path_, error) && error)
    throw ResultsFileError(journal_path_ + ": cannot remove (" + error.message() + ")");
  return results;
}

bool ResultsStore::has_journal() const {
  std::error_code error;
  return fs::exists(journal_path_, error);
}

}  // namespace convlab
