// Reading and writing files whatever stands at their path (core/file_io.hpp): FIFOs, devices,
// folders and links are named and refused, or written straight through where the user named
// them, without ever blocking or reading an endless device; failed writes say so and leave the
// earlier file in place. Each test runs under an alarm, so that a call that blocks fails the test
// instead of hanging the suite.
#include "core/file_io.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// What the message of the FileError `call` throws says; empty when it throws none.
template <typename Call>
std::string refusal(Call call) {
  try {
    call();
  } catch (const FileError& error) {
    return error.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

class FileIo : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    ::alarm(20);  // SIGALRM ends the process: a blocked call fails instead of hanging
  }
  void TearDown() override {
    ::alarm(0);
    DirectoryTest::TearDown();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string fifo(const std::string& name) const {
    const std::string at = path(name);
    EXPECT_EQ(::mkfifo(at.c_str(), 0644), 0);
    return at;
  }
  // Names of the temporary files left in the test's folder.
  std::vector<std::string> temporaries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_))
      if (entry.path().extension() == ".tmp") names.push_back(entry.path().filename().string());
    return names;
  }
};

TEST_F(FileIo, ReadsRegularFilesAndRefusesEverythingElseBeforeReading) {
  testing::write_text(dir_ / "a.txt", "text\n");
  EXPECT_EQ(read_file(path("a.txt")), "text\n");
  EXPECT_FALSE(read_file_if_present(path("missing")).has_value());
  EXPECT_TRUE(contains(refusal([&] { read_file(path("missing")); }),
                       "missing: cannot read (No such file or directory)"));

  const std::string pipe = fifo("pipe");
  EXPECT_TRUE(contains(refusal([&] { read_file(pipe); }), "pipe: is a FIFO, not a regular file"));
  fs::create_directories(dir_ / "folder");
  EXPECT_TRUE(contains(refusal([&] { read_file(path("folder")); }), "folder: is a directory"));
  for (const char* device : {"/dev/zero", "/dev/urandom", "/dev/full", "/dev/null"})
    EXPECT_TRUE(contains(refusal([&] { read_file(device); }),
                         std::string(device) + ": is a character device"));

  fs::create_symlink(dir_ / "a.txt", dir_ / "link");
  EXPECT_EQ(read_file(path("link")), "text\n") << "links are followed unless refused";
  EXPECT_TRUE(contains(refusal([&] { read_file(path("link"), kNoSizeLimit, Links::refuse); }),
                       "link: is a symbolic link"));
  fs::create_symlink("/dev/zero", dir_ / "zero-link");
  EXPECT_TRUE(
      contains(refusal([&] { read_file(path("zero-link")); }), "zero-link: is a character device"));
}

TEST_F(FileIo, AFileLargerThanTheLimitIsNotRead) {
  testing::write_text(dir_ / "big", std::string(2 << 20, 'x'));
  EXPECT_TRUE(contains(refusal([&] { read_file(path("big"), 1 << 20); }),
                       "big: is larger than 1 MiB; not read"));
  EXPECT_EQ(read_file(path("big"), 2 << 20).size(), size_t(2 << 20));
}

TEST_F(FileIo, ComparingNeverReadsADeviceOrAFifo) {
  testing::write_text(dir_ / "a.txt", "same");
  EXPECT_TRUE(file_holds(path("a.txt"), "same"));
  EXPECT_FALSE(file_holds(path("a.txt"), "other"));
  EXPECT_FALSE(file_holds(path("a.txt"), "same but longer"));
  EXPECT_FALSE(file_holds(path("missing"), ""));
  EXPECT_FALSE(file_holds(fifo("pipe"), ""));
  EXPECT_FALSE(file_holds("/dev/zero", std::string(16, '\0')));
  EXPECT_FALSE(file_holds("/dev/null", ""));
}

TEST_F(FileIo, AWriteReplacesTheFileWholeAndLeavesNoTemporaryFile) {
  testing::write_text(dir_ / "out.txt", "old");
  write_file(path("out.txt"), "new", WriteTarget::owned, Durability::on_disk);
  EXPECT_EQ(testing::read_text(dir_ / "out.txt"), "new");
  EXPECT_TRUE(temporaries().empty());
  {
    AtomicFile unfinished(path("out.txt"), WriteTarget::owned);
    unfinished.write("half");
    EXPECT_EQ(temporaries().size(), 1u) << "the bytes go to a temporary file first";
  }  // not committed: the temporary file goes, the file stays
  EXPECT_EQ(testing::read_text(dir_ / "out.txt"), "new");
  EXPECT_TRUE(temporaries().empty());
}

// A limit on the size of files this process writes (RLIMIT_FSIZE, SIGXFSZ ignored): writes beyond
// it fail with EFBIG, as they would on a full disk.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    const rlimit limit{bytes, saved_.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    saved_signal_ = std::signal(SIGXFSZ, SIG_IGN);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, saved_signal_);
  }

 private:
  rlimit saved_{};
  void (*saved_signal_)(int) = nullptr;
};

TEST_F(FileIo, AWriteThatFailsPartWayLeavesTheEarlierFileAsItWas) {
  testing::write_text(dir_ / "good.txt", "good");
  testing::write_text(dir_ / "journal", "line\n");
  {
    const FileSizeLimit limit(1024);
    EXPECT_EQ(refusal([&] {
                write_file(path("good.txt"), std::string(4096, 'x'), WriteTarget::owned,
                           Durability::on_disk);
              }),
              path("good.txt") + ": write error: File too large");
    AppendFile journal(path("journal"));
    EXPECT_EQ(refusal([&] { journal.write(std::string(4096, 'x')); }),
              path("journal") + ": write error: File too large");
  }
  EXPECT_EQ(testing::read_text(dir_ / "good.txt"), "good");
  EXPECT_EQ(testing::read_text(dir_ / "journal"), "line\n") << "the partial append is undone";
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(FileIo, AReplacedFileKeepsItsPermissions) {
  testing::write_text(dir_ / "private.csv", "old");
  fs::permissions(dir_ / "private.csv", fs::perms::owner_read | fs::perms::owner_write);
  write_file(path("private.csv"), "new", WriteTarget::named);
  EXPECT_EQ(fs::status(dir_ / "private.csv").permissions(),
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(testing::read_text(dir_ / "private.csv"), "new");
}

TEST_F(FileIo, AnUnchangedFileKeepsItsModificationTime) {
  write_file(path("same.txt"), "content", WriteTarget::owned);
  const auto before = fs::last_write_time(dir_ / "same.txt");
  EXPECT_FALSE(write_file_if_changed(path("same.txt"), "content", WriteTarget::owned));
  EXPECT_EQ(fs::last_write_time(dir_ / "same.txt"), before);
  EXPECT_TRUE(write_file_if_changed(path("same.txt"), "changed", WriteTarget::owned));
  EXPECT_EQ(testing::read_text(dir_ / "same.txt"), "changed");
}

TEST_F(FileIo, AWrittenFileGetsTheFoldersAboveIt) {
  EXPECT_TRUE(write_file_if_changed(path("pages/figures/page.html"), "page"));
  EXPECT_EQ(testing::read_text(dir_ / "pages" / "figures" / "page.html"), "page");
  testing::write_text(dir_ / "blocked", "a file where a folder would go");
  const std::string message =
      refusal([&] { write_file_if_changed(path("blocked/page.html"), "page"); });
  EXPECT_TRUE(contains(message, "blocked: is a regular file, not a folder")) << message;
  EXPECT_EQ(testing::read_text(dir_ / "blocked"), "a file where a folder would go");
}

TEST_F(FileIo, AnOwnedFileMustBeARegularFileOrNothing) {
  const std::string pipe = fifo("pipe");
  fs::create_directories(dir_ / "folder");
  testing::write_text(dir_ / "target", "kept");
  fs::create_symlink(dir_ / "target", dir_ / "link");
  for (const auto& [name, kind] : std::vector<std::pair<std::string, std::string>>{
           {"pipe", "a FIFO"}, {"folder", "a directory"}, {"link", "a symbolic link"}}) {
    const std::string message =
        refusal([&] { write_file_if_changed(path(name), "x", WriteTarget::owned); });
    EXPECT_TRUE(contains(message, name + ": is " + kind + ", where convlab keeps a regular file"))
        << message;
    EXPECT_TRUE(contains(refusal([&] { AppendFile append(path(name)); }), name + ": is " + kind));
    EXPECT_TRUE(contains(refusal([&] { require_owned_place(path(name)); }), name + ": is " + kind));
    EXPECT_TRUE(
        contains(refusal([&] { ::close(open_lock_file(path(name))); }), name + ": is " + kind));
  }
  EXPECT_EQ(fs::status(pipe).type(), fs::file_type::fifo) << "left as it was";
  EXPECT_EQ(testing::read_text(dir_ / "target"), "kept");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  CONVLAB_DEVICE_OR_SKIP(null, "null", dir_);
  EXPECT_TRUE(contains(refusal([&] { write_file(null, "x", WriteTarget::owned); }),
                       null + ": is a character device"));
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(FileIo, ANamedDeviceIsWrittenThroughAndAFullOneIsAWriteError) {
  for (const char* name : {"null", "zero", "urandom"}) {
    CONVLAB_DEVICE_OR_SKIP(device, name, dir_);
    EXPECT_EQ(refusal([&] { write_file_if_changed(device, "x", WriteTarget::named); }), "");
    EXPECT_EQ(fs::status(device).type(), fs::file_type::character) << device;
  }
  CONVLAB_DEVICE_OR_SKIP(full, "full", dir_);
  EXPECT_EQ(refusal([&] { write_file(full, "", WriteTarget::named); }), "");
  EXPECT_EQ(refusal([&] { write_file(full, "x", WriteTarget::named); }),
            full + ": write error: No space left on device");
  EXPECT_EQ(fs::status(full).type(), fs::file_type::character);
  fs::create_directories(dir_ / "folder");
  EXPECT_TRUE(contains(refusal([&] { write_file(path("folder"), "x", WriteTarget::named); }),
                       "folder: is a directory"));
}

TEST_F(FileIo, ANamedFifoIsWrittenWhenReadAndRefusedWhenNobodyReads) {
  const std::string pipe = fifo("pipe");
  EXPECT_EQ(refusal([&] { write_file(pipe, "x", WriteTarget::named); }),
            pipe + ": is a FIFO that no process reads; nothing was written");
  const int reader = ::open(pipe.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  write_file_if_changed(pipe, "through the pipe", WriteTarget::named);
  char buffer[64] = {};
  EXPECT_EQ(::read(reader, buffer, sizeof buffer), 16);
  EXPECT_EQ(std::string(buffer), "through the pipe");
  ::close(reader);
  EXPECT_EQ(fs::status(pipe).type(), fs::file_type::fifo);
}

TEST_F(FileIo, ANamedLinkIsFollowedAndStaysALink) {
  testing::write_text(dir_ / "target.csv", "old");
  fs::create_symlink("target.csv", dir_ / "link.csv");
  write_file_if_changed(path("link.csv"), "new", WriteTarget::named);
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv"));
  EXPECT_EQ(testing::read_text(dir_ / "target.csv"), "new");
  fs::create_symlink("nowhere", dir_ / "dangling");
  EXPECT_TRUE(contains(refusal([&] { write_file(path("dangling"), "x", WriteTarget::named); }),
                       "dangling: is a symbolic link to nothing"));
}

TEST_F(FileIo, AppendedTextIsKeptAndALastByteIsReported) {
  {
    AppendFile file(path("journal"));
    EXPECT_TRUE(file.created());
    EXPECT_FALSE(file.last_byte().has_value());
    file.write("one\n");
    file.flush_to_disk();
    file.close();
  }
  AppendFile again(path("journal"));
  EXPECT_FALSE(again.created());
  EXPECT_EQ(again.last_byte(), '\n');
  again.write("two");
  again.close();
  EXPECT_EQ(testing::read_text(dir_ / "journal"), "one\ntwo");
}

TEST_F(FileIo, AFolderInTheWayOfAFileIsNamed) {
  testing::write_text(dir_ / "file", "x");
  EXPECT_TRUE(contains(refusal([&] { create_folders(path("file") + "/sub/deeper"); }),
                       "file: is a regular file, not a folder; cannot create"));
  EXPECT_TRUE(contains(refusal([&] { require_folder_place(path("file")); }),
                       "file: is a regular file, not a folder"));
  EXPECT_EQ(refusal([&] { require_folder_place(path("new/sub")); }), "");
  create_folders(path("new/sub"));
  EXPECT_TRUE(fs::is_directory(dir_ / "new/sub"));
}

}  // namespace
}  // namespace convlab
