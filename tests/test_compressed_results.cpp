// Results kept compressed (results.json.gz): every reader reads them as the plain file, a damaged
// or inflating file is refused by name, and writers refuse to add to them.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/file_io.hpp"
#include "core/gzip_reader.hpp"
#include "query/results_document.hpp"
#include "store/results_file.hpp"
#include "test_support.hpp"

#if CONVLAB_WITH_ZLIB
#include <zlib.h>
#endif

namespace convlab {
namespace {

namespace fs = std::filesystem;

const std::string kBlockSweep =
    std::string(CONVLAB_SOURCE_TREE) + "/outputs/block_sweep/results.json";

#if CONVLAB_WITH_ZLIB

// `text` as one gzip member.
std::string gzipped(const std::string& text) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&stream, text.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

class CompressedResults : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    testing::DirectoryTest::SetUp();
    plain_ = testing::read_text(kBlockSweep);
  }
  std::string plain_;
};

TEST_F(CompressedResults, ReadAsThePlainFileByEveryReader) {
  testing::write_text(dir_ / "results.json.gz", gzipped(plain_));
  const std::string expected = to_json(read_results(kBlockSweep)).dump();
  // Named as the plain file, as the compressed one, or by its folder.
  EXPECT_EQ(to_json(read_results((dir_ / "results.json").string())).dump(), expected);
  EXPECT_EQ(to_json(read_results((dir_ / "results.json.gz").string())).dump(), expected);
  const ResultsDocument document = load_results_document(dir_.string());
  EXPECT_EQ(document.path, (dir_ / "results.json.gz").generic_string());
  EXPECT_EQ(document.file.records.size(), load_results_document(kBlockSweep).file.records.size());
  EXPECT_TRUE(holds_results_file(dir_.string()));
  EXPECT_FALSE(holds_results_file((dir_ / "nothing").string()));
  // The commands that read a folder see the same records.
  const auto show = testing::run_convlab("show " + dir_.string(), dir_);
  ASSERT_EQ(show.exit_code, 0) << show.output;
  EXPECT_EQ(show.output, testing::run_convlab("show " + kBlockSweep, dir_).output);
}

TEST_F(CompressedResults, MembersOneAfterAnotherReadAsTheirBytesInOrder) {
  const std::size_t half = plain_.size() / 2;
  testing::write_text(dir_ / "results.json.gz",
                      gzipped(plain_.substr(0, half)) + gzipped(plain_.substr(half)));
  EXPECT_EQ(read_gzip_file((dir_ / "results.json.gz").string(), plain_.size()), plain_);
  EXPECT_EQ(read_results((dir_ / "results.json").string()).records.size(),
            read_results(kBlockSweep).records.size());
}

TEST_F(CompressedResults, ATruncatedOrCorruptFileIsRefusedByName) {
  const std::string compressed = gzipped(plain_);
  const std::string path = (dir_ / "results.json.gz").string();
  testing::write_text(path, compressed.substr(0, compressed.size() / 2));
  try {
    read_results((dir_ / "results.json").string());
    ADD_FAILURE() << "a truncated file was read";
  } catch (const ResultsFileError& error) {
    EXPECT_NE(std::string(error.what()).find(path + ": the compressed data ends early"),
              std::string::npos)
        << error.what();
  }
  std::string corrupt = compressed;
  for (std::size_t i = corrupt.size() / 3; i < corrupt.size() / 3 + 64; ++i) corrupt[i] ^= 0x5a;
  testing::write_text(path, corrupt);
  const auto show = testing::run_convlab("show " + dir_.string(), dir_);
  EXPECT_EQ(show.exit_code, 2) << show.output;
  EXPECT_NE(show.output.find(path + ": "), std::string::npos) << show.output;
  testing::write_text(path, "not gzip at all");
  const auto search = testing::run_convlab("search " + dir_.string(), dir_);
  EXPECT_EQ(search.exit_code, 2) << search.output;
  EXPECT_NE(search.output.find(path + ": not valid gzip data"), std::string::npos) << search.output;
}

TEST_F(CompressedResults, InflatingBeyondTheBoundIsRefusedBeforeItIsHeld) {
  // 64 MiB of one byte compresses to about 64 KB: the reader stops at the bound, not at the end.
  const std::string path = (dir_ / "bomb.json.gz").string();
  testing::write_text(path, gzipped(std::string(64u << 20, ' ')));
  ASSERT_LT(fs::file_size(path), 1u << 20);
  try {
    read_gzip_file(path, 1u << 20);
    ADD_FAILURE() << "64 MiB were read under a bound of 1 MiB";
  } catch (const FileError& error) {
    EXPECT_NE(std::string(error.what()).find(path + ": decompresses to more than 1 MiB"),
              std::string::npos)
        << error.what();
  }
}

// The page's command to run the experiment again decompresses the file first, since a run
// refuses to add to it.
TEST_F(CompressedResults, ThePagesRerunCommandDecompressesFirst) {
  fs::create_directories(dir_ / "outputs/block_sweep");
  fs::create_directories(dir_ / "configs");
  testing::write_text(dir_ / "outputs/block_sweep/results.json.gz", gzipped(plain_));
  fs::copy_file(std::string(CONVLAB_SOURCE_TREE) + "/configs/block_sweep.yaml",
                dir_ / "configs/block_sweep.yaml");
  const auto notebook = testing::run_convlab("notebook outputs/block_sweep --out nb --quiet", dir_);
  ASSERT_EQ(notebook.exit_code, 0) << notebook.output;
  const std::string page = testing::read_text(dir_ / "nb/block_sweep.html");
  EXPECT_NE(page.find("gzip -dk outputs/block_sweep/results.json.gz &amp;&amp; make experiment "
                      "CONFIG=configs/block_sweep.yaml"),
            std::string::npos);
}

TEST_F(CompressedResults, ARunDoesNotAddToThemAndLeavesThemAsTheyWere) {
  testing::write_text(dir_ / "tiny.yaml", R"(name: tiny
images:
  - {type: generated, sizes: [9], channels: [1], seed: 5}
kernels:
  - {type: box, size: 3}
border: zero
output: u8
implementations:
  sequential: {}
measure: {warmup: 0, min_reps: 1, max_reps: 1}
)");
  const std::string compressed = gzipped(plain_);
  fs::create_directories(dir_ / "outputs/tiny");
  testing::write_text(dir_ / "outputs/tiny/results.json.gz", compressed);
  ASSERT_TRUE(testing::read_text(dir_ / "outputs/tiny/results.json.gz") == compressed);
  const auto run = testing::run_convlab("run tiny.yaml", dir_);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("outputs/tiny/results.json.gz: a compressed results file, which "
                            "convlab reads but does not add to; decompress it first (gzip -dk)"),
            std::string::npos)
      << run.output;
  EXPECT_TRUE(testing::read_text(dir_ / "outputs/tiny/results.json.gz") == compressed);
  EXPECT_FALSE(fs::exists(dir_ / "outputs/tiny/results.json"));
  EXPECT_FALSE(fs::exists(dir_ / "outputs/tiny/results.journal"));
}

#else

TEST(CompressedResults, ABuildWithoutZlibSaysSo) {
  EXPECT_FALSE(gzip_supported());
  const fs::path dir = testing::fresh_directory("compressed-without-zlib");
  testing::write_text(dir / "results.json.gz", "\x1f\x8b");
  try {
    read_results((dir / "results.json").string());
    ADD_FAILURE() << "read without zlib";
  } catch (const ResultsFileError& error) {
    EXPECT_NE(std::string(error.what()).find("built without zlib"), std::string::npos);
  }
}

#endif

}  // namespace
}  // namespace convlab
