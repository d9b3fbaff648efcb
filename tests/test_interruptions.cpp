// Runs stopped from outside: SIGINT and SIGTERM end a run with the results file complete, no
// temporary file, a line saying what was kept and exit 130 / 143; kill -9 at random moments never
// leaves an invalid results file, and running again resumes to the full plan.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// About two seconds of small points on this 2-core machine.
const char* kLongerConfig = R"(name: longer
images:
  - {type: generated, sizes: [64, 96, 128, 160, 192, 224, 256], channels: [1, 3], seed: 5}
kernels:
  - {type: gaussian, size: [3, 5, 7]}
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 2, max_reps: 2, max_seconds: 0.05}
)";
constexpr size_t kLongerPoints = 7 * 2 * 3 * 3;

class Interruptions : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "longer.yaml", kLongerConfig);
  }

  json results() const {
    return json::parse(testing::read_text(dir_ / "outputs/longer/results.json"));
  }

  void expect_no_temporaries() const {
    for (const auto& entry : fs::directory_iterator(dir_ / "outputs/longer"))
      EXPECT_NE(entry.path().extension(), ".tmp") << "left behind: " << entry.path();
  }

  // Starts a run, waits until it has written its first point (to the journal, which the run folds
  // into results.json when it stops), sends `signal`, and returns the
  // shell's report of the exit status ("exit N") followed by the run's output.
  std::string interrupt_with(const std::string& signal, const std::string& environment = "") {
    const auto result = testing::run_shell(
        environment +
            " timeout 120 \"$CONVLAB\" run longer.yaml > run.log 2>&1 &\n"
            "PID=$!\n"
            "for i in $(seq 600); do\n"
            "  cat outputs/longer/results.json outputs/longer/results.journal 2>/dev/null |\n"
            "    grep -q '\"run_id\"' && break\n"
            "  sleep 0.05\n"
            "done\n"
            "kill -" +
            signal +
            " $PID\n"
            "wait $PID\n"
            "echo \"exit $?\"\n"
            "cat run.log",
        dir_);
    return result.output;
  }

  void expect_interrupted_cleanly(const std::string& output, int exit_code) {
    EXPECT_EQ(output.rfind("exit " + std::to_string(exit_code) + "\n", 0), 0u) << output;
    std::smatch match;
    ASSERT_TRUE(
        std::regex_search(output, match,
                          std::regex("interrupted: ([0-9]+) of " + std::to_string(kLongerPoints) +
                                     " points done; results kept in "
                                     "outputs/longer/results.json; run again to resume")))
        << output;
    const size_t done = std::stoul(match[1]);
    const json doc = results();  // complete, valid JSON
    EXPECT_GE(done, 1u);
    EXPECT_LT(done, kLongerPoints) << "the run finished before the signal: make it longer";
    EXPECT_EQ(doc["records"].size(), done) << "every point said done is in the file";
    EXPECT_TRUE(doc["run"]["interrupted"].is_string()) << doc["run"];
    EXPECT_TRUE(doc["run"]["finished"].is_null());
    expect_no_temporaries();
  }
};

TEST_F(Interruptions, SigintKeepsTheResultsAndSaysSo) {
  expect_interrupted_cleanly(interrupt_with("INT"), 130);
  // Running again resumes: the points kept are not measured again.
  const auto resumed = testing::run_convlab("run longer.yaml", dir_);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(resumed.output.find("kept 0 "), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("kept "), std::string::npos) << resumed.output;
  EXPECT_EQ(results()["records"].size(), kLongerPoints);
}

TEST_F(Interruptions, SigtermKeepsTheResultsAndSaysSo) {
  expect_interrupted_cleanly(interrupt_with("TERM"), 143);
}

// A thread started by a shared library before main() (CUDA's or OpenCV's helpers on some
// machines) does not block the signals; the signal must still reach the results write.
TEST_F(Interruptions, SigtermTakenByAThreadStartedBeforeMainStillKeepsTheResults) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    expect_interrupted_cleanly(
        interrupt_with("TERM", std::string("LD_PRELOAD=") + CONVLAB_STRAY_THREAD_LIBRARY), 143);
    std::filesystem::remove_all(dir_ / "outputs");
  }
}

TEST_F(Interruptions, KillNineAtRandomMomentsNeverBreaksTheFileAndRunsResume) {
  std::mt19937 random(20261122);
  std::uniform_int_distribution<int> delay_ms(0, 400);
  size_t before = 0, killed_midway = 0;
  for (int round = 0; round < 4; ++round) {
    const int delay = delay_ms(random);
    // The random moment is counted from the first point on disk, not from the start, so that a
    // loaded machine's slower start does not make every kill land before the run began.
    const auto killed = testing::run_shell(
        "\"$CONVLAB\" run longer.yaml > run.log 2>&1 &\n"
        "PID=$!\n"
        "for i in $(seq 600); do\n"
        "  cat outputs/longer/results.json outputs/longer/results.journal 2>/dev/null |\n"
        "    grep -q '\"run_id\"' && break\n"
        "  sleep 0.02\n"
        "done\n"
        "sleep " +
            std::to_string(delay / 1000.0) +
            "\n"
            "kill -9 $PID\n"
            "wait $PID\n"
            "echo \"exit $?\"",
        dir_);
    killed_midway += killed.output.find("exit 137") != std::string::npos;
    if (!fs::exists(dir_ / "outputs/longer/results.json")) continue;
    json doc;
    ASSERT_NO_THROW(doc = results()) << "round " << round << " after " << delay << " ms";
    EXPECT_GE(doc["records"].size(), before) << "records were lost";
    before = doc["records"].size();
  }
  ASSERT_GE(killed_midway, 2u) << "the runs finished before kill -9: make them longer";
  const auto resumed = testing::run_shell("timeout 120 \"$CONVLAB\" run longer.yaml", dir_);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  const json doc = results();
  EXPECT_EQ(doc["records"].size(), kLongerPoints);
  for (const auto& record : doc["records"]) EXPECT_EQ(record["status"], "ok");
  expect_no_temporaries();  // the killed writers' temporary files are gone
}

}  // namespace
}  // namespace convlab
