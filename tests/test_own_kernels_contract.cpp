// The kernel contract without a GPU: what convlab reads from a compiled source's PTX, which
// points a declaration rules out, the macros of a variant, and the CUDA examples compiled by NVRTC
// (which needs no GPU) wherever this build has it.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "user_kernels/kernel_compiler.hpp"
#include "user_kernels/kernel_contract.hpp"
#include "user_kernels/kernel_source.hpp"

namespace convlab {
namespace {

const std::string kExamples = std::string(CONVLAB_SOURCE_TREE) + "/examples/kernels";

TEST(KernelContract, DeclarationsAreReadFromPtx) {
  const std::string ptx = R"(
.global .align 4 .u32 convlab_contract = 1;
.global .align 4 .u32 convlab_needs_scratch = 1;
.global .align 4 .u32 convlab_pass1_block_x = 32;
.global .align 4 .u32 convlab_pass1_block_y = 8;
.global .align 4 .u32 convlab_pass1_pixels_x = 32;
.global .align 4 .u32 convlab_pass1_pixels_y = 8;
.global .align 4 .u32 convlab_pass1_shared_bytes;
.global .align 4 .u32 convlab_pass2_block_x = 16;
.global .align 4 .u32 convlab_pass2_block_y = 16;
.global .align 4 .u32 convlab_pass2_pixels_x = 16;
.global .align 4 .u32 convlab_pass2_pixels_y = 64;
.global .align 4 .u32 convlab_pass2_shared_bytes = 4096;
.global .align 4 .u32 not_ours = 5;
.visible .entry convlab_pass1(
.visible .entry convlab_pass2(
)";
  const KernelContract contract =
      contract_from_declarations(declared_ints_of_ptx(ptx), ptx_entries(ptx));
  EXPECT_EQ(contract.version, 1);
  EXPECT_TRUE(contract.needs_scratch);
  EXPECT_FALSE(contract.needs_separable);
  ASSERT_EQ(contract.passes.size(), 2u);
  EXPECT_EQ(contract.passes[0].block_x, 32);
  EXPECT_EQ(contract.passes[0].shared_bytes, 0);
  EXPECT_EQ(contract.passes[1].pixels_y, 64);
  EXPECT_EQ(contract.passes[1].shared_bytes, 4096);
  EXPECT_EQ(contract_problem(contract, true), std::nullopt);
  // Round trip through the cache's JSON.
  const KernelContract again = contract_from_json(to_json(contract));
  EXPECT_EQ(to_json(again), to_json(contract));
}

TEST(KernelContract, UnusableDeclarationsAreNamed) {
  KernelContract contract;
  EXPECT_NE(contract_problem(contract, true)->find("declares no contract version"),
            std::string::npos);
  contract.version = 1;
  EXPECT_NE(contract_problem(contract, true)->find("defines no kernel"), std::string::npos);
  EXPECT_NE(contract_problem(contract, false)->find("defines no entry point"), std::string::npos);
  contract.passes.push_back({64, 32, 64, 32, 0});
  EXPECT_NE(contract_problem(contract, true)->find("more than the 1024"), std::string::npos);
  contract.passes[0] = {32, 8, 0, 8, 0};
  EXPECT_NE(contract_problem(contract, true)->find("must be at least 1"), std::string::npos);
  contract.passes[0] = {32, 8, 32, 8, 0};
  contract.passes.push_back({32, 8, 32, 8, 0});
  EXPECT_NE(contract_problem(contract, true)->find("CONVLAB_NEEDS_SCRATCH"), std::string::npos);
}

TEST(KernelContract, ThePointsADeclarationRulesOutAreNamed) {
  const Image image = testing::random_image(9, 7, 3, 1);
  const Filter gaussian = testing::filter_of("gaussian", 5);
  const Filter laplacian = testing::filter_of("laplacian", 3);
  KernelContract contract;
  contract.version = 1;
  contract.borders = 1u << static_cast<int>(Border::replicate);
  contract.outputs = 1;
  contract.channels = 1u << 1;
  const Problem zero{image, gaussian, Border::zero, OutputType::u8};
  EXPECT_NE(contract_unmet_need(contract, zero)->reason.find("not zero"), std::string::npos);
  const Problem f32{image, gaussian, Border::replicate, OutputType::f32};
  EXPECT_NE(contract_unmet_need(contract, f32)->reason.find("f32"), std::string::npos);
  const Problem rgb{image, gaussian, Border::replicate, OutputType::u8};
  EXPECT_NE(contract_unmet_need(contract, rgb)->reason.find("3 channel"), std::string::npos);
  contract.channels = 10;
  EXPECT_EQ(contract_unmet_need(contract, rgb), std::nullopt);
  contract.needs_separable = true;
  const Problem dense{image, laplacian, Border::replicate, OutputType::u8};
  EXPECT_NE(contract_unmet_need(contract, dense)->reason.find("not separable"), std::string::npos);
  contract.needs_separable = false;
  contract.max_ksize = 3;
  EXPECT_NE(contract_unmet_need(contract, rgb)->reason.find("larger than the 3"),
            std::string::npos);
  contract.max_ksize = 0;
  contract.constant_capacity = 30;  // 25 weights + 2 x 5 factors = 35
  EXPECT_NE(contract_unmet_need(contract, rgb)->reason.find("35 weights and factors"),
            std::string::npos);
}

TEST(KernelContract, ParamsBecomeMacrosAndPairsTwo) {
  UserKernelSource source;
  source.implementation = "mine";
  source.mentions = {true, false, true};
  const Params params = {
      {"BLOCK", {32, 8}}, {"TILE", 16}, {"FAST", true}, {"SCHEDULE", "dynamic"}, {"threads", 4}};
  const auto defines = variant_defines(source, params, {7, 3, OutputType::f32});
  const std::vector<Define> expected{
      {"BLOCK_X", "32"}, {"BLOCK_Y", "8"},       {"FAST", "1"},          {"SCHEDULE", "dynamic"},
      {"TILE", "16"},    {"CONVLAB_KSIZE", "7"}, {"CONVLAB_OUTPUT", "1"}};
  EXPECT_EQ(defines, expected);
  EXPECT_EQ(param_name_problem("TILE"), std::nullopt);
  EXPECT_NE(param_name_problem("threads"), std::nullopt);
  EXPECT_NE(param_name_problem("CONVLAB_KSIZE"), std::nullopt);
  EXPECT_NE(param_name_problem("a-b"), std::nullopt);
}

// NVRTC needs no GPU: the CUDA examples compile here wherever this build has it, and what they
// declare is read from their PTX. A build without NVRTC says so instead of compiling.
TEST(KernelContract, TheCudaExamplesCompileWithNvrtc) {
  if (auto missing = compiler_unavailable(KernelLanguage::cuda))
    GTEST_SKIP() << "skipped: " << *missing;
  const auto dir = testing::fresh_directory("cuda-examples");
  ::setenv("CONVLAB_KERNEL_CACHE", (dir / "cache").c_str(), 1);
  ::setenv("CONVLAB_KERNEL_HOST", CONVLAB_EXECUTABLE, 1);  // NVRTC's process is convlab's
  struct Case {
    const char* file;
    Params params;
    std::size_t passes;
    bool scratch, separable;
    int constant_capacity;
  };
  const std::vector<Case> cases{
      {"naive_global.cu", {{"BLOCK", {32, 8}}}, 1, false, false, 0},
      {"constant_weights.cu", {{"BLOCK", {16, 16}}}, 1, false, false, 4096},
      {"shared_tiled.cu", {{"TILE", 32}, {"BLOCK", {32, 8}}}, 1, false, false, 8192},
      {"separable_two_pass.cu", {{"BLOCK", {32, 8}}}, 2, true, true, 0},
  };
  for (const Case& c : cases) {
    const UserKernelSource source = read_kernel_source("example", kExamples + "/" + c.file, c.file);
    VariantRequest request{&source, c.params, {5, 3, OutputType::u8}, 90, {}};
    const CompiledVariant variant = compile_variant(request);
    EXPECT_FALSE(variant.cached) << c.file;
    EXPECT_EQ(variant.contract.version, 1) << c.file;
    EXPECT_EQ(variant.contract.passes.size(), c.passes) << c.file;
    EXPECT_EQ(variant.contract.needs_scratch, c.scratch) << c.file;
    EXPECT_EQ(variant.contract.needs_separable, c.separable) << c.file;
    EXPECT_EQ(variant.contract.constant_capacity, c.constant_capacity) << c.file;
    EXPECT_TRUE(std::filesystem::file_size(variant.artifact) > 0) << c.file;
    EXPECT_TRUE(compile_variant(request).cached) << c.file;
  }
  // The tiled example's shared memory follows its params: (32 + 5 - 1)^2 pixels x 3 x 4 bytes.
  const UserKernelSource tiled = read_kernel_source("t", kExamples + "/shared_tiled.cu", "t.cu");
  const CompiledVariant variant =
      compile_variant({&tiled, {{"TILE", 32}, {"BLOCK", {32, 8}}}, {5, 3, OutputType::u8}, 90, {}});
  EXPECT_EQ(variant.contract.passes[0].shared_bytes, 36 * 36 * 3 * 4);
  EXPECT_EQ(variant.contract.passes[0].pixels_x, 32);
  ::unsetenv("CONVLAB_KERNEL_CACHE");
  ::unsetenv("CONVLAB_KERNEL_HOST");
  std::filesystem::remove_all(dir);
}

TEST(KernelContract, ACudaCompileErrorNamesTheSourceLine) {
  if (auto missing = compiler_unavailable(KernelLanguage::cuda))
    GTEST_SKIP() << "skipped: " << *missing;
  const auto dir = testing::fresh_directory("cuda-error");
  ::setenv("CONVLAB_KERNEL_CACHE", (dir / "cache").c_str(), 1);
  ::setenv("CONVLAB_KERNEL_HOST", CONVLAB_EXECUTABLE, 1);  // NVRTC's process is convlab's
  testing::write_text(dir / "bad.cu",
                      "#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n"
                      "CONVLAB_CUDA_PASS(1, 32, 8, 32, 8) {\n  undeclared = 1;\n}\n");
  const UserKernelSource source = read_kernel_source("bad", (dir / "bad.cu").string(), "bad.cu");
  try {
    compile_variant({&source, Params::object(), {3, 3, OutputType::u8}, 90, {}});
    ADD_FAILURE() << "compiled";
  } catch (const KernelCompileError& error) {
    EXPECT_NE(error.log().find("bad.cu:4: error: identifier \"undeclared\" is undefined"),
              std::string::npos)
        << error.log();
    EXPECT_NE(error.heading().find("compiled with NVRTC"), std::string::npos) << error.heading();
  }
  ::unsetenv("CONVLAB_KERNEL_CACHE");
  ::unsetenv("CONVLAB_KERNEL_HOST");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace convlab
