// The ETA of `convlab run --devices` against the committed gpu_pair runs on one, two and four
// H200s (outputs/gpu_pair_devices, docs/scale-out.md): replayed from their workers' recorded
// problems (run/eta_replay.hpp), the estimate before the run and elapsed + ETA at the end of every
// problem group must be within 30 % of the time the run took.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "run/eta_replay.hpp"
#include "store/results_file.hpp"

namespace convlab {
namespace {

const std::string kRoot = std::string(CONVLAB_TEST_DATA) + "/../..";

TEST(EtaReplay, TheCommittedGpuPairRunsAreForecastWithinThirtyPercent) {
  for (const char* run : {"one_gpu", "two_gpus", "four_gpus"}) {
    const std::string path = kRoot + "/outputs/gpu_pair_devices/" + run + "/results.json";
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    const EtaReplay replay = replay_eta(read_results(path), path, kRoot);
    SCOPED_TRACE(run);
    EXPECT_EQ(replay.groups, 12u);
    EXPECT_EQ(replay.points, 372u);
    EXPECT_EQ(replay.unmatched, 0u);
    EXPECT_EQ(replay.moments.size(), 12u);
    EXPECT_GT(replay.measured, 20.0);
    EXPECT_LE(std::abs(replay.estimate_error()), 0.30)
        << "estimate " << replay.estimate << " s, measured " << replay.measured << " s";
    EXPECT_LE(replay.worst_error(), 0.30);
    // The last group's end leaves nothing: elapsed + 0 is within the last problems' gap.
    EXPECT_NEAR(replay.moments.back().predicted, replay.moments.back().at, 1e-9);
  }
}

TEST(EtaReplay, WorkersOfTheCommittedRunsAreReplayedWithTheirOwnGroups) {
  const std::string path = kRoot + "/outputs/gpu_pair_devices/two_gpus/results.json";
  const EtaReplay replay = replay_eta(read_results(path), path, kRoot);
  EXPECT_EQ(replay.workers, 2);
  EXPECT_NEAR(replay.measured, 55.7, 0.1);  // docs/scale-out.md: worker 1's wall time
  EXPECT_THROW(replay_eta(ResultsFile{}, "empty.json", kRoot), std::runtime_error);
}

}  // namespace
}  // namespace convlab
