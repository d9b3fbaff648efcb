// Users' own kernels (docs/own-kernels.md) on the CPU: a .c/.cpp named in the YAML is compiled,
// cached, verified and timed like a built-in implementation; a source that does not compile stops
// the run before its first point, a run compiles the variants it measures as it goes; a kernel that
// crashes, aborts, exits, hangs, returns wrong values or an error code fails its own point and no
// other. The CUDA side is in tests/gpu/test_own_kernels_cuda.cpp; what NVRTC alone can check (no
// GPU) is in test_own_kernels_contract.cpp.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "test_support.hpp"

namespace convlab {
namespace {

using testing::read_text;
using testing::run_shell;
using testing::write_text;
using json = nlohmann::json;

const std::string kExamples = std::string(CONVLAB_SOURCE_TREE) + "/examples/kernels";

// A CPU kernel file: the contract, then `body` inside the entry point (p is the problem).
std::string cpu_kernel(const std::string& declarations, const std::string& body) {
  return "#include <convlab/kernel.h>\n#include <stdlib.h>\n#include <stdio.h>\n" + declarations +
         "\nCONVLAB_CPU_ENTRY(const convlab_problem* p) {\n" + body + "\n}\n";
}

// The straightforward loops, correct for every border and output.
const std::string kCorrectBody = R"(
  const int r = p->ksize / 2;
  for (int y = 0; y < p->height; ++y)
    for (int x = 0; x < p->width; ++x)
      for (int c = 0; c < p->channels; ++c) {
        float sum = 0.f;
        for (int ky = 0; ky < p->ksize; ++ky) {
          const int sy = convlab_border_index(y + ky - r, p->height, p->border);
          if (sy < 0) continue;
          for (int kx = 0; kx < p->ksize; ++kx) {
            const int sx = convlab_border_index(x + kx - r, p->width, p->border);
            if (sx < 0) continue;
            sum += p->weights[ky * p->ksize + kx] * p->in[sy * p->in_pitch + sx * p->channels + c];
          }
        }
        convlab_store(p->out, ((long long)y * p->width + x) * p->channels + c, p->output, sum + OFFSET);
      }
  return 0;)";

class OwnKernels : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    cache_ = dir_ / "cache";
  }

  // convlab with the test's own kernel cache.
  testing::CommandResult convlab(const std::string& arguments) {
    return run_shell(
        "CONVLAB_KERNEL_CACHE='" + cache_.string() + "' timeout -k 5 120 \"$CONVLAB\" " + arguments,
        dir_);
  }

  void write_config(const std::string& implementations, const std::string& extra = "",
                    const std::string& images =
                        "  - {type: generated, sizes: [[33, 17]], channels: 3, seed: 1}\n",
                    const std::string& kernels = "  - {type: gaussian, size: 5}\n") {
    write_text(dir_ / "c.yaml", "name: own\nimages:\n" + images + "kernels:\n" + kernels +
                                    "implementations:\n" + implementations +
                                    "measure: {warmup: 1, min_reps: 2, max_reps: 3, "
                                    "max_seconds: 0.05" +
                                    extra + "}\n");
  }

  std::vector<json> records() {
    return json::parse(read_text(dir_ / "outputs/own/results.json"))["records"]
        .get<std::vector<json>>();
  }

  std::filesystem::path cache_;
};

TEST_F(OwnKernels, TheExampleOpenmpLoopVerifiesOnAwkwardProblems) {
  write_config("  mine: {source: " + kExamples +
                   "/openmp_rows.cpp, threads: [1, 2], params: {SCHEDULE: [static, dynamic]}}\n"
                   "  openmp: {threads: 2}\n",
               "",
               "  - {type: generated, sizes: [1, [7, 5], [33, 17]], channels: [1, 3], seed: 3}\n",
               "  - {type: gaussian, size: [3, 9]}\n  - {type: sobel_x}\n");
  // Every border and both outputs; K = 9 is larger than the 1x1 and 7x5 images.
  std::string config = read_text(dir_ / "c.yaml");
  config += "border: [zero, replicate, reflect, symmetric, wrap]\noutput: [u8, f32]\n";
  write_text(dir_ / "c.yaml", config);
  const auto run = convlab("run c.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::size_t mine = 0;
  for (const json& record : records()) {
    EXPECT_EQ(record["status"], "ok") << record.dump();
    if (record["implementation"] != "mine") continue;
    ++mine;
    EXPECT_EQ(record["family"], "cpu");
    const json& source = record["source"];
    EXPECT_EQ(source["path"], kExamples + "/openmp_rows.cpp");
    EXPECT_EQ(source["sha256"].get<std::string>().size(), 64u);
    EXPECT_EQ(source["contract_version"], 1);
    EXPECT_FALSE(source["compiler_version"].get<std::string>().empty());
    const std::string flags = source["flags"].dump();
    EXPECT_NE(flags.find("-O3"), std::string::npos) << flags;
    EXPECT_NE(flags.find("-fopenmp"), std::string::npos) << flags;
    EXPECT_NE(flags.find("\"-std=gnu++17\""), std::string::npos) << flags;
    EXPECT_TRUE(source["defines"].contains("SCHEDULE"));
  }
  EXPECT_EQ(mine, 6u * 3 * 5 * 2 * 4);  // images x kernels x borders x outputs x variants
  // The results file alone holds the source.
  const json results = json::parse(read_text(dir_ / "outputs/own/results.json"));
  const json sources = results["run"]["config"]["sources"];
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0]["text"], read_text(kExamples + "/openmp_rows.cpp"));
}

TEST_F(OwnKernels, ASecondRunCompilesNothingAndSaysSo) {
  write_text(dir_ / "k.c", cpu_kernel("CONVLAB_CONTRACT(1);\n#define OFFSET 0", kCorrectBody));
  write_config("  mine: {source: k.c, params: {UNUSED: [1, 2]}}\n");
  const auto first = convlab("validate c.yaml");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("your kernels: 2 variants compiled in"), std::string::npos)
      << first.output;
  const auto second = convlab("validate c.yaml");
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_NE(second.output.find("all 2 variants found in the kernel cache, nothing compiled"),
            std::string::npos)
      << second.output;
  const auto run = convlab("run c.yaml --quiet");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  // A .c source is compiled as C, and its records say so.
  for (const json& record : records())
    if (record["implementation"] == "mine") {
      const std::string flags = record["source"]["flags"].dump();
      EXPECT_EQ(flags.rfind("[\"-x\",\"c\",\"-std=gnu11\",", 0), 0u) << flags;
    }
  // An edited source is another variant: compiled again, and its points measured again.
  write_text(dir_ / "k.c", read_text(dir_ / "k.c") + "/* edited */\n");
  const auto edited = convlab("run c.yaml");
  EXPECT_EQ(edited.exit_code, 0) << edited.output;
  EXPECT_NE(edited.output.find("2 variants compiled"), std::string::npos) << edited.output;
  EXPECT_NE(edited.output.find("ran 2"), std::string::npos) << edited.output;
}

TEST_F(OwnKernels, ACompileErrorIsShownBeforeAnyPointRunsByValidateDryRunAndRun) {
  write_text(dir_ / "broken.cpp",
             cpu_kernel("CONVLAB_CONTRACT(1);", "  int x = undefined_name;\n  return x;"));
  write_config("  fine: {source: " + kExamples + "/openmp_rows.cpp, params: {SCHEDULE: static}}\n" +
               "  broken: {source: broken.cpp, params: {TILE: [4, 8]}}\n");
  for (const char* command : {"validate c.yaml", "run c.yaml --dry-run", "run c.yaml"}) {
    const auto result = convlab(command);
    EXPECT_EQ(result.exit_code, 2) << command << "\n" << result.output;
    // The compiler's own line, under a heading naming the implementation, params and source.
    EXPECT_TRUE(std::regex_search(result.output,
                                  std::regex(R"(broken\.cpp:\d+:\d+: error: .*undefined_name)")))
        << command << "\n"
        << result.output;
    EXPECT_NE(result.output.find("broken TILE=4 (broken.cpp)"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("broken TILE=8 (broken.cpp)"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("2 of 3 variants of your kernels did not compile"),
              std::string::npos)
        << result.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "outputs/own/results.json"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "outputs/own/results.journal"));
}

// A run compiles the variants it measures as it goes, not the whole sweep first: --dry-run
// compiles the first variant (to find a source that does not compile), --max-points 3 over 24
// variants compiles 3. A variant that does not compile, once the first did, fails its own points
// with the compiler's lines; the others are measured.
TEST_F(OwnKernels, ARunCompilesTheVariantsItMeasuresAsItGoes) {
  write_text(dir_ / "k.c", cpu_kernel("CONVLAB_CONTRACT(1);\n#define OFFSET (0 * STEP)\n"
                                      "#if TILE == 7\n#error seven is refused\n#endif",
                                      kCorrectBody));
  write_config(
      "  mine: {source: k.c, params: {TILE: [1, 2, 3, 4, 5, 6, 7, 8], STEP: [1, 2, 3]}}\n");
  const auto compiled = [&] {
    std::size_t count = 0;
    if (std::filesystem::exists(cache_))
      for (const auto& entry : std::filesystem::directory_iterator(cache_))
        count += entry.is_directory() && entry.path().filename().string().rfind("mine-", 0) == 0;
    return count;
  };
  const auto dry = convlab("run c.yaml --dry-run");
  ASSERT_EQ(dry.exit_code, 0) << dry.output;
  EXPECT_EQ(compiled(), 1u) << dry.output;
  const auto first = convlab("run c.yaml --max-points 3");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(records().size(), 3u);
  EXPECT_EQ(compiled(), 3u) << first.output;
  EXPECT_NE(first.output.find("your kernels: 2 variants compiled in"), std::string::npos)
      << first.output;

  const auto rest = convlab("run c.yaml");
  ASSERT_EQ(rest.exit_code, 1) << "a failed point: the run records everything, then exits 1\n"
                               << rest.output;
  EXPECT_NE(rest.output.find("kept 3 · ran 18 · skipped 0 · failed 3"), std::string::npos)
      << rest.output;
  EXPECT_NE(rest.output.find("3 variants of your kernels did not compile, their points failed"),
            std::string::npos)
      << rest.output;
  std::size_t failed = 0;
  for (const json& record : records()) {
    const bool seven = record["params"]["TILE"] == 7;
    EXPECT_EQ(record["status"], seven ? "failed" : "ok") << record.dump();
    if (seven) {
      ++failed;
      EXPECT_NE(record["reason"].get<std::string>().find("seven is refused"), std::string::npos)
          << record["reason"];
    }
  }
  EXPECT_EQ(failed, 3u);
  EXPECT_EQ(compiled(), 21u) << "every variant that compiles, once";
}

TEST_F(OwnKernels, ASourceOfAnotherContractVersionOrNoneIsRefused) {
  write_text(dir_ / "v2.c", cpu_kernel("CONVLAB_CONTRACT(2);\n#define OFFSET 0", kCorrectBody));
  write_text(dir_ / "none.c", cpu_kernel("#define OFFSET 0", kCorrectBody));
  write_text(dir_ / "noentry.c", "#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n");
  write_config("  v2: {source: v2.c}\n  none: {source: none.c}\n  noentry: {source: noentry.c}\n");
  const auto result = convlab("validate c.yaml");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("v2.c: is written for kernel contract version 2; this convlab "
                               "speaks version 1"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("none.c: declares no contract version: add CONVLAB_CONTRACT(1);"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("noentry.c: defines no entry point"), std::string::npos)
      << result.output;
}

TEST_F(OwnKernels, AFaultyKernelFailsOnlyItsOwnPoints) {
  const std::string contract = "CONVLAB_CONTRACT(1);\n#define OFFSET 0\n";
  write_text(dir_ / "segv.c", cpu_kernel(contract, "  *(volatile int*)0 = 1;\n  return 0;"));
  write_text(dir_ / "aborts.c", cpu_kernel(contract, "  abort();"));
  write_text(dir_ / "exits.c", cpu_kernel(contract, "  exit(3);"));
  write_text(dir_ / "hangs.c", cpu_kernel(contract, "  for (;;) {}\n  return 0;"));
  write_text(dir_ / "wrong.c",
             cpu_kernel("CONVLAB_CONTRACT(1);\n#define OFFSET (x == 5 && y == 3 ? 9.f : 0.f)",
                        kCorrectBody));
  write_text(dir_ / "code.c", cpu_kernel(contract, "  return 7;"));
  write_text(dir_ / "good.c", cpu_kernel(contract, kCorrectBody));
  write_config(
      "  segv: {source: segv.c}\n  aborts: {source: aborts.c}\n  exits: {source: exits.c}\n"
      "  hangs: {source: hangs.c}\n  wrong: {source: wrong.c}\n  code: {source: code.c}\n"
      "  good: {source: good.c}\n  openmp: {threads: 1}\n",
      ", timeout: 2");
  const auto run = convlab("run c.yaml --quiet");
  EXPECT_EQ(run.exit_code, 1) << run.output;  // failed points, every other point measured
  std::map<std::string, json> by_name;
  for (const json& record : records()) by_name[record["implementation"]] = record;
  ASSERT_EQ(by_name.size(), 8u) << run.output;
  const auto reason = [&](const std::string& name) {
    EXPECT_EQ(by_name[name]["status"], "failed") << name;
    return by_name[name]["reason"].get<std::string>();
  };
  EXPECT_NE(reason("segv").find("killed by signal 11 (Segmentation fault)"), std::string::npos)
      << reason("segv");
  EXPECT_NE(reason("aborts").find("killed by signal 6 (Aborted)"), std::string::npos)
      << reason("aborts");
  EXPECT_NE(reason("exits").find("exited with status 3"), std::string::npos) << reason("exits");
  EXPECT_NE(reason("hangs").find("timed out after 2 s"), std::string::npos) << reason("hangs");
  EXPECT_NE(reason("code").find("the kernel returned 7"), std::string::npos) << reason("code");
  EXPECT_NE(reason("wrong").find("verification: 3 of 1683 values differ"), std::string::npos)
      << reason("wrong");
  EXPECT_NE(reason("wrong").find("at pixel (5, 3)"), std::string::npos) << reason("wrong");
  EXPECT_EQ(by_name["good"]["status"], "ok") << by_name["good"].dump();
  EXPECT_EQ(by_name["openmp"]["status"], "ok") << by_name["openmp"].dump();
}

TEST_F(OwnKernels, PointsTheSourceDoesNotHandleAreSkippedWithItsReason) {
  write_text(dir_ / "k.c",
             cpu_kernel("CONVLAB_CONTRACT(1);\n#define OFFSET 0\n"
                        "CONVLAB_SUPPORTS(CONVLAB_BIT(CONVLAB_BORDER_REPLICATE), CONVLAB_U8, "
                        "CONVLAB_ALL_CHANNELS);\nCONVLAB_MAX_KSIZE(3);\n",
                        kCorrectBody));
  write_config("  mine: {source: k.c}\n", "",
               "  - {type: generated, sizes: [[9, 7]], channels: 1, seed: 1}\n",
               "  - {type: gaussian, size: [3, 5]}\n");
  write_text(dir_ / "c.yaml", read_text(dir_ / "c.yaml") + "border: [replicate, zero]\n");
  const auto validate = convlab("validate c.yaml");
  ASSERT_EQ(validate.exit_code, 0) << validate.output;
  EXPECT_NE(validate.output.find("4 points: 1 to run, "), std::string::npos) << validate.output;
  const auto run = convlab("run c.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::size_t ok = 0, skipped = 0;
  for (const json& record : records()) {
    if (record["status"] == "ok") ++ok;
    if (record["status"] != "skipped") continue;
    ++skipped;
    const std::string reason = record["reason"];
    EXPECT_TRUE(reason.find("(CONVLAB_SUPPORTS)") != std::string::npos ||
                reason.find("(CONVLAB_MAX_KSIZE)") != std::string::npos)
        << reason;
  }
  EXPECT_EQ(ok, 1u);
  EXPECT_EQ(skipped, 3u);
}

// The results keep a source's text whole (run.config.sources), also one far longer than the 4 KiB
// other strings of a results file may hold, and every reader reads them back.
TEST_F(OwnKernels, ALongSourceIsKeptWholeAndItsResultsReadBack) {
  std::string comment = "/*";
  for (int i = 0; i < 600; ++i) comment += " line " + std::to_string(i) + " of a long comment\n";
  comment += " the end */\n";
  const std::string text =
      comment + cpu_kernel("CONVLAB_CONTRACT(1);\n#define OFFSET 0", kCorrectBody);
  ASSERT_GT(text.size(), 16000u);
  write_text(dir_ / "long.c", text);
  write_config("  mine: {source: long.c}\n");
  const auto run = convlab("run c.yaml --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json results = json::parse(read_text(dir_ / "outputs/own/results.json"));
  EXPECT_EQ(results["run"]["config"]["sources"][0]["text"], text);
  for (const std::string command : {"show outputs/own", "export outputs/own --format csv",
                                    "notebook outputs/own --out nb --quiet"}) {
    const auto read = convlab(command);
    EXPECT_EQ(read.exit_code, 0) << command << ": " << read.output;
  }
  EXPECT_NE(read_text(dir_ / "nb/own.html").find("the end */"), std::string::npos);
}

TEST_F(OwnKernels, BadEntriesAreNamedByKey) {
  write_text(dir_ / "k.c", cpu_kernel("CONVLAB_CONTRACT(1);\n#define OFFSET 0", kCorrectBody));
  write_text(dir_ / "k.cu", "#include <convlab/kernel.h>\n");
  // Latin-1 in a comment: results.json keeps the text, and JSON holds UTF-8 only.
  write_text(dir_ / "latin1.c", "/* caf\xE9 */\n" + read_text(dir_ / "k.c"));
  const std::vector<std::pair<std::string, std::string>> cases{
      {"  mine: {source: latin1.c}\n",
       "latin1.c: not UTF-8 text (byte 0xE9 at line 1, column 7); the results keep the source's "
       "text, so save it as UTF-8"},
      {"  mine: {source: missing.c}\n", "implementations.mine.source"},
      {"  mine: {source: k.txt}\n", "is not a kernel source"},
      {"  openmp: {source: k.c}\n", "'openmp' is a built-in implementation"},
      {"  mine: {source: k.cu, threads: [1, 2]}\n", "threads is for CPU sources"},
      {"  mine: {source: k.c, params: {2TILE: [1]}}\n", "a param name starts with a letter"},
      {"  mine: {source: k.c, params: {CONVLAB_X: [1]}}\n", "CONVLAB_ are convlab's own"},
      {"  mine: {source: k.c, params: {T: ['a b']}}\n", "cannot be a macro's value"},
      {"  mine: {source: k.c, params: {T: [1, word]}}\n", "mix kinds"},
      {"  mine: {source: k.c, colour: red}\n", "colour"},
  };
  for (const auto& [entry, expected] : cases) {
    write_config(entry);
    const auto result = convlab("validate c.yaml");
    EXPECT_EQ(result.exit_code, 2) << entry << result.output;
    EXPECT_NE(result.output.find(expected), std::string::npos) << entry << result.output;
    EXPECT_NE(result.output.find("c.yaml:"), std::string::npos) << entry << result.output;
  }
}

}  // namespace
}  // namespace convlab
