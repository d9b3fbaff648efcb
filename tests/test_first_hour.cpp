// What a new user meets first: the Makefile (checked with `make -n`, so nothing is built or
// installed) and the README's examples.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "app/config_loading.hpp"
#include "impl/registry.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

testing::CommandResult make_dry_run(const std::string& target, const fs::path& build_dir) {
  return testing::run_shell("cd '" CONVLAB_SOURCE_TREE "' && make -n " + target + " BUILD_DIR='" +
                            build_dir.string() + "' JOBS=2");
}

bool configures(const std::string& output) {
  return output.find("cmake -S . -B") != std::string::npos;
}

TEST(MakeTargets, AFailedConfigureIsRunAgain) {
  const fs::path dir = testing::fresh_directory("failed-configure");
  // What a configure that stopped at a missing package leaves: a cache, no Makefile.
  testing::write_text(dir / "CMakeCache.txt", "# written by a failed configure\n");
  const auto after_failure = make_dry_run("build", dir);
  EXPECT_EQ(after_failure.exit_code, 0) << after_failure.output;
  EXPECT_TRUE(configures(after_failure.output)) << after_failure.output;

  testing::write_text(dir / "Makefile", "# written by a successful configure\n");
  const auto configured = make_dry_run("build", dir);
  EXPECT_FALSE(configures(configured.output)) << configured.output;
  EXPECT_NE(configured.output.find("cmake --build " + dir.string() + " -j 2"), std::string::npos)
      << configured.output;
  fs::remove_all(dir);
}

TEST(MakeTargets, RunningAndReportingBuildOnlyTheExecutable) {
  const fs::path dir = testing::fresh_directory("convlab-only");
  testing::write_text(dir / "Makefile", "# configured\n");
  const std::string only_convlab = "cmake --build " + dir.string() + " -j 2 --target convlab";
  const std::string everything = "cmake --build " + dir.string() + " -j 2\n";
  for (const char* target : {"experiment", "report", "dry-run", "validate", "list"}) {
    // The report's own steps may stop the dry run (there is no executable here); the build step
    // comes first.
    const auto result = make_dry_run(target, dir);
    EXPECT_NE(result.output.find(only_convlab), std::string::npos) << target << result.output;
    EXPECT_EQ(result.output.find(everything), std::string::npos) << target << result.output;
  }
  const auto test = make_dry_run("test", dir);
  EXPECT_NE(test.output.find(everything), std::string::npos) << test.output;
  fs::remove_all(dir);
}

TEST(MakeTargets, FilterNeedsNoNestedQuoting) {
  const fs::path dir = testing::fresh_directory("filter-variable");
  testing::write_text(dir / "Makefile", "# configured\n");
  const auto result = make_dry_run(
      "experiment CONFIG=configs/quick.yaml FILTER='kernel.size<=5,implementation=openmp|cpu_rows'",
      dir);
  EXPECT_NE(result.output.find("convlab run 'configs/quick.yaml' --filter "
                               "'kernel.size<=5,implementation=openmp|cpu_rows'"),
            std::string::npos)
      << result.output;
  fs::remove_all(dir);
}

TEST(Readme, FirstUsingItExampleRunsWithoutAGpu) {
  const std::string readme = testing::read_text(CONVLAB_SOURCE_TREE "/README.md");
  const size_t section = readme.find("## Using it");
  ASSERT_NE(section, std::string::npos);
  std::smatch example;
  const std::string rest = readme.substr(section);
  ASSERT_TRUE(std::regex_search(rest, example,
                                std::regex("make experiment CONFIG=(configs/[a-z_]+\\.yaml)")));
  const Config config = load_config_for_command(CONVLAB_SOURCE_TREE "/" + example[1].str()).config;
  for (const auto& sweep : config.implementations)
    EXPECT_EQ(find_implementation(sweep.name)->family, Family::cpu)
        << example[1] << " runs " << sweep.name << ", which needs a GPU";
}

}  // namespace
}  // namespace convlab
