// Users' own CUDA kernels on the device (docs/own-kernels.md): the examples verify on awkward
// problems; a kernel that faults, traps, hangs or computes wrong values fails its own points and
// the run goes on with a fresh process for the next; compute-sanitizer sees into the kernel host.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gpu_test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kExamples = std::string(CONVLAB_SOURCE_TREE) + "/examples/kernels";

struct Output {
  int exit_code = -1;
  std::string text;
};

Output shell(const std::string& command, const fs::path& directory) {
  const std::string line = "cd '" + directory.string() + "' && CONVLAB_KERNEL_CACHE='" +
                           (directory / "cache").string() + "' " + command + " 2>&1";
  Output out;
  FILE* pipe = ::popen(line.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> chunk{};
  std::size_t n = 0;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0)
    out.text.append(chunk.data(), n);
  const int status = ::pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::vector<json> records_of(const fs::path& results) {
  std::ifstream file(results);
  std::stringstream text;
  text << file.rdbuf();
  return json::parse(text.str())["records"].get<std::vector<json>>();
}

class OwnKernelsCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    CONVLAB_SKIP_WITHOUT_GPU();
    dir_ = fs::temp_directory_path() /
           ("convlab-gpu-own-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Output convlab(const std::string& arguments) {
    return shell("timeout -k 5 300 '" CONVLAB_EXECUTABLE "' " + arguments, dir_);
  }

  fs::path dir_;
};

TEST_F(OwnKernelsCuda, TheExamplesVerifyOnAwkwardProblems) {
  write(dir_ / "c.yaml",
        "name: own\n"
        "images:\n"
        "  - {type: generated, sizes: [1, [7, 5], [33, 17], [257, 129]], channels: [1, 3], "
        "seed: 5}\n"
        "kernels:\n"
        "  - {type: gaussian, size: [3, 9]}\n"
        "  - {type: custom, name: tilted, matrix: [[1, 2, 0], [0, -1, 3], [2, 0, -2]], normalize: "
        "false}\n"
        "border: [zero, replicate, reflect, symmetric, wrap]\n"
        "output: [u8, f32]\n"
        "implementations:\n"
        "  naive: {source: " +
            kExamples +
            "/naive_global.cu, params: {BLOCK: [[32, 8], [16, 16]]}}\n"
            "  constant: {source: " +
            kExamples +
            "/constant_weights.cu, params: {BLOCK: [[32, 8]]}}\n"
            "  tiled: {source: " +
            kExamples +
            "/shared_tiled.cu, params: {TILE: [16, 32], BLOCK: [[16, 16], [32, 8]]}}\n"
            "  separable: {source: " +
            kExamples +
            "/separable_two_pass.cu, params: {BLOCK: [[32, 8]]}}\n"
            "  cuda_global: {block: [32, 8]}\n"
            "measure: {warmup: 1, min_reps: 2, max_reps: 2, max_seconds: 0.01}\n");
  const Output run = convlab("run c.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.text;
  std::map<std::string, int> ok, skipped;
  for (const json& record : records_of(dir_ / "outputs/own/results.json")) {
    const std::string name = record["implementation"];
    EXPECT_NE(record["status"], "failed") << record.dump();
    if (record["status"] == "ok") {
      ++ok[name];
      if (name != "cuda_global") {
        EXPECT_EQ(record["source"]["contract_version"], 1);
      }
    } else {
      ++skipped[name];
      EXPECT_TRUE(name == "separable") << record.dump();  // only the rank-1 kernels
      EXPECT_NE(record["reason"].get<std::string>().find("not separable"), std::string::npos);
    }
  }
  const int problems = 8 * 3 * 5 * 2;  // images x kernels x borders x outputs
  EXPECT_EQ(ok["naive"], 2 * problems);
  EXPECT_EQ(ok["constant"], problems);
  EXPECT_EQ(ok["tiled"], 4 * problems);
  EXPECT_EQ(ok["separable"], problems * 2 / 3);  // the two Gaussians
  EXPECT_EQ(skipped["separable"], problems / 3);
  EXPECT_EQ(ok["cuda_global"], problems);
}

// A CUDA source with the contract and one pass whose body is `body` (x, y: the pixel).
std::string cuda_kernel(const std::string& body) {
  return "#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n"
         "CONVLAB_CUDA_PASS(1, 32, 8, 32, 8) {\n"
         "  const int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  const int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
         "  if (x >= p.width || y >= p.height) return;\n" +
         body + "\n}\n";
}

const std::string kCopyCentre =
    "  for (int c = 0; c < p.channels; ++c) {\n"
    "    float sum = 0.f;\n"
    "    const int r = p.ksize / 2;\n"
    "    for (int ky = 0; ky < p.ksize; ++ky) for (int kx = 0; kx < p.ksize; ++kx) {\n"
    "      const int sy = convlab_border_index(y + ky - r, p.height, p.border);\n"
    "      const int sx = convlab_border_index(x + kx - r, p.width, p.border);\n"
    "      if (sx >= 0 && sy >= 0) sum += p.weights[ky * p.ksize + kx] * "
    "p.in[sy * p.in_pitch + sx * p.channels + c];\n"
    "    }\n"
    "    convlab_store(p.out, ((long long)y * p.width + x) * p.channels + c, p.output, sum);\n"
    "  }\n";

TEST_F(OwnKernelsCuda, AFaultingKernelFailsOnlyItsOwnPoints) {
  write(dir_ / "far.cu", cuda_kernel("  ((float*)p.out)[(1LL << 40) + x] = 1.f;"));
  write(dir_ / "trap.cu", cuda_kernel("  if (x == 3 && y == 2) __trap();\n" + kCopyCentre));
  write(dir_ / "hangs.cu", cuda_kernel("  const long long start = clock64();\n"
                                       "  while (clock64() - start < (1LL << 62)) {}\n" +
                                       kCopyCentre));
  write(dir_ / "wrong.cu", cuda_kernel(kCopyCentre + "  if (x == 4 && y == 1) "
                                                     "((unsigned char*)p.out)[(p.width + 4) * "
                                                     "p.channels] ^= 0x80;"));
  write(dir_ / "good.cu", cuda_kernel(kCopyCentre));
  write(dir_ / "c.yaml",
        "name: own\n"
        "images: [{type: generated, sizes: [[64, 48]], channels: 3, seed: 2}]\n"
        "kernels: [{type: gaussian, size: [3, 5]}]\n"
        "implementations:\n"
        "  far: {source: far.cu}\n  trap: {source: trap.cu}\n  hangs: {source: hangs.cu}\n"
        "  wrong: {source: wrong.cu}\n  good: {source: good.cu}\n  cuda_global: {block: [32, 8]}\n"
        "measure: {warmup: 1, min_reps: 2, max_reps: 2, max_seconds: 0.01, timeout: 3}\n");
  const Output run = convlab("run c.yaml --quiet");
  EXPECT_EQ(run.exit_code, 1) << run.text;
  std::map<std::string, std::vector<json>> by_name;
  for (const json& record : records_of(dir_ / "outputs/own/results.json"))
    by_name[record["implementation"]].push_back(record);
  for (const char* bad : {"far", "trap", "hangs", "wrong"}) {
    ASSERT_EQ(by_name[bad].size(), 2u) << bad;
    for (const json& record : by_name[bad]) EXPECT_EQ(record["status"], "failed") << bad;
  }
  EXPECT_NE(by_name["far"][0]["reason"].get<std::string>().find("cudaErrorIllegalAddress"),
            std::string::npos)
      << by_name["far"][0].dump();
  EXPECT_NE(by_name["hangs"][0]["reason"].get<std::string>().find("timed out after 3 s"),
            std::string::npos)
      << by_name["hangs"][0].dump();
  EXPECT_NE(by_name["wrong"][0]["reason"].get<std::string>().find("at pixel (4, 1) channel 0"),
            std::string::npos)
      << by_name["wrong"][0].dump();
  // The points after the faults ran in a fresh process and were measured.
  for (const char* good : {"good", "cuda_global"})
    for (const json& record : by_name[good]) EXPECT_EQ(record["status"], "ok") << record.dump();
}

// A kernel that zeroes its input on the device before reading it fails its own points; the
// implementations after it (a user's kernel in a host of its own, a rung) read the image as it is.
TEST_F(OwnKernelsCuda, AKernelThatWritesItsInputFailsOnlyItsOwnPoints) {
  write(dir_ / "zeroes.cu",
        cuda_kernel("  for (int c = 0; c < p.channels; ++c)\n"
                    "    ((unsigned char*)p.in)[y * p.in_pitch + x * p.channels + c] = 0;\n" +
                    kCopyCentre));
  write(dir_ / "good.cu", cuda_kernel(kCopyCentre));
  write(dir_ / "c.yaml",
        "name: own\n"
        "images: [{type: generated, sizes: [[64, 48]], channels: 3, seed: 2}]\n"
        "kernels: [{type: gaussian, size: [3, 5]}]\n"
        "implementations:\n"
        "  zeroes: {source: zeroes.cu}\n  good: {source: good.cu}\n"
        "  cuda_global: {block: [32, 8]}\n"
        "measure: {warmup: 1, min_reps: 2, max_reps: 2, max_seconds: 0.01}\n");
  const Output run = convlab("run c.yaml --quiet");
  EXPECT_EQ(run.exit_code, 1) << run.text;
  std::map<std::string, std::vector<json>> by_name;
  for (const json& record : records_of(dir_ / "outputs/own/results.json"))
    by_name[record["implementation"]].push_back(record);
  ASSERT_EQ(by_name["zeroes"].size(), 2u) << run.text;
  for (const json& record : by_name["zeroes"]) EXPECT_EQ(record["status"], "failed");
  for (const char* good : {"good", "cuda_global"}) {
    ASSERT_EQ(by_name[good].size(), 2u) << good;
    for (const json& record : by_name[good]) EXPECT_EQ(record["status"], "ok") << record.dump();
  }
}

// compute-sanitizer follows the run into its kernel host and names the user's kernel, even where
// the write lands in memory the kernel may touch and nothing faults.
TEST_F(OwnKernelsCuda, ComputeSanitizerNamesAnOutOfBoundsWriteInAUserKernel) {
  if (shell("command -v compute-sanitizer || test -x /usr/local/cuda/bin/compute-sanitizer", dir_)
          .exit_code != 0)
    GTEST_SKIP() << "skipped: compute-sanitizer not found";
  write(dir_ / "past.cu",
        cuda_kernel(kCopyCentre + "  if (x == p.width - 1 && y == p.height - 1) "
                                  "((unsigned char*)p.out)[(long long)p.width * p.height * "
                                  "p.channels + 5] = 1;"));
  write(dir_ / "c.yaml",
        "name: own\n"
        "images: [{type: generated, sizes: [[64, 48]], channels: 3, seed: 2}]\n"
        "kernels: [{type: gaussian, size: 3}]\n"
        "implementations: {past: {source: past.cu}}\n"
        "measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}\n");
  const Output run = shell(
      "PATH=$PATH:/usr/local/cuda/bin timeout -k 5 300 compute-sanitizer --tool memcheck "
      "--target-processes all --error-exitcode 9 '" CONVLAB_EXECUTABLE "' run c.yaml --quiet",
      dir_);
  EXPECT_NE(run.exit_code, 0) << run.text;
  EXPECT_NE(run.text.find("Invalid __global__ write of size 1"), std::string::npos) << run.text;
  EXPECT_NE(run.text.find("convlab_pass1"), std::string::npos) << run.text;
}

}  // namespace
}  // namespace convlab
