// What a build holds. Where configure found no GPU, convlab leaves the CUDA rungs' kernels out
// (cmake/cuda.cmake, CONVLAB_CUDA_RUNGS): the test build must still compile every one of them, so
// that a change that breaks a rung fails `make test` on a machine without a GPU too.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace fs = std::filesystem;
using convlab::testing::CommandResult;
using convlab::testing::run_convlab;

namespace {

std::vector<std::string> rung_sources() {
  std::vector<std::string> names;
  const std::regex rung(R"(k[0-9].*\.cu)");
  for (const auto& entry : fs::directory_iterator(fs::path(CONVLAB_SOURCE_TREE) / "src/impl/cuda"))
    if (std::regex_match(entry.path().filename().string(), rung))
      names.push_back(entry.path().filename().string());
  return names;
}

}  // namespace

TEST(BuildParts, TheTestBuildCompilesEveryCudaRung) {
  const std::vector<std::string> rungs = rung_sources();
  ASSERT_GE(rungs.size(), 9u) << "the ladder's files were not found";
  const CommandResult version = run_convlab("--version", fs::temp_directory_path());
  ASSERT_EQ(version.exit_code, 0) << version.output;
  if (std::regex_search(version.output, std::regex("CUDA: +not built in")))
    GTEST_SKIP() << "built without CUDA (no nvcc): no rung is compiled anywhere";
  const bool in_convlab = std::regex_search(version.output, std::regex("CUDA rungs: +built in"));
  const fs::path build = fs::path(CONVLAB_EXECUTABLE).parent_path();
  const fs::path objects = build / "CMakeFiles" /
                           (in_convlab ? "convlab_engine.dir" : "convlab_cuda_rungs.dir") /
                           "src/impl/cuda";
  for (const std::string& rung : rungs)
    EXPECT_TRUE(fs::is_regular_file(objects / (rung + ".o")))
        << rung << " was not compiled into " << objects;
}
