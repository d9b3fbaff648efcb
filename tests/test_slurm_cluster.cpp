// convlab on a real SLURM cluster: scripts/slurm-cluster.sh starts munged, slurmctld and slurmd on
// this machine (one node), `convlab slurm --submit` hands a small CPU sweep to it as an array job
// of 4 shards plus the merge job, and the merged results must equal a single-process run's. Then
// one array task is cancelled mid-run: merge must name what is missing, and submitting that
// shard alone again must complete the results. Skipped, with the reason, without root or the
// packages (scripts/install-deps.sh test installs them).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <tuple>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// About a second of measuring per shard on a 2-core machine: long enough to cancel a task in
// the middle of its shard.
const char* kSweep = R"(name: sweep
images:
  - {type: generated, sizes: [64, 96], channels: [1, 3], seed: 7}
kernels:
  - {type: gaussian, size: [3, 5, 7]}
border: [reflect, zero]
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 10, max_reps: 10, max_seconds: 5}
)";
constexpr size_t kPoints = 2 * 2 * 3 * 2 * 3;

const std::string kClusterScript = std::string(CONVLAB_SOURCE_TREE) + "/scripts/slurm-cluster.sh";

using Outcome = std::tuple<std::string, std::string, std::string>;  // point id, status, verdict

std::set<Outcome> outcomes(const fs::path& results) {
  std::set<Outcome> found;
  const json document = json::parse(testing::read_text(results));
  for (const auto& record : document["records"]) {
    const json& verification = record["verification"];
    found.insert({record["point_id"], record["status"],
                  verification.is_object() ? verification["verdict"].get<std::string>() : ""});
  }
  return found;
}

class SlurmCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::fresh_directory("slurm");  // short: munged's socket path has 108 bytes
    const auto started = testing::run_shell("'" + kClusterScript + "' start cluster", dir_);
    if (started.exit_code == 77) GTEST_SKIP() << started.output;
    ASSERT_EQ(started.exit_code, 0) << started.output;
    running_ = true;
    testing::write_text(dir_ / "sweep.yaml", kSweep);
  }

  void TearDown() override {
    if (running_) {
      const auto stopped = testing::run_shell("'" + kClusterScript + "' stop cluster", dir_);
      EXPECT_EQ(stopped.exit_code, 0) << stopped.output;
      // Every daemon it started is gone.
      for (const char* daemon : {"munged", "slurmctld", "slurmd"})
        EXPECT_FALSE(fs::exists(dir_ / "cluster" / (std::string(daemon) + ".pid"))) << daemon;
    }
    fs::remove_all(dir_);
  }

  // A command with the cluster's configuration.
  testing::CommandResult slurm(const std::string& command) const {
    return testing::run_shell(
        "export SLURM_CONF='" + (dir_ / "cluster/slurm.conf").string() + "'\n" + command, dir_);
  }

  // Waits until none of the jobs is queued or running (at most two minutes).
  void wait_for_jobs(const std::string& ids) const {
    const auto waited = slurm(
        "for i in $(seq 1200); do\n"
        "  squeue -h -j " +
        ids +
        " 2>/dev/null | grep -q . || exit 0\n"
        "  sleep 0.1\n"
        "done\n"
        "squeue; exit 1");
    ASSERT_EQ(waited.exit_code, 0) << "jobs " << ids << " still queued:\n" << waited.output;
  }

  // Submits the sweep as 4 shards into `out`; returns the array and merge job ids.
  std::pair<std::string, std::string> submit(const std::string& out) const {
    const auto submitted =
        slurm("\"$CONVLAB\" slurm sweep.yaml --shards 4 --out " + out + " --submit");
    EXPECT_EQ(submitted.exit_code, 0) << submitted.output;
    std::smatch ids;
    EXPECT_TRUE(std::regex_search(submitted.output, ids,
                                  std::regex("array job ([0-9]+) \\(4 shards\\) and merge job "
                                             "([0-9]+)")))
        << submitted.output;
    return {ids[1], ids[2]};
  }

  fs::path dir_;
  bool running_ = false;
};

TEST_F(SlurmCluster, ArrayJobOfShardsMergesToTheSingleProcessResultAndACancelledShardIsRedone) {
  // Four shards and the merge job after them, while a single process runs the same sweep.
  const auto [array, merge] = submit("sharded");
  const auto single = testing::run_shell(
      "\"$CONVLAB\" run sweep.yaml --out single --quiet > single.log 2>&1; echo \"exit $?\"", dir_);
  ASSERT_EQ(single.output, "exit 0\n") << testing::read_text(dir_ / "single.log");
  const std::set<Outcome> expected = outcomes(dir_ / "single/results.json");
  ASSERT_EQ(expected.size(), kPoints);
  wait_for_jobs(array + "," + merge);
  EXPECT_NE(testing::read_text(dir_ / ("sharded/slurm/logs/merge." + merge + ".log"))
                .find("merged 4 of 4 shard files (" + std::to_string(kPoints) + " records)"),
            std::string::npos);
  EXPECT_EQ(outcomes(dir_ / "sharded/results.json"), expected);
  for (int shard = 0; shard < 4; ++shard)
    EXPECT_TRUE(
        fs::exists(dir_ / ("sharded/shards/shard-" + std::to_string(shard) + "-of-4.json")));

  // Shard 2 is cancelled once it has measured its first point: merge names what is missing.
  const auto [faulty_array, faulty_merge] = submit("faulty");
  const auto cancelled = slurm(
      "for i in $(seq 3000); do\n"
      "  grep -qs '\"record\"' faulty/shards/shard-2-of-4.journal && break\n"
      "  sleep 0.01\n"
      "done\n"
      "scancel " +
      faulty_array + "_2");
  ASSERT_EQ(cancelled.exit_code, 0) << cancelled.output;
  wait_for_jobs(faulty_array + "," + faulty_merge);
  EXPECT_NE(
      slurm("grep 'JobName=convlab-sweep-merge\\|Name=convlab-sweep-merge' cluster/jobcomp.txt")
          .output.find("JobState=CANCELLED"),
      std::string::npos)
      << "the merge job waits afterok on a cancelled task, so it is cancelled too";
  const auto incomplete = testing::run_convlab("merge faulty", dir_);
  EXPECT_EQ(incomplete.exit_code, 1) << incomplete.output;
  std::smatch missing;
  ASSERT_TRUE(std::regex_search(incomplete.output, missing,
                                std::regex("([0-9]+) points? of shard 2 missing \\(([0-9]+) "
                                           "planned\\); measure them with: convlab run ")))
      << incomplete.output;
  EXPECT_GT(std::stoul(missing[1]), 0u);
  EXPECT_LT(std::stoul(missing[1]), std::stoul(missing[2])) << "cancelled before its first point";
  EXPECT_LT(outcomes(dir_ / "faulty/results.json").size(), kPoints);

  // Only that shard again: its last point makes the set complete, so it merges them all.
  const auto again = slurm("sbatch --parsable --array=2 faulty/slurm/shards.sbatch");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  wait_for_jobs(again.output.substr(0, again.output.find_first_of(";\n")));
  const std::string log = slurm("cat faulty/slurm/logs/shard-2-of-4." +
                                again.output.substr(0, again.output.find_first_of(";\n")) + ".log")
                              .output;
  // It measured only the points it had no record of.
  const size_t planned = std::stoul(missing[2]), left = std::stoul(missing[1]);
  EXPECT_NE(log.find("kept " + std::to_string(planned - left) + " \u00b7 ran " +
                     std::to_string(left) + " \u00b7"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("every shard of 4 is done; merged into"), std::string::npos) << log;
  const auto complete = testing::run_convlab("merge faulty", dir_);
  EXPECT_EQ(complete.exit_code, 0) << complete.output;
  EXPECT_EQ(outcomes(dir_ / "faulty/results.json"), expected);
}

// Where no cgroup file system is mounted on /sys/fs/cgroup (a chroot, a container), as in a fresh
// Debian made with debootstrap: slurmd used to stop with "No filesystem mounted on
// /sys/fs/cgroup ... slurmd initialization failed". The cluster starts there and runs a job. On a
// machine with cgroups mounted that case is made in a mount namespace of the test's own, with
// /sys/fs/cgroup unmounted there only.
TEST(SlurmClusterScript, StartsAndRunsAJobWithoutACgroupFileSystem) {
  if (::geteuid() != 0) GTEST_SKIP() << "starting munged, slurmctld and slurmd needs root";
  const fs::path dir = testing::fresh_directory("slurm-nocg");
  // The cluster script is $1; its stop runs whatever happens once it started.
  testing::write_text(dir / "no-cgroups.sh", R"sh(set -u
if [ "$(stat -f -c %T /sys/fs/cgroup)" != sysfs ]; then
  umount -R /sys/fs/cgroup
  if [ "$(stat -f -c %T /sys/fs/cgroup)" != sysfs ]; then
    echo 'a file system is still mounted on /sys/fs/cgroup'; exit 1
  fi
fi
"$1" start cluster || exit $?
trap '"$1" stop cluster' EXIT
export SLURM_CONF="$PWD/cluster/slurm.conf"
timeout 60 sbatch --wait --quiet --output=job.log --wrap 'echo ran' || exit 1
cat job.log
)sh");
  std::string run = "bash no-cgroups.sh '" + kClusterScript + "'";
  if (testing::run_shell("stat -f -c %T /sys/fs/cgroup").output != "sysfs\n") {
    // Unmounted in this namespace only: private, so that nothing reaches the machine's mounts.
    if (testing::run_shell("unshare --mount --propagation private true").exit_code != 0)
      GTEST_SKIP() << "cgroups are mounted on /sys/fs/cgroup here, and unshare --mount "
                      "--propagation private is refused: no mount namespace to unmount them in";
    run = "unshare --mount --propagation private " + run;
  }
  const auto result = testing::run_shell(run + "; echo \"exit $?\"", dir);
  if (result.output.find("skipped: ") == 0) GTEST_SKIP() << result.output;
  EXPECT_NE(result.output.find("ran\nexit 0\n"), std::string::npos) << result.output;
  for (const char* daemon : {"munged", "slurmctld", "slurmd"})
    EXPECT_FALSE(fs::exists(dir / "cluster" / (std::string(daemon) + ".pid"))) << daemon;
}

}  // namespace
}  // namespace convlab
