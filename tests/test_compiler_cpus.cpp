// Compilers of users' kernels run on the cores the measuring thread leaves. OpenMP's binding pins
// convlab's main thread to one core, and every thread and process started from it inherits that
// core: compiles started ahead of the measurements then all took turns on it.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "user_kernels/machine_cpus.hpp"
#include "user_kernels/program_output.hpp"

namespace convlab {
namespace {

// The Cpus_allowed_list line a program started by run_program reads of itself.
std::string child_cpu_list() {
  const ProgramOutput out = run_program({"grep", "^Cpus_allowed_list", "/proc/self/status"}, 10.0);
  EXPECT_EQ(out.exit_code, 0) << out.output << out.failure;
  std::istringstream line(out.output);
  std::string key, list;
  line >> key >> list;
  return list;
}

// Pins the calling thread to `cpu` while it lives, as OpenMP's binding pins the main thread.
class PinnedThread {
 public:
  explicit PinnedThread(int cpu) {
    sched_getaffinity(0, sizeof saved_, &saved_);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pinned_ = sched_setaffinity(0, sizeof one, &one) == 0;
  }
  ~PinnedThread() { sched_setaffinity(0, sizeof saved_, &saved_); }
  bool pinned() const { return pinned_; }

 private:
  cpu_set_t saved_;
  bool pinned_ = false;
};

int allowed_cpu_count() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  sched_getaffinity(0, sizeof allowed, &allowed);
  return CPU_COUNT(&allowed);
}

TEST(CompilerCpus, AProgramStartedFromAPinnedThreadRunsOnTheOtherCores) {
  if (allowed_cpu_count() < 2) GTEST_SKIP() << "one CPU here: there is no other core";
  cpu_set_t allowed;
  sched_getaffinity(0, sizeof allowed, &allowed);
  int first = 0;
  while (!CPU_ISSET(first, &allowed)) ++first;
  PinnedThread pinned(first);
  ASSERT_TRUE(pinned.pinned());
  const std::string list = child_cpu_list();
  ASSERT_FALSE(list.empty());
  // The pinned core is not among the child's; some other core is.
  const cpu_set_t cpus = compiler_cpus();
  EXPECT_FALSE(CPU_ISSET(first, &cpus));
  EXPECT_GE(CPU_COUNT(&cpus), 1);
  EXPECT_NE(list, std::to_string(first)) << "the child inherited the pinned core alone";
  std::ostringstream expected;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &cpus)) expected << cpu << ",";
  // The kernel prints ranges ("1-15"); compare the sets instead of the text.
  cpu_set_t seen;
  CPU_ZERO(&seen);
  std::istringstream parts(list);
  std::string part;
  while (std::getline(parts, part, ',')) {
    const auto dash = part.find('-');
    const int low = std::stoi(part.substr(0, dash));
    const int high = dash == std::string::npos ? low : std::stoi(part.substr(dash + 1));
    for (int cpu = low; cpu <= high; ++cpu) CPU_SET(cpu, &seen);
  }
  cpu_set_t wanted = cpus;
  CPU_AND(&wanted, &wanted, &allowed);  // a cpuset keeps the child within it
  EXPECT_TRUE(CPU_EQUAL(&seen, &wanted)) << "child CPUs " << list << ", wanted " << expected.str();
}

// OpenMP's binding, set by convlab for its CPU rungs, would pin a compiler that loads OpenMP (the
// NVRTC child is convlab itself) to the first core of its set: a program started by run_program
// never gets it.
TEST(CompilerCpus, AProgramStartedDoesNotInheritOpenMpBinding) {
  const char* bind = std::getenv("OMP_PROC_BIND");
  const char* places = std::getenv("OMP_PLACES");
  const std::string saved_bind = bind ? bind : "", saved_places = places ? places : "";
  setenv("OMP_PROC_BIND", "close", 1);
  setenv("OMP_PLACES", "cores", 1);
  setenv("CONVLAB_TEST_KEPT_VARIABLE", "kept", 1);
  const ProgramOutput out = run_program({"env"}, 10.0);
  bind ? setenv("OMP_PROC_BIND", saved_bind.c_str(), 1) : unsetenv("OMP_PROC_BIND");
  places ? setenv("OMP_PLACES", saved_places.c_str(), 1) : unsetenv("OMP_PLACES");
  unsetenv("CONVLAB_TEST_KEPT_VARIABLE");
  ASSERT_EQ(out.exit_code, 0) << out.output << out.failure;
  EXPECT_EQ(out.output.find("OMP_PROC_BIND="), std::string::npos) << out.output;
  EXPECT_EQ(out.output.find("OMP_PLACES="), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("CONVLAB_TEST_KEPT_VARIABLE=kept"), std::string::npos) << out.output;
}

TEST(CompilerCpus, AProgramStartedFromAnUnpinnedThreadRunsOnEveryCore) {
  cpu_set_t allowed;
  sched_getaffinity(0, sizeof allowed, &allowed);
  const cpu_set_t machine = machine_cpus();
  if (!CPU_EQUAL(&allowed, &machine)) GTEST_SKIP() << "this test runs within a cpuset";
  const cpu_set_t cpus = compiler_cpus();
  EXPECT_TRUE(CPU_EQUAL(&cpus, &machine));
}

}  // namespace
}  // namespace convlab
