// What convlab writes, and reads back, under hostile files: a full disk (/dev/full) as standard
// output or as a target, endless devices (/dev/zero, /dev/urandom), FIFOs, folders and links where
// its own files go, a file where its folder goes, a folder it may not write, a journal with a bad
// line in the middle. Devices written to are copies made in the test's folder when the tests run
// as root (testing::device_for_test), so that a regression cannot replace the system's. Each
// case must end within 10 s and 1 GiB of address space (a hang is exit
// 124, or 137 when SIGTERM does not end it) with a message naming the path and a non-zero exit,
// or succeed without losing a record; a good file is never replaced by a partial one.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kConfig = R"(name: small
images:
  - {type: generated, sizes: [8], channels: [1], seed: 1}
kernels:
  - {type: gaussian, size: 3}
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}
save_outputs: true
)";
constexpr size_t kRecords = 3;

// Runs a shell command line under the bounds; $CONVLAB is the executable.
testing::CommandResult bounded(const std::string& command_line, const fs::path& dir) {
  return testing::run_shell("ulimit -v 1048576; " + command_line, dir);
}

// Runs convlab under the bounds: `timeout` turns a hang into exit 124.
testing::CommandResult convlab(const std::string& arguments, const fs::path& dir) {
  return bounded("timeout -k 2 10 \"$CONVLAB\" " + arguments, dir);
}

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().extension() == ".tmp") names.push_back(entry.path().string());
  return names;
}

// What stands in an owned file's place.
enum class Intruder { fifo, folder, link_to_zero };

const char* kind_of(Intruder intruder) {
  switch (intruder) {
    case Intruder::fifo:
      return "a FIFO";
    case Intruder::folder:
      return "a directory";
    case Intruder::link_to_zero:
      return "a symbolic link";
  }
  return "";
}

void place(Intruder intruder, const fs::path& path) {
  fs::remove_all(path);
  fs::create_directories(path.parent_path());
  switch (intruder) {
    case Intruder::fifo:
      ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0) << path;
      break;
    case Intruder::folder:
      fs::create_directories(path / "inside");
      break;
    case Intruder::link_to_zero:
      fs::create_symlink("/dev/zero", path);
      break;
  }
}

class HostileFiles : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "small.yaml", kConfig);
    const auto run = convlab("run small.yaml --out out -q", dir_);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    good_results_ = testing::read_text(dir_ / "out/results.json");
  }

  void expect_refused(const testing::CommandResult& result, const std::string& needle,
                      int exit_code = 2) const {
    EXPECT_EQ(result.exit_code, exit_code) << result.output;
    EXPECT_TRUE(contains(result.output, needle))
        << "expected '" << needle << "': " << result.output;
  }

  void expect_results_kept() const {
    EXPECT_EQ(testing::read_text(dir_ / "out/results.json"), good_results_);
    EXPECT_TRUE(temporaries(dir_ / "out").empty());
  }

  std::string good_results_;
};

TEST_F(HostileFiles, StandardOutputOnAFullDiskIsAWriteErrorForEveryCommand) {
  for (const std::string command :
       {"show out", "export out --format csv", "export out --format md", "compare out out", "list",
        "--help", "export --help", "validate small.yaml", "version",
        "run small.yaml --out out --dry-run"}) {
    const auto result = convlab(command + " > /dev/full", dir_);
    expect_refused(result, "standard output: write error: No space left on device");
    EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1)
        << command << ": " << result.output;
  }
}

TEST_F(HostileFiles, ARunWhoseSummaryCannotBePrintedKeepsEveryRecord) {
  const auto result = convlab("run small.yaml --out again > /dev/full", dir_);
  expect_refused(result, "convlab run: standard output: write error: No space left on device");
  EXPECT_EQ(json::parse(testing::read_text(dir_ / "again/results.json"))["records"].size(),
            kRecords);
}

TEST_F(HostileFiles, ExportTargetsThatAreDevicesAreWrittenThroughWithoutReading) {
  CONVLAB_DEVICE_OR_SKIP(full, "full", dir_);
  expect_refused(convlab("export out --format csv --out " + full, dir_),
                 "convlab export: " + full + ": write error: No space left on device");
  // Endless devices were once read whole for comparison, until memory ran out; and a device that
  // reads as empty was replaced by a regular file.
  for (const char* name : {"zero", "urandom", "null"}) {
    CONVLAB_DEVICE_OR_SKIP(device, name, dir_);
    const auto result = convlab("export out --format tsv --out " + device, dir_);
    EXPECT_EQ(result.exit_code, 0) << device << ": " << result.output;
    EXPECT_TRUE(contains(result.output, device + ": 3 records")) << result.output;
    EXPECT_EQ(fs::status(device).type(), fs::file_type::character) << device << " was replaced";
  }
}

TEST_F(HostileFiles, AFifoTargetIsWrittenWhenReadAndRefusedWhenNobodyReads) {
  ASSERT_EQ(::mkfifo((dir_ / "pipe.csv").c_str(), 0644), 0);
  expect_refused(convlab("export out --format csv --out pipe.csv", dir_),
                 "pipe.csv: is a FIFO that no process reads; nothing was written");
  expect_refused(convlab("compare out out --json pipe.csv", dir_),
                 "pipe.csv: is a FIFO that no process reads");
  // With a reader (this process; the table fits the pipe's buffer) the table goes through it.
  const int reader = ::open((dir_ / "pipe.csv").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  const auto written = convlab("export out --format csv --out pipe.csv", dir_);
  EXPECT_EQ(written.exit_code, 0) << written.output;
  std::string received(1 << 16, '\0');
  const ssize_t n = ::read(reader, received.data(), received.size());
  ::close(reader);
  received.resize(n > 0 ? static_cast<size_t>(n) : 0);
  EXPECT_EQ(received, convlab("export out --format csv 2>/dev/null", dir_).output);
  EXPECT_EQ(fs::status(dir_ / "pipe.csv").type(), fs::file_type::fifo);
}

TEST_F(HostileFiles, FolderTargetsAreRefused) {
  fs::create_directories(dir_ / "folder.csv");
  expect_refused(convlab("export out --format csv --out folder.csv", dir_),
                 "folder.csv: is a directory; name a file");
  expect_refused(convlab("compare out out --json folder.csv", dir_),
                 "folder.csv: is a directory; name a file");
}

TEST_F(HostileFiles, CompareJsonOnAFullDiskIsAWriteError) {
  CONVLAB_DEVICE_OR_SKIP(full, "full", dir_);
  expect_refused(convlab("compare out out --json " + full, dir_),
                 "convlab compare: " + full + ": write error: No space left on device");
  EXPECT_EQ(fs::status(full).type(), fs::file_type::character);
  const auto written = convlab("compare out out --json verdicts.json", dir_);
  EXPECT_EQ(written.exit_code, 0) << written.output;
  EXPECT_EQ(json::parse(testing::read_text(dir_ / "verdicts.json"))["points"].size(), kRecords);
}

// A file size limit (SIGXFSZ ignored, so writes fail with EFBIG) stands for a full disk.
TEST_F(HostileFiles, AFailedWriteNeverReplacesAGoodFile) {
  testing::write_text(dir_ / "good.csv", "an earlier export\n");
  expect_refused(
      bounded("trap '' XFSZ; ulimit -f 1; timeout -k 2 10 \"$CONVLAB\" export out --format csv "
              "--out good.csv",
              dir_),
      "good.csv: write error: File too large");
  EXPECT_EQ(testing::read_text(dir_ / "good.csv"), "an earlier export\n");
  // The run fails at its first append; results.json stays as it was, and so does the journal.
  expect_refused(bounded("trap '' XFSZ; ulimit -f 1; timeout -k 2 10 \"$CONVLAB\" run small.yaml "
                         "--out out --force -q",
                         dir_),
                 "out/results.journal: write error: File too large");
  expect_results_kept();
  EXPECT_TRUE(temporaries(dir_).empty());
  const auto resumed = convlab("run small.yaml --out out -q", dir_);
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(json::parse(testing::read_text(dir_ / "out/results.json"))["records"].size(), kRecords);
}

TEST_F(HostileFiles, WhatStandsWhereTheResultsFolderKeepsItsFilesIsRefusedBeforeAnyPointRuns) {
  for (const char* name :
       {"results.json", "results.journal", "results.lock", "results.journal.rejected"})
    for (Intruder intruder : {Intruder::fifo, Intruder::folder, Intruder::link_to_zero}) {
      const fs::path folder = dir_ / "hostile";
      fs::remove_all(folder);
      place(intruder, folder / name);
      const auto run = convlab("run small.yaml --out hostile", dir_);
      expect_refused(run, std::string("hostile/") + name + ": is " + kind_of(intruder));
      EXPECT_FALSE(contains(run.output, "sequential")) << "a point ran: " << run.output;
      if (std::string(name) == "results.json" || std::string(name) == "results.journal") {
        // Readers refuse what they cannot read, naming it, and never block on it.
        const char* kind =
            intruder == Intruder::link_to_zero ? "a character device" : kind_of(intruder);
        expect_refused(convlab("show hostile", dir_),
                       std::string("hostile/") + name + ": is " + kind);
        expect_refused(convlab("export hostile --format csv", dir_), "hostile/");
      }
    }
  // A journal in the way of a good results folder: refused, and the file is kept.
  place(Intruder::fifo, dir_ / "out/results.journal");
  expect_refused(convlab("run small.yaml --out out --force", dir_),
                 "out/results.journal: is a FIFO");
  expect_results_kept();
}

TEST_F(HostileFiles, AResultsFileGivenAsAFifoOrDeviceIsRefused) {
  ASSERT_EQ(::mkfifo((dir_ / "pipe.json").c_str(), 0644), 0);
  expect_refused(convlab("export pipe.json --format csv", dir_), "pipe.json: is a FIFO");
  expect_refused(convlab("compare pipe.json out", dir_), "pipe.json: is a FIFO");
  expect_refused(convlab("show pipe.json", dir_), "pipe.json: is a FIFO");
  expect_refused(convlab("export /dev/zero --format csv", dir_),
                 "/dev/zero: is a character device");
  expect_refused(convlab("compare out /dev/urandom", dir_), "/dev/urandom: is a character device");
}

TEST_F(HostileFiles, AFileWhereTheOutputFolderGoesIsNamed) {
  testing::write_text(dir_ / "afile", "x");
  expect_refused(convlab("run small.yaml --out afile", dir_),
                 "afile: is a regular file, not a folder; choose another --out");
  expect_refused(convlab("run small.yaml --out afile/sub", dir_),
                 "afile: is a regular file, not a folder; cannot create afile/sub");
  expect_refused(convlab("run small.yaml --out /dev/full", dir_),
                 "/dev/full: is a character device, not a folder");
  expect_refused(convlab("export out --out afile", dir_), "afile: is a regular file, not a folder");
  expect_refused(convlab("export out --format csv --out afile/x.csv", dir_),
                 "afile: is a regular file, not a folder");
  EXPECT_FALSE(fs::exists(dir_ / "outputs"));
}

TEST_F(HostileFiles, WhatStandsWhereExportWritesIsRefused) {
  const auto exported = convlab("export out", dir_);
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir_ / "out/export"))
    if (entry.is_regular_file()) files.push_back(entry.path());
  ASSERT_GE(files.size(), 6u) << "data, plots, tables, values, section, gallery";
  for (const auto& file : files)
    for (Intruder intruder : {Intruder::fifo, Intruder::folder}) {
      const std::string kept = testing::read_text(file);
      place(intruder, file);
      const auto result = convlab("export out", dir_);
      expect_refused(result, file.lexically_relative(dir_).string() + ": is " + kind_of(intruder));
      fs::remove_all(file);
      testing::write_text(file, kept);
    }
  EXPECT_TRUE(temporaries(dir_).empty());
}

TEST_F(HostileFiles, WhatStandsWhereGalleryPicturesGoIsRefused) {
  fs::path display, input;
  for (const auto& entry : fs::directory_iterator(dir_ / "out/gallery")) display = entry.path();
  for (const auto& entry : fs::directory_iterator(dir_ / "out/images"))
    if (entry.is_regular_file()) input = entry.path();
  ASSERT_FALSE(display.empty());
  ASSERT_FALSE(input.empty());
  for (Intruder intruder : {Intruder::fifo, Intruder::folder}) {
    for (const fs::path& picture : {display, input}) {
      const std::string kept = testing::read_text(picture);
      place(intruder, picture);
      const std::string needle =
          picture.lexically_relative(dir_).string() + ": is " + kind_of(intruder);
      expect_refused(convlab("gallery out", dir_), needle);
      expect_refused(convlab("export out", dir_), needle);
      expect_refused(convlab("run small.yaml --out out --force -q", dir_), needle);
      fs::remove_all(picture);
      testing::write_text(picture, kept);
    }
  }
}

TEST_F(HostileFiles, ASavedOutputThatCannotBeWrittenFailsItsPointNamingTheFile) {
  fs::path saved;
  for (const auto& entry : fs::directory_iterator(dir_ / "out/images/outputs"))
    if (entry.path().filename().string().find("sequential") != std::string::npos)
      saved = entry.path();
  ASSERT_FALSE(saved.empty());
  place(Intruder::fifo, saved);
  const auto run = convlab("run small.yaml --out out --force", dir_);
  expect_refused(run, saved.lexically_relative(dir_).string() + ": is a FIFO", 1);
  EXPECT_EQ(json::parse(testing::read_text(dir_ / "out/results.json"))["records"].size(), kRecords);
}

TEST_F(HostileFiles, ProseAndConfigInputsThatAreFifosAreRefused) {
  ASSERT_EQ(::mkfifo((dir_ / "discussion.tex").c_str(), 0644), 0);
  expect_refused(convlab("export out --discussion discussion.tex", dir_),
                 "discussion.tex: is a FIFO");
  ASSERT_EQ(::mkfifo((dir_ / "config.yaml").c_str(), 0644), 0);
  expect_refused(convlab("export out --config config.yaml", dir_), "config.yaml: is a FIFO");
  ASSERT_EQ(::mkfifo((dir_ / "summary.tex").c_str(), 0644), 0);
  ASSERT_EQ(convlab("export out", dir_).exit_code, 0);
  expect_refused(convlab("export --index index.tex --summary summary.tex out", dir_),
                 "summary.tex: is a FIFO");
}

// One malformed line among good ones: a hand edit, a disk error. The lines before and after it are
// kept; it is named, and set aside when the journal is folded in.
TEST_F(HostileFiles, AJournalWithABadLineInTheMiddleKeepsEveryGoodRecord) {
  const json done = json::parse(good_results_);
  std::string journal = json{{"experiment", done["experiment"]}}.dump() + "\n" +
                        json{{"run", done["run"]}}.dump() + "\n";
  const std::string bad = R"({"point_id": 5, "status": ["ok"]})";
  for (size_t i = 0; i < done["records"].size(); ++i) {
    journal += json{{"record", done["records"][i]}}.dump() + "\n";
    if (i == 0) journal += bad + "\n";  // line 4
  }
  fs::remove(dir_ / "out/results.json");
  testing::write_text(dir_ / "out/results.journal", journal);

  const auto shown = convlab("show out", dir_);
  EXPECT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_TRUE(contains(shown.output,
                       "out/results.journal: line 4: skipped (expected one of "
                       "experiment, run, record, gallery or part)"))
      << shown.output;
  EXPECT_TRUE(contains(shown.output, "ok 3 ")) << shown.output;

  const auto resumed = convlab("run small.yaml --out out", dir_);
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_TRUE(contains(resumed.output, "kept 3 ")) << resumed.output;
  EXPECT_EQ(json::parse(testing::read_text(dir_ / "out/results.json"))["records"].size(), kRecords);
  EXPECT_FALSE(fs::exists(dir_ / "out/results.journal"));
  EXPECT_EQ(testing::read_text(dir_ / "out/results.journal.rejected"), bad + "\n");
}

// Takes write permission on a folder away for the test's lifetime.
class ReadOnly {
 public:
  explicit ReadOnly(fs::path folder) : folder_(std::move(folder)) {
    fs::permissions(folder_, kWrite, fs::perm_options::remove);
  }
  ~ReadOnly() { fs::permissions(folder_, kWrite, fs::perm_options::add); }

 private:
  static constexpr fs::perms kWrite =
      fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
  fs::path folder_;
};

// Values nested a million deep were copied and checked recursively until the stack ran out.
TEST_F(HostileFiles, ValuesNestedAMillionDeepAreRefusedWithoutACrash) {
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  std::string text = good_results_;
  const size_t params = text.find("\"params\": {}");
  ASSERT_NE(params, std::string::npos);
  text.replace(params, 13, "\"params\": {\"x\": " + deep + "}");
  fs::create_directories(dir_ / "deep");
  testing::write_text(dir_ / "deep/results.json", text);
  for (const char* command :
       {"show deep", "export deep --format csv", "compare deep out", "run small.yaml --out deep"})
    expect_refused(convlab(command, dir_),
                   "deep/results.json: nests lists or objects more than 256 deep");

  testing::write_text(dir_ / "out/results.journal", "{\"record\": " + deep + "}\n");
  const auto shown = convlab("show out", dir_);
  EXPECT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_TRUE(contains(shown.output, "line 1: skipped (nests lists or objects more than 256 deep)"))
      << shown.output;
  EXPECT_TRUE(contains(shown.output, "ok 3 ")) << shown.output;
}

// A picture whose decoding runs out of memory: stb_image gives no reason then, and the message
// once read a null pointer.
TEST_F(HostileFiles, AGalleryPictureTooLargeToDecodeIsNamedWithoutACrash) {
  fs::path input;
  for (const auto& entry : fs::directory_iterator(dir_ / "out/images"))
    if (entry.is_regular_file()) input = entry.path();
  ASSERT_FALSE(input.empty());
  fs::copy_file(fs::path(CONVLAB_TEST_DATA) / "bomb-32000x32000.png", input,
                fs::copy_options::overwrite_existing);
  const auto exported = convlab("export out", dir_);  // 1 GiB cannot hold 32000x32000x3
  EXPECT_EQ(exported.exit_code, 0) << exported.output;
  EXPECT_TRUE(contains(exported.output,
                       input.lexically_relative(dir_).string() + ": cannot decode image ("))
      << exported.output;
}

// The first folder above `path` that users other than its owner cannot enter, or none.
fs::path closed_to_others(const fs::path& path) {
  for (fs::path above = path.parent_path(); !above.empty(); above = above.parent_path()) {
    if ((fs::status(above).permissions() & fs::perms::others_exec) == fs::perms::none) return above;
    if (above == above.root_path()) break;
  }
  return {};
}

// A folder this process may not write. Root may write anywhere: as root, convlab runs as the
// unprivileged user nobody, for whom the test's folders are read-only. nobody runs a copy of
// the executable in the test's folder: the build's may lie where nobody cannot enter (a checkout
// under /root, whose mode is 700).
TEST_F(HostileFiles, AFolderThatCannotBeWrittenIsNamed) {
  std::string as_user;
  if (::geteuid() == 0) {
    if (testing::run_shell("command -v setpriv").exit_code != 0)
      GTEST_SKIP() << "running as root without setpriv: write permission cannot be taken away";
    if (const fs::path closed = closed_to_others(dir_); !closed.empty())
      GTEST_SKIP() << "running as root, and the temporary folder " << dir_.parent_path()
                   << " lies in " << closed
                   << ", which nobody cannot enter: set TMPDIR to a folder every user can enter";
    fs::create_directories(dir_ / "bin");
    fs::copy_file(CONVLAB_EXECUTABLE, dir_ / "bin/convlab");
    as_user = "CONVLAB='" + (dir_ / "bin/convlab").string() +
              "'; setpriv --reuid=65534 --regid=65534 --clear-groups ";
    fs::permissions(dir_, fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
    for (const auto& entry : fs::recursive_directory_iterator(dir_))
      fs::permissions(entry.path(), fs::perms::others_read | fs::perms::others_exec,
                      fs::perm_options::add);
  }
  const ReadOnly read_only(dir_ / "out");
  const auto result = [&](const std::string& arguments) {
    return bounded(as_user + "timeout -k 2 10 \"$CONVLAB\" " + arguments, dir_);
  };
  const auto run = result("run small.yaml --out out --force -q");
  EXPECT_NE(run.exit_code, 0) << run.output;
  // The lock file, or else the journal (an existing lock file of one's own opens for writing).
  EXPECT_TRUE(std::regex_search(
      run.output,
      std::regex("out/results\\.(lock: cannot open \\(|journal: write error: )Permission denied")))
      << run.output;
  const auto exported = result("export out");
  expect_refused(exported, "cannot create the folder (Permission denied)");
  EXPECT_TRUE(contains(exported.output, "out/export")) << exported.output;
  expect_refused(result("export out --format csv --out out/flat.csv"),
                 "out/flat.csv: write error: Permission denied");
  expect_results_kept();
}

}  // namespace
}  // namespace convlab
