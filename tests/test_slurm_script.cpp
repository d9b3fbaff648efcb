// `convlab slurm`: the scripts it writes, their quoting, and --submit with and without sbatch.
// The scripts are run here as SLURM would run them (SLURM_ARRAY_TASK_ID set); the real cluster
// is tests/test_slurm_cluster.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kSweep = R"(name: scripted
images:
  - {type: generated, sizes: [16, 24], channels: 1, seed: 3}
kernels:
  - {type: gaussian, size: [3, 5]}
implementations:
  sequential: {}
  openmp: {threads: [2]}
measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}
)";

class SlurmScript : public testing::DirectoryTest {
 protected:
  testing::CommandResult shell(const std::string& command) const {
    return testing::run_shell(command, dir_);
  }
};

TEST_F(SlurmScript, PathsAndFiltersWithShellMetacharactersReachConvlabUnchanged) {
  // A folder and a config whose names a shell would execute or split if they were not quoted.
  const std::string folder = "we'ird $(touch pwned) `touch pwned2` dir;x";
  fs::create_directories(dir_ / folder);
  testing::write_text(dir_ / folder / "c'1 $HOME.yaml", kSweep);
  // The path reaches convlab through a variable, so this test's own shell runs none of it.
  testing::write_text(dir_ / "path.txt", "./" + folder + "/c'1 $HOME.yaml");
  const auto written = shell(
      "\"$CONVLAB\" slurm \"$(cat path.txt)\" --shards 2 --out out --filter "
      "'implementation=sequential|openmp,kernel.size<=5'");
  ASSERT_EQ(written.exit_code, 0) << written.output;
  const std::string script = testing::read_text(dir_ / "out/slurm/shards.sbatch");
  EXPECT_NE(script.find("#SBATCH --array=0-1\n"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --job-name=convlab-scripted\n"), std::string::npos);
  EXPECT_NE(script.find("--filter 'implementation=sequential|openmp,kernel.size<=5'"),
            std::string::npos)
      << script;
  // Both tasks and the merge, as SLURM would start them.
  for (int task = 0; task < 2; ++task) {
    const auto ran =
        shell("SLURM_ARRAY_TASK_ID=" + std::to_string(task) + " bash out/slurm/shards.sbatch");
    EXPECT_EQ(ran.exit_code, 0) << ran.output;
  }
  const auto merged = shell("bash out/slurm/merge.sbatch");
  EXPECT_EQ(merged.exit_code, 0) << merged.output;
  const json results = json::parse(testing::read_text(dir_ / "out/results.json"));
  EXPECT_EQ(results["records"].size(), 8u);
  EXPECT_EQ(results["runs"][0]["config"]["path"].get<std::string>(),
            fs::absolute(dir_ / folder / "c'1 $HOME.yaml").lexically_normal().string());
  for (const char* name : {"pwned", "pwned2"}) {
    EXPECT_FALSE(fs::exists(dir_ / name)) << "a shell ran a part of a path";
    EXPECT_FALSE(fs::exists(dir_ / folder / name));
  }
}

TEST_F(SlurmScript, DirectivesCarryTheOptionsAndSeveralGpusRunDeviceWorkers) {
  testing::write_text(dir_ / "s.yaml", kSweep);
  const auto written = testing::run_convlab(
      "slurm s.yaml --shards 4 --partition gpu --gpus-per-task 2 --cpus-per-task 4 "
      "--time 1-02:00:00 --account proj_1 --out out",
      dir_);
  ASSERT_EQ(written.exit_code, 0) << written.output;
  const std::string shards = testing::read_text(dir_ / "out/slurm/shards.sbatch");
  for (const char* line :
       {"#SBATCH --array=0-3\n", "#SBATCH --partition=gpu\n", "#SBATCH --gpus-per-task=2\n",
        "#SBATCH --cpus-per-task=4\n", "#SBATCH --time=1-02:00:00\n", "#SBATCH --account=proj_1\n",
        "--shard \"${SLURM_ARRAY_TASK_ID}/4\"", " --devices all &\n"})
    EXPECT_NE(shards.find(line), std::string::npos) << line << "\n" << shards;
  const std::string merge = testing::read_text(dir_ / "out/slurm/merge.sbatch");
  for (const char* line :
       {"#SBATCH --partition=gpu\n", "#SBATCH --kill-on-invalid-dep=yes\n", "merge '"})
    EXPECT_NE(merge.find(line), std::string::npos) << line << "\n" << merge;
  EXPECT_EQ(merge.find("--gpus-per-task"), std::string::npos);
  EXPECT_TRUE(fs::is_directory(dir_ / "out/slurm/logs"));
  EXPECT_NE(written.output.find("submit with: sh "), std::string::npos) << written.output;
  // A balance line for the shards.
  EXPECT_NE(written.output.find("problem groups"), std::string::npos);
  // More shards than the plan has problem groups would be array tasks with nothing to do.
  const auto too_many = testing::run_convlab("slurm s.yaml --shards 8 --out more", dir_);
  EXPECT_EQ(too_many.exit_code, 2) << too_many.output;
  EXPECT_NE(too_many.output.find("--shards 8: the plan has 4 problem groups"), std::string::npos)
      << too_many.output;
  EXPECT_FALSE(fs::exists(dir_ / "more/slurm"));
}

TEST_F(SlurmScript, SubmitWithoutSbatchExitsTwoAndSaysWhatToDo) {
  testing::write_text(dir_ / "s.yaml", kSweep);
  const auto result =
      testing::run_shell("PATH=/nonexistent \"$CONVLAB\" slurm s.yaml --shards 2 --submit", dir_);
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("sbatch not found on this machine; install slurm-client"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("outputs/scripted/slurm/submit.sh on the cluster's login node"),
            std::string::npos)
      << result.output;
  EXPECT_TRUE(fs::exists(dir_ / "outputs/scripted/slurm/submit.sh"));
}

TEST_F(SlurmScript, SubmitHandsTheArrayAndTheMergeAfterItToSbatch) {
  testing::write_text(dir_ / "s.yaml", kSweep);
  fs::create_directories(dir_ / "bin");
  // An sbatch that notes its arguments and answers as sbatch --parsable does.
  testing::write_text(dir_ / "bin/sbatch",
                      "#!/bin/sh\n"
                      "echo \"$*\" >> \"$(dirname \"$0\")/calls\"\n"
                      "n=$(wc -l < \"$(dirname \"$0\")/calls\")\n"
                      "echo \"$((100 + n));cluster\"\n");
  fs::permissions(dir_ / "bin/sbatch", fs::perms::owner_all);
  const auto submitted = testing::run_shell(
      "PATH=\"$PWD/bin:$PATH\" \"$CONVLAB\" slurm s.yaml --shards 3 --submit", dir_);
  ASSERT_EQ(submitted.exit_code, 0) << submitted.output;
  EXPECT_NE(submitted.output.find("submitted array job 101 (3 shards) and merge job 102"),
            std::string::npos)
      << submitted.output;
  EXPECT_NE(submitted.output.find("squeue -j 101,102"), std::string::npos);
  const std::string calls = testing::read_text(dir_ / "bin/calls");
  const std::string folder =
      fs::absolute(dir_ / "outputs/scripted/slurm").lexically_normal().string();
  EXPECT_EQ(calls, "--parsable " + folder + "/shards.sbatch\n--parsable --dependency=afterok:101 " +
                       folder + "/merge.sbatch\n");
  // submit.sh does the same on a login node.
  fs::remove(dir_ / "bin/calls");
  const auto by_script =
      testing::run_shell("PATH=\"$PWD/bin:$PATH\" sh outputs/scripted/slurm/submit.sh", dir_);
  EXPECT_EQ(by_script.exit_code, 0) << by_script.output;
  EXPECT_NE(by_script.output.find("array job 101 (3 shards), merge job 102"), std::string::npos)
      << by_script.output;
  EXPECT_EQ(testing::read_text(dir_ / "bin/calls"), calls);
}

}  // namespace
}  // namespace convlab
