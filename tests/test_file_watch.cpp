// core/file_watch.hpp on its own: saves of several files in several folders are seen and named,
// files beside them are not, a save's burst of events is one save, the set of files can change
// (folders let go of and taken up), and waiting uses no CPU. `convlab watch` on top of it is
// tests/test_watch.cpp.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "core/file_io.hpp"
#include "core/file_watch.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using Files = std::vector<std::string>;

// A file saved the way editors save: a new file renamed over the old one.
void save_by_rename(const fs::path& path, const std::string& text) {
  testing::write_text(path.string() + ".new", text);
  fs::rename(path.string() + ".new", path);
}

// Events are queued by the time a write returns: the tests take them with wait_until_quiet, which
// cannot block for ever when a save goes unseen, and wait for a save only where it must come.
class FileWatchTest : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    fs::create_directories(dir_ / "configs");
    fs::create_directories(dir_ / "kernels");
    config_ = (dir_ / "configs" / "c.yaml").string();
    tiled_ = (dir_ / "kernels" / "tiled.cu").string();
    rows_ = (dir_ / "kernels" / "rows.cpp").string();
    for (const std::string& file : {config_, tiled_, rows_}) testing::write_text(file, "v1\n");
  }
  std::string config_, tiled_, rows_;
};

TEST_F(FileWatchTest, SavesOfFilesInSeveralFoldersAreSeenAndNamedTheOthersNot) {
  FileWatch watch(config_);
  EXPECT_TRUE(watch.watch({config_, tiled_, rows_}).empty());
  EXPECT_EQ(watch.files(), (Files{config_, tiled_, rows_}));

  testing::write_text(dir_ / "kernels" / "notes.txt", "not watched\n");  // beside them
  testing::write_text(dir_ / "configs" / "other.yaml", "not watched\n");
  EXPECT_EQ(watch.wait_until_quiet(50), Files{});

  testing::write_text(tiled_, "v2\n");  // in place
  EXPECT_EQ(watch.wait_until_quiet(50), Files{tiled_});
  save_by_rename(rows_, "v2\n");
  EXPECT_EQ(watch.wait_until_quiet(50), Files{rows_});
  save_by_rename(config_, "v2\n");
  EXPECT_EQ(watch.wait_until_quiet(50), Files{config_});
  EXPECT_EQ(watch.saved(), Files{});
}

TEST_F(FileWatchTest, ABurstOfEventsIsOneSaveNamingEveryFileOfIt) {
  FileWatch watch(config_);
  watch.watch({config_, tiled_, rows_});
  // Events 30 ms apart, closer than the quiet time: one save, returned after the last of them.
  std::thread editor([&] {
    for (int i = 0; i < 4; ++i) {
      testing::write_text(i % 2 ? rows_ : config_, "burst " + std::to_string(i) + "\n");
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
    }
  });
  const Files saved = watch.wait_for_save(200);
  editor.join();
  EXPECT_EQ(saved, (Files{config_, rows_}));
  EXPECT_EQ(watch.saved(), Files{}) << "the burst was taken whole";
}

TEST_F(FileWatchTest, TheSetOfFilesCanChange) {
  FileWatch watch(config_);
  watch.watch({config_, tiled_});
  testing::write_text(rows_, "v2\n");
  EXPECT_EQ(watch.wait_until_quiet(50), Files{}) << "not in the set yet";

  // The kernels folder is let go of with its last file.
  watch.watch({config_});
  testing::write_text(tiled_, "v2\n");
  EXPECT_EQ(watch.wait_until_quiet(50), Files{});

  watch.watch({config_, rows_, rows_});  // named twice, watched once
  EXPECT_EQ(watch.files(), (Files{config_, rows_}));
  save_by_rename(rows_, "v3\n");
  testing::write_text(tiled_, "v3\n");
  EXPECT_EQ(watch.wait_until_quiet(50), Files{rows_});

  // A folder that cannot be watched is said, the other files are watched all the same.
  const std::string missing = (dir_ / "gone" / "k.cu").string();
  const Files problems = watch.watch({config_, missing, tiled_});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("cannot watch the folder of " + missing), std::string::npos)
      << problems[0];
  EXPECT_EQ(watch.files(), (Files{config_, tiled_}));
  testing::write_text(tiled_, "v4\n");
  EXPECT_EQ(watch.wait_until_quiet(50), Files{tiled_});
  EXPECT_THROW(FileWatch{missing}, FileError);
}

// Waiting blocks in poll() with no timeout: 500 ms of waiting cost (practically) no CPU, and a
// save ends the wait at once.
TEST_F(FileWatchTest, WaitingUsesNoCpuAndASaveEndsIt) {
  FileWatch watch(config_);
  watch.watch({config_, tiled_});
  const auto cpu_seconds = [] {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  };
  const double before = cpu_seconds();
  auto waiting = std::async(std::launch::async, [&] { return watch.wait_for_save(50); });
  EXPECT_EQ(waiting.wait_for(std::chrono::milliseconds(500)), std::future_status::timeout);
  const double used = cpu_seconds() - before;
  std::cout << "FileWatch: " << used * 1000 << " ms of CPU in 500 ms of waiting\n";
  EXPECT_LT(used, 0.05);
  save_by_rename(tiled_, "v2\n");
  if (waiting.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    ADD_FAILURE() << "the save of " << tiled_ << " did not end the wait";
    testing::write_text(config_, "v2\n");  // ends it, so that the test can end
  }
  EXPECT_EQ(waiting.get(), Files{tiled_});
}

}  // namespace
}  // namespace convlab
