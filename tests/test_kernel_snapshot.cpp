// A number names the exact bytes compiled (docs/own-kernels.md, "What a variant is"): a user's
// kernel is read once with every file it includes into a snapshot, compiled from that snapshot
// in a private folder, and cached under the snapshot's hash; the cache checks what it loads and
// trusts no folder another user can write; compiles are bounded in time and memory; links,
// FIFOs and devices are refused by name.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/number_text.hpp"
#include "core/sha256.hpp"
#include "test_support.hpp"
#include "user_kernels/kernel_compiler.hpp"
#include "user_kernels/kernel_host_channel.hpp"
#include "user_kernels/kernel_host_client.hpp"
#include "user_kernels/kernel_source.hpp"
#include "user_kernels/source_snapshot.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using testing::read_text;
using testing::run_shell;
using testing::write_text;

// The straightforward loops, each value multiplied by SCALE (from the header "scale.h").
const std::string kScaledKernel = R"(#include <convlab/kernel.h>
#include "scale.h"
CONVLAB_CONTRACT(1);
CONVLAB_CPU_ENTRY(const convlab_problem* p) {
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
        convlab_store(p->out, ((long long)y * p->width + x) * p->channels + c, p->output,
                      sum * SCALE);
      }
  return 0;
}
)";

class KernelSnapshot : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    cache_ = dir_ / "cache";
  }

  testing::CommandResult convlab(const std::string& arguments, const std::string& before = "") {
    return run_shell(before + "CONVLAB_KERNEL_CACHE='" + cache_.string() +
                         "' timeout -k 5 150 \"$CONVLAB\" " + arguments,
                     dir_);
  }

  void write_config(const std::string& implementations, const std::string& measure = "") {
    write_text(
        dir_ / "c.yaml",
        "name: snap\nimages:\n  - {type: generated, sizes: [[17, 5]], channels: 3, seed: 1}\n"
        "kernels:\n  - {type: gaussian, size: 3}\nimplementations:\n" +
            implementations + "measure: {warmup: 0, min_reps: 1, max_reps: 2, max_seconds: 0.05" +
            measure + "}\n");
  }

  std::vector<json> records() {
    return json::parse(read_text(dir_ / "outputs/snap/results.json"))["records"]
        .get<std::vector<json>>();
  }

  fs::path cache_;
};

TEST_F(KernelSnapshot, AnEditedHeaderIsANewVariantMeasuredAgain) {
  write_text(dir_ / "k.c", kScaledKernel);
  write_text(dir_ / "scale.h", "#define SCALE 1.0f\n");
  write_config("  mine: {source: k.c}\n");
  const auto first = convlab("run c.yaml --quiet");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  ASSERT_EQ(records().size(), 1u);
  const json before = records()[0];
  EXPECT_EQ(before["status"], "ok") << before.dump();
  ASSERT_EQ(before["source"]["includes"].size(), 1u) << before["source"].dump();
  EXPECT_EQ(before["source"]["includes"][0]["path"], "scale.h");
  EXPECT_EQ(before["source"]["includes"][0]["sha256"].get<std::string>().size(), 64u);
  // The run block keeps the included file's text beside the source's.
  const json sources =
      json::parse(read_text(dir_ / "outputs/snap/results.json"))["run"]["config"]["sources"];
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0]["includes"][0]["text"], "#define SCALE 1.0f\n");

  // The header now makes every value zero: --force measures the code on disk now, which fails.
  write_text(dir_ / "scale.h", "#define SCALE 0.0f\n");
  const auto forced = convlab("run c.yaml --force");
  EXPECT_NE(forced.output.find("1 variant compiled"), std::string::npos) << forced.output;
  bool failed = false;
  for (const json& record : records())
    if (record["source"]["snapshot_sha256"] != before["source"]["snapshot_sha256"]) {
      failed = record["status"] == "failed";
      EXPECT_NE(record["source"]["includes"][0]["sha256"],
                before["source"]["includes"][0]["sha256"]);
    }
  EXPECT_TRUE(failed) << forced.output;
}

TEST_F(KernelSnapshot, ARestoredSourceIsShownWithItsOwnPointsNeverTheEditedOnes) {
  // Measured (A), edited (B: ten times the work per value), measured, restored byte for byte: the
  // third run keeps A's points and measures nothing. Every reader then shows A's numbers.
  write_text(dir_ / "scale.h", "#define SCALE 1.0f\n");
  const std::string slower =
      std::string(kScaledKernel)
          .replace(kScaledKernel.find("float sum = 0.f;"), 16,
                   "float sum = 0.f; for (volatile int w = 0; w < 400; ++w) {}");
  write_text(dir_ / "k.c", kScaledKernel);
  write_config("  mine: {source: k.c, threads: [1, 2]}\n");
  ASSERT_EQ(convlab("run c.yaml --quiet").exit_code, 0);
  write_text(dir_ / "k.c", slower);
  ASSERT_EQ(convlab("run c.yaml --quiet").exit_code, 0);
  write_text(dir_ / "k.c", kScaledKernel);
  ASSERT_EQ(convlab("run c.yaml --quiet").exit_code, 0);
  std::map<std::string, std::map<int, json>> by_version;  // sha256 -> threads -> record
  for (const json& record : records())
    by_version[record["source"]["sha256"]][record["params"]["threads"].get<int>()] = record;
  ASSERT_EQ(by_version.size(), 2u);
  const std::string a = sha256_hex(kScaledKernel);
  const std::string b = sha256_hex(slower);
  const auto median = [&](const std::string& version, int threads) {
    return by_version.at(version).at(threads)["timing"]["stats"]["median"].get<double>();
  };
  const std::string shown_a = format_number(median(a, 2), 4);
  const std::string shown_b = format_number(median(b, 2), 4);
  ASSERT_NE(shown_a, shown_b);

  const auto best = convlab("show outputs/snap --best");
  // A's two points, the fastest and the runner-up, whichever is which.
  EXPECT_NE(best.output.find(shown_a), std::string::npos) << best.output;
  EXPECT_NE(best.output.find(format_number(median(a, 1), 4)), std::string::npos) << best.output;
  EXPECT_EQ(best.output.find(shown_b), std::string::npos) << best.output;
  // --compare: A's efficiency at two threads, from A's own one-thread time.
  const auto compare = convlab("show outputs/snap --compare params.threads");
  const double efficiency = median(a, 1) / (2 * median(a, 2));
  EXPECT_NE(compare.output.find("| " + format_number(efficiency, 3) + " |"), std::string::npos)
      << compare.output;
  EXPECT_NEAR(by_version.at(a).at(2)["derived"]["efficiency"].get<double>(), efficiency, 1e-12);
  EXPECT_EQ(compare.output.find(shown_b), std::string::npos) << compare.output;
  // The listing of every version keeps both, told apart by their short hashes.
  const auto listing = convlab("show outputs/snap --all-versions");
  for (const std::string& version : {a, b}) {
    const std::string snapshot = by_version.at(version).at(1)["source"]["snapshot_sha256"];
    EXPECT_NE(listing.output.find("| " + snapshot.substr(0, 12) + " |"), std::string::npos)
        << listing.output;
  }
}

TEST_F(KernelSnapshot, AFileSavedBetweenReadingAndCompilingIsNotCompiled) {
  // The snapshot is read, then the file on disk changes before the compile: the compile works
  // from the snapshot, so what is compiled is what is hashed.
  ::setenv("CONVLAB_KERNEL_CACHE", cache_.c_str(), 1);
  ::setenv("CONVLAB_KERNEL_HOST", CONVLAB_EXECUTABLE, 1);
  const std::string version_a =
      "#include <convlab/kernel.h>\n#include \"limit.h\"\nCONVLAB_CONTRACT(1);\n"
      "CONVLAB_MAX_KSIZE(LIMIT);\nCONVLAB_CPU_ENTRY(const convlab_problem* p) { return p ? 0 : 1; "
      "}\n";
  write_text(dir_ / "k.c", version_a);
  write_text(dir_ / "limit.h", "#define LIMIT 5\n");
  const UserKernelSource source = read_kernel_source("mine", (dir_ / "k.c").string(), "k.c");
  write_text(dir_ / "limit.h", "#define LIMIT 9\n");  // saved while convlab compiles
  write_text(dir_ / "k.c", version_a + "/* and the source too */\n");
  const CompiledVariant variant =
      compile_variant({&source, Params::object(), {3, 3, OutputType::u8}, 0, {}});
  ::unsetenv("CONVLAB_KERNEL_CACHE");
  ::unsetenv("CONVLAB_KERNEL_HOST");
  EXPECT_EQ(variant.contract.max_ksize, 5);
  EXPECT_EQ(source.includes.at(0).file.text, "#define LIMIT 5\n");
  // The entry holds the bytes it was compiled from.
  EXPECT_EQ(read_text(variant.folder + "/tree" + (dir_ / "limit.h").string()), "#define LIMIT 5\n");
}

TEST_F(KernelSnapshot, AReplacedArtefactIsCompiledAgainWithALineNamingItsEntry) {
  write_text(dir_ / "k.c", kScaledKernel);
  write_text(dir_ / "scale.h", "#define SCALE 1.0f\n");
  write_config("  mine: {source: k.c}\n");
  ASSERT_EQ(convlab("validate c.yaml").exit_code, 0);
  // Another library put in its place: one whose values are all zero.
  fs::path entry;
  for (const auto& item : fs::directory_iterator(cache_))
    if (fs::exists(item.path() / "kernel.so")) entry = item.path();
  ASSERT_FALSE(entry.empty());
  write_text(dir_ / "zero.h", "#define SCALE 0.0f\n");
  write_text(dir_ / "z.c",
             std::string(kScaledKernel).replace(kScaledKernel.find("scale.h"), 7, "zero.h"));
  const auto planted =
      run_shell("cc -shared -fPIC -O1 -fopenmp -I '" + std::string(CONVLAB_SOURCE_TREE) +
                    "/include' z.c -o planted.so",
                dir_);
  ASSERT_EQ(planted.exit_code, 0) << planted.output;
  fs::copy_file(dir_ / "planted.so", entry / "kernel.so", fs::copy_options::overwrite_existing);
  const auto run = convlab("run c.yaml");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("kernel cache entry " + entry.string() +
                            ": its artefact does not match the sha256 its manifest recorded"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("1 variant compiled"), std::string::npos) << run.output;
  for (const json& record : records()) EXPECT_EQ(record["status"], "ok") << record.dump();
}

TEST_F(KernelSnapshot, AnArtefactReplacedAfterItsCheckIsNeverLoaded) {
  // convlab checked the entry and hands the host its path and recorded sha256; the file is
  // replaced before the host reads it. The host hashes the bytes it read and loads those bytes,
  // so the replacement is refused by name and none of its code runs.
  ::setenv("CONVLAB_KERNEL_CACHE", cache_.c_str(), 1);
  ::setenv("CONVLAB_KERNEL_HOST", CONVLAB_EXECUTABLE, 1);
  write_text(dir_ / "k.c", kScaledKernel);
  write_text(dir_ / "scale.h", "#define SCALE 1.0f\n");
  const UserKernelSource source = read_kernel_source("mine", (dir_ / "k.c").string(), "k.c");
  const CompiledVariant variant =
      compile_variant({&source, Params::object(), {3, 3, OutputType::u8}, 0, {}});
  const std::string compiled = read_text(variant.artifact);
  const fs::path ran = dir_ / "planted-code-ran";
  write_text(dir_ / "planted.c",
             "#include <fcntl.h>\n#include <unistd.h>\n"
             "__attribute__((constructor)) static void ran(void) {\n"
             "  close(open(\"" +
                 ran.string() +
                 "\", O_CREAT | O_WRONLY, 0600));\n}\n"
                 "int convlab_convolve(const void* p) { return p ? 0 : 1; }\n");
  const auto planted = run_shell("cc -shared -fPIC -O1 planted.c -o planted.so", dir_);
  ASSERT_EQ(planted.exit_code, 0) << planted.output;
  fs::copy_file(dir_ / "planted.so", variant.artifact, fs::copy_options::overwrite_existing);

  const std::vector<std::uint8_t> pixels(3 * 3 * 3, 100);
  const SealedBuffer image(pixels.data(), pixels.size(), "test-image");
  const std::vector<float> weights(9, 1.0f / 9);
  const auto prepare = [&](int id, const SharedBuffer& output) {
    return json{{"op", "prepare"},
                {"family", "cpu"},
                {"artifact", variant.artifact},
                {"artifact_sha256", variant.artifact_sha256},
                {"contract", to_json(variant.contract)},
                {"ksize", 3},
                {"weights", weights},
                {"separable", false},
                {"border", 0},
                {"output", 0},
                {"threads", 1},
                {"device", 0},
                {"l2_flush", false},
                {"id", id},
                {"output_bytes", output.size()}};
  };
  {
    KernelHost host(Family::cpu);
    host.request({{"op", "image"}, {"key", "k"}, {"width", 3}, {"height", 3}, {"channels", 3}},
                 {image.fd()}, 30, 30);
    const SharedBuffer output(pixels.size(), "test-output");
    try {
      host.request(prepare(1, output), {output.fd()}, 30, 30);
      ADD_FAILURE() << "the replaced artefact was loaded";
    } catch (const KernelHostError& error) {
      EXPECT_NE(std::string(error.what())
                    .find(variant.artifact + ": the compiled kernel is not the one the kernel "
                                             "cache recorded"),
                std::string::npos)
          << error.what();
    }
    // The bytes recorded load, from the host's own copy, and compute the filter.
    write_text(variant.artifact, compiled);
    host.request(prepare(2, output), {output.fd()}, 30, 30);
    host.request({{"op", "execute"}, {"id", 2}}, {}, 30, 30);
    EXPECT_EQ(static_cast<const std::uint8_t*>(output.data())[13], 100);
  }
  ::unsetenv("CONVLAB_KERNEL_CACHE");
  ::unsetenv("CONVLAB_KERNEL_HOST");
  EXPECT_FALSE(fs::exists(ran)) << "the replaced artefact's code ran";
}

TEST_F(KernelSnapshot, EntriesArePrivateWhateverTheUmask) {
  write_text(dir_ / "k.c", kScaledKernel);
  write_text(dir_ / "scale.h", "#define SCALE 1.0f\n");
  write_config("  mine: {source: k.c}\n");
  const auto run = convlab("run c.yaml --quiet", "umask 000; ");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::vector<std::string> open_to_others;
  std::size_t files = 0;
  for (const auto& item : fs::recursive_directory_iterator(cache_)) {
    struct stat info {};
    ASSERT_EQ(::lstat(item.path().c_str(), &info), 0);
    const mode_t expected = S_ISDIR(info.st_mode) ? 0700 : 0600;
    files += S_ISREG(info.st_mode);
    if ((info.st_mode & 0777) != expected)
      open_to_others.push_back(item.path().string() + " " + std::to_string(info.st_mode & 0777));
  }
  struct stat root {};
  ASSERT_EQ(::stat(cache_.c_str(), &root), 0);
  EXPECT_EQ(root.st_mode & 0777, 0700u);
  EXPECT_GE(files, 3u);  // the library, the manifest, the snapshot's files
  EXPECT_TRUE(open_to_others.empty()) << testing::joined(open_to_others);
}

TEST_F(KernelSnapshot, ACacheFolderOthersCanWriteOrOwnIsRefused) {
  write_text(dir_ / "k.c", kScaledKernel);
  write_text(dir_ / "scale.h", "#define SCALE 1.0f\n");
  write_config("  mine: {source: k.c}\n");
  fs::create_directories(cache_);
  fs::permissions(cache_, fs::perms::all);  // 0777, as a shared folder would be
  const auto writable = convlab("run c.yaml");
  EXPECT_EQ(writable.exit_code, 2) << writable.output;
  EXPECT_NE(writable.output.find(cache_.string() + ": the kernel cache is writable by every user "
                                                   "(mode 0777)"),
            std::string::npos)
      << writable.output;
  EXPECT_FALSE(fs::exists(dir_ / "outputs/snap/results.json"));
  if (::geteuid() != 0)
    GTEST_SKIP() << "the folder of another user needs root to make (chown); the mode check ran";
  fs::permissions(cache_, fs::perms::owner_all, fs::perm_options::replace);
  ASSERT_EQ(::chown(cache_.c_str(), 65534, 65534), 0);  // nobody's
  const auto foreign = convlab("run c.yaml");
  EXPECT_EQ(foreign.exit_code, 2) << foreign.output;
  EXPECT_NE(foreign.output.find(": the kernel cache belongs to user 65534, not to this user (0)"),
            std::string::npos)
      << foreign.output;
}

TEST_F(KernelSnapshot, ALinkedSourceOrHeaderIsRefusedAndItsTargetNeverRead) {
  write_text(dir_ / "secret.c", "/* the secret */\n" + kScaledKernel);
  fs::permissions(dir_ / "secret.c", fs::perms::owner_read | fs::perms::owner_write,
                  fs::perm_options::replace);
  fs::create_symlink(dir_ / "secret.c", dir_ / "k.c");
  write_text(dir_ / "scale.h", "#define SCALE 1.0f\n");
  write_config("  mine: {source: k.c}\n");
  const auto source = convlab("run c.yaml");
  EXPECT_EQ(source.exit_code, 2) << source.output;
  EXPECT_NE(source.output.find("k.c: is a symbolic link"), std::string::npos) << source.output;
  EXPECT_EQ(source.output.find("the secret"), std::string::npos) << source.output;
  EXPECT_FALSE(fs::exists(dir_ / "outputs/snap/results.json"));

  fs::remove(dir_ / "k.c");
  write_text(dir_ / "k.c", kScaledKernel);
  fs::remove(dir_ / "scale.h");
  write_text(dir_ / "secret.h", "#define SCALE 1.0f /* the secret */\n");
  fs::create_symlink(dir_ / "secret.h", dir_ / "scale.h");
  const auto header = convlab("validate c.yaml");
  EXPECT_EQ(header.exit_code, 2) << header.output;
  EXPECT_NE(header.output.find("scale.h (included at k.c:2): is a symbolic link"),
            std::string::npos)
      << header.output;
  EXPECT_EQ(header.output.find("the secret"), std::string::npos) << header.output;
}

TEST_F(KernelSnapshot, AFifoOrDeviceIncludeIsRefusedByNameAtOnceInCAndCuda) {
  ASSERT_EQ(::mkfifo((dir_ / "pipe.h").c_str(), 0600), 0);
  write_text(dir_ / "k.c",
             "#include <convlab/kernel.h>\n#include \"pipe.h\"\nCONVLAB_CONTRACT(1);\n");
  write_text(dir_ / "k.cu",
             "#include <convlab/kernel.h>\n#include \"pipe.h\"\nCONVLAB_CONTRACT(1);\n");
  write_text(dir_ / "z.c",
             "#include <convlab/kernel.h>\n#include \"/dev/zero\"\nCONVLAB_CONTRACT(1);\n");
  for (const char* file : {"k.c", "k.cu", "z.c"}) {
    write_config(std::string("  mine: {source: ") + file + "}\n");
    const auto start = std::chrono::steady_clock::now();
    const auto result = convlab("validate c.yaml");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(result.exit_code, 2) << file << "\n" << result.output;
    EXPECT_LT(seconds, 20.0) << file;
    const std::string expected =
        std::string(file) == "z.c" ? "z.c:2: #include of /dev/zero, a character device, by an "
                                     "absolute path"
                                   : "pipe.h (included at " + std::string(file) + ":2): is a FIFO";
    EXPECT_NE(result.output.find(expected), std::string::npos) << file << "\n" << result.output;
  }
}

// Each token doubles the one before: STR(B30) asks the preprocessor for 2^30 copies of `x`.
std::string macro_bomb(const std::string& prologue) {
  std::string text = prologue + "#define B0 x\n";
  for (int i = 1; i <= 30; ++i)
    text += "#define B" + std::to_string(i) + " B" + std::to_string(i - 1) + " B" +
            std::to_string(i - 1) + "\n";
  return text + "#define STR2(a) #a\n#define STR(a) STR2(a)\nconst char* bomb = STR(B30);\n";
}

TEST_F(KernelSnapshot, AMacroBombStopsAtTheCompileLimitsItNames) {
  const std::string contract = "#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n";
  write_text(dir_ / "bomb.c", macro_bomb(contract));
  write_text(dir_ / "bomb.cu", macro_bomb(contract));
  for (const char* file : {"bomb.c", "bomb.cu"}) {
    if (std::string(file) == "bomb.cu" && compiler_unavailable(KernelLanguage::cuda))
      continue;  // no NVRTC in this build: the C compile was bounded
    write_config(std::string("  mine: {source: ") + file + "}\n",
                 ", compile_timeout: 20, compile_memory_gib: 1");
    const auto start = std::chrono::steady_clock::now();
    const auto result = convlab("validate c.yaml");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(result.exit_code, 2) << file << "\n" << result.output;
    EXPECT_LT(seconds, 60.0) << file << "\n" << result.output;
    const bool names_a_limit =
        result.output.find("within 20 s (measure.compile_timeout)") != std::string::npos ||
        result.output.find("limit of 1 GiB of address space (measure.compile_memory_gib)") !=
            std::string::npos;
    EXPECT_TRUE(names_a_limit) << file << "\n" << result.output;
  }
}

TEST_F(KernelSnapshot, OneCompileErrorOfManyVariantsIsPrintedOnce) {
  write_text(dir_ / "broken.c",
             "#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n"
             "CONVLAB_CPU_ENTRY(const convlab_problem* p) { return nope; }\n");
  write_config("  broken: {source: broken.c, params: {TILE: [8, 16, 32]}}\n");
  const auto result = convlab("validate c.yaml");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  std::size_t errors = 0;
  for (std::size_t at = result.output.find("undeclared (first use"); at != std::string::npos;
       at = result.output.find("undeclared (first use", at + 1))
    ++errors;
  EXPECT_EQ(errors, 1u) << result.output;
  EXPECT_NE(result.output.find("3 variants, compiled with"), std::string::npos) << result.output;
  for (const char* tile : {"TILE=8", "TILE=16", "TILE=32"})
    EXPECT_NE(result.output.find(std::string("  broken ") + tile + " (broken.c)"),
              std::string::npos)
        << result.output;
}

TEST(SourceSnapshotScan, DirectivesAreFoundOutsideCommentsOnly) {
  const auto found = include_directives(
      "#include \"a.h\"\n  #  include <stdio.h>\n// #include \"commented.h\"\n/* #include "
      "\"block.h\"\n*/\n#include NAME\n#embed \"data.bin\"\nasm(\".incbin \\\"x\\\"\");\n"
      "const char* s = \"#include \\\"in_string.h\\\"\";\n#include_next \"next.h\"\n");
  std::vector<std::string> names;
  for (const auto& directive : found) names.push_back(directive.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"a.h", "stdio.h", "NAME", "data.bin", ".incbin", "next.h"}));
  EXPECT_TRUE(found[0].quoted);
  EXPECT_FALSE(found[1].quoted);
  EXPECT_EQ(found[1].line, 2);
  EXPECT_TRUE(found[2].computed);
  EXPECT_TRUE(found[3].reads_file);
  EXPECT_TRUE(found[4].reads_file);
  EXPECT_EQ(found[5].line, 10);
}

TEST_F(KernelSnapshot, TheVersionOfASourceWithoutIncludesIsItsHash) {
  write_text(dir_ / "k.c", "int x;\n");
  const SourceSnapshot alone = take_snapshot((dir_ / "k.c").string());
  EXPECT_EQ(alone.version, alone.main.sha256);
  fs::create_directories(dir_ / "sub");
  write_text(dir_ / "sub/a.h", "#include \"../b.h\"\n");
  write_text(dir_ / "b.h", "int b;\n");
  write_text(dir_ / "k.c", "#include \"sub/a.h\"\n#include <stdio.h>\n#include \"missing.h\"\n");
  const SourceSnapshot with = take_snapshot((dir_ / "k.c").string());
  ASSERT_EQ(with.includes.size(), 2u);
  EXPECT_EQ(with.includes[0].relative, "sub/a.h");
  EXPECT_EQ(with.includes[1].relative, "b.h");
  EXPECT_NE(with.version, with.main.sha256);
  write_text(dir_ / "b.h", "int b2;\n");
  EXPECT_NE(take_snapshot((dir_ / "k.c").string()).version, with.version);
}

}  // namespace
}  // namespace convlab
