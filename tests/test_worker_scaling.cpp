// What makes device workers scale (docs/scale-out.md, "Where a device worker's time goes"): the
// phase times every run records, the CPUs each worker is given (whole physical cores of a machine
// described under a /sys of the test's own), the reference made ahead on a background thread and
// the parallel verification, which must both give exactly what the plain code gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>

#include "config/config.hpp"
#include "measure/cpu_topology.hpp"
#include "plan/plan.hpp"
#include "reference/reference.hpp"
#include "run/point_executor.hpp"
#include "run/problem_ahead.hpp"
#include "run/worker_cpus.hpp"
#include "store/results_file.hpp"
#include "test_support.hpp"
#include "verify/verify.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// A two-socket machine as Linux numbers it: 4 cores per package, CPU c and c + 8 the two
// hyperthreads of one core; node 0 holds package 0.
void write_machine(const fs::path& sys) {
  for (int cpu = 0; cpu < 16; ++cpu) {
    const fs::path topology =
        sys / "devices/system/cpu" / ("cpu" + std::to_string(cpu)) / "topology";
    fs::create_directories(topology);
    const int core = cpu % 8;
    testing::write_text(topology / "physical_package_id", std::to_string(core / 4) + "\n");
    testing::write_text(topology / "core_id", std::to_string(core % 4) + "\n");
  }
  fs::create_directories(sys / "devices/system/node/node0");
  fs::create_directories(sys / "devices/system/node/node1");
  testing::write_text(sys / "devices/system/node/node0/cpulist", "0-3,8-11\n");
  testing::write_text(sys / "devices/system/node/node1/cpulist", "4-7,12-15\n");
  fs::create_directories(sys / "bus/pci/devices/0000:3b:00.0");
  testing::write_text(sys / "bus/pci/devices/0000:3b:00.0/numa_node", "1\n");
  fs::create_directories(sys / "bus/pci/devices/0000:00:06.0");
  testing::write_text(sys / "bus/pci/devices/0000:00:06.0/numa_node", "-1\n");
}

std::vector<int> all_cpus() {
  std::vector<int> cpus;
  for (int cpu = 0; cpu < 16; ++cpu) cpus.push_back(cpu);
  return cpus;
}

// No CPU in two slices, and every core whole: its hyperthreads in one slice.
void expect_whole_cores_apart(const std::vector<WorkerCpus>& slices) {
  std::set<int> seen;
  for (const auto& slice : slices)
    for (int cpu : slice.cpus) {
      EXPECT_TRUE(seen.insert(cpu).second) << "CPU " << cpu << " in two slices";
      const int sibling = cpu < 8 ? cpu + 8 : cpu - 8;
      EXPECT_NE(std::find(slice.cpus.begin(), slice.cpus.end(), sibling), slice.cpus.end())
          << "CPU " << cpu << " without its hyperthread " << sibling;
    }
}

class WorkerCpuSlices : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    write_machine(dir_);
    cores_ = physical_cores(all_cpus(), dir_.string());
  }
  std::vector<PhysicalCore> cores_;
};

TEST_F(WorkerCpuSlices, TopologyGroupsHyperthreadsIntoCoresOnTheirNodes) {
  ASSERT_EQ(cores_.size(), 8u);
  for (const auto& core : cores_) {
    ASSERT_EQ(core.cpus.size(), 2u);
    EXPECT_EQ(core.cpus[1], core.cpus[0] + 8);
    EXPECT_EQ(core.node, core.package);
  }
  EXPECT_EQ(pci_numa_node("0000:3B:00.0", dir_.string()), 1);  // CUDA writes it in capitals
  EXPECT_EQ(pci_numa_node("0000:00:06.0", dir_.string()), -1);
  EXPECT_EQ(pci_numa_node("0000:99:00.0", dir_.string()), -1);
  EXPECT_EQ(pci_numa_node("../../../etc", dir_.string()), -1);
  // Only the CPUs asked for; a CPU without topology is a core of its own.
  const auto some = physical_cores({0, 8, 1, 40}, dir_.string());
  ASSERT_EQ(some.size(), 3u);
  EXPECT_EQ(some.front().node, -1);
  EXPECT_EQ(some.front().cpus, std::vector<int>{40});
}

TEST_F(WorkerCpuSlices, TwoWorkersGetTheCoresOfTheirGpusNodes) {
  const auto slices = share_cores(cores_, 2, {1, 0});
  ASSERT_EQ(slices.size(), 2u);
  expect_whole_cores_apart(slices);
  EXPECT_EQ(cpu_list_text(slices[0].cpus), "4-7,12-15");
  EXPECT_EQ(cpu_list_text(slices[1].cpus), "0-3,8-11");
  EXPECT_EQ(slices[0].places, "{4,12},{5,13},{6,14},{7,15}");
  EXPECT_EQ(slices[0].threads, 8);
  EXPECT_EQ(slices[0].nodes, std::vector<int>{1});
  // Unknown nodes (a virtual machine): contiguous halves in the machine's order.
  const auto unknown = share_cores(cores_, 2, {-1, -1});
  expect_whole_cores_apart(unknown);
  EXPECT_EQ(cpu_list_text(unknown[0].cpus), "0-3,8-11");
}

TEST_F(WorkerCpuSlices, SharesDifferByAtMostOneCoreAndBothGpusOnOneNodeSplitIt) {
  for (int count : {3, 4, 5, 8}) {
    const auto slices = share_cores(cores_, count, {});
    ASSERT_EQ(slices.size(), std::size_t(count));
    expect_whole_cores_apart(slices);
    std::size_t smallest = 99, largest = 0, cpus = 0;
    for (const auto& slice : slices) {
      smallest = std::min(smallest, slice.cpus.size());
      largest = std::max(largest, slice.cpus.size());
      cpus += slice.cpus.size();
    }
    EXPECT_EQ(cpus, 16u);
    EXPECT_LE(largest - smallest, 2u) << count << " workers";  // one core: two hyperthreads
  }
  // Two GPUs on node 0: node 0's cores are split between them; each tops up from node 1.
  const auto same_node = share_cores(cores_, 2, {0, 0});
  expect_whole_cores_apart(same_node);
  EXPECT_EQ(cpu_list_text(same_node[0].cpus), "0-3,8-11");
  EXPECT_EQ(cpu_list_text(same_node[1].cpus), "4-7,12-15");
  // Fewer cores than workers: every worker on all of them.
  const auto crowded = share_cores(physical_cores({0, 8}, dir_.string()), 2, {});
  EXPECT_EQ(crowded[0].cpus, crowded[1].cpus);
  EXPECT_EQ(crowded[0].places, "{0,8}");
}

TEST(CpuLists, ReadAndWrittenAsLinuxWritesThem) {
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(cpu_list_text({11, 0, 1, 2, 3, 8, 10}), "0-3,8,10-11");
  EXPECT_EQ(parse_cpu_list("5\n"), std::vector<int>{});  // cpulist files end in a newline
  EXPECT_TRUE(parse_cpu_list("3-1").empty());
  EXPECT_TRUE(parse_cpu_list("a").empty());
  EXPECT_EQ(parse_cpu_list(cpu_list_text({0, 2, 4, 5, 6})), (std::vector<int>{0, 2, 4, 5, 6}));
}

// --- the reference made ahead, and the parallel verification ---

// The reference as it was written first: the border resolved at every tap, one value at a time.
long border_index(long p, long n, Border border) {
  if (p >= 0 && p < n) return p;
  switch (border) {
    case Border::zero:
      return -1;
    case Border::replicate:
      return std::clamp(p, 0L, n - 1);
    case Border::reflect:
      if (n == 1) return 0;
      while (p < 0 || p >= n) p = p < 0 ? -p : 2 * (n - 1) - p;
      return p;
    case Border::symmetric:
      while (p < 0 || p >= n) p = p < 0 ? -p - 1 : 2 * n - 1 - p;
      return p;
    case Border::wrap:
      return ((p % n) + n) % n;
  }
  return -1;
}

std::vector<double> reference_one_tap_at_a_time(const Problem& problem) {
  const Image& in = problem.input;
  const long width = in.width, height = in.height, channels = in.channels;
  const long k = problem.filter.size, r = k / 2;
  std::vector<double> values(in.value_count());
  for (long y = 0; y < height; ++y)
    for (long x = 0; x < width; ++x)
      for (long c = 0; c < channels; ++c) {
        double sum = 0.0;
        for (long ky = 0; ky < k; ++ky) {
          const long sy = border_index(y + ky - r, height, problem.border);
          if (sy < 0) continue;
          for (long kx = 0; kx < k; ++kx) {
            const long sx = border_index(x + kx - r, width, problem.border);
            if (sx < 0) continue;
            sum += static_cast<double>(problem.filter.weights[ky * k + kx]) *
                   static_cast<double>(in.pixels[(sy * width + sx) * channels + c]);
          }
        }
        if (problem.output == OutputType::u8) sum = std::clamp(std::floor(sum + 0.5), 0.0, 255.0);
        values[(y * width + x) * channels + c] = sum;
      }
  return values;
}

TEST(ReferenceRows, GivesTheBytesOfTheReferenceComputedOneTapAtATime) {
  const Image images[] = {testing::random_image(37, 23, 3, 4), testing::random_image(19, 31, 1, 5),
                          testing::random_image(5, 4, 3, 6)};
  for (const Image& image : images)
    for (Border border :
         {Border::zero, Border::replicate, Border::reflect, Border::symmetric, Border::wrap})
      for (OutputType output : {OutputType::u8, OutputType::f32})
        for (const auto& [type, k] : std::vector<std::pair<std::string, int>>{
                 {"gaussian", 1}, {"gaussian", 3}, {"log", 5}, {"box", 9}, {"sobel_x", 3}}) {
          const Filter filter = testing::filter_of(type, k);
          const Problem problem{image, filter, border, output};
          const std::vector<double> expected = reference_one_tap_at_a_time(problem);
          const Reference reference = compute_reference(problem);
          ASSERT_EQ(reference.values.size(), expected.size());
          EXPECT_EQ(std::memcmp(reference.values.data(), expected.data(),
                                expected.size() * sizeof(double)),
                    0)
              << image.width << "x" << image.height << "x" << image.channels << " "
              << to_string(border) << " " << to_string(output) << " " << type << k;
        }
}

TEST(ReferenceAhead, ThreadsOfItsOwnGiveTheBytesOfTheOpenMpReference) {
  const Image image = testing::random_image(67, 41, 3, 11);
  for (Border border : {Border::zero, Border::replicate, Border::reflect, Border::wrap})
    for (OutputType output : {OutputType::u8, OutputType::f32})
      for (int k : {1, 3, 7}) {
        const Filter filter = testing::filter_of("gaussian", k);
        const Problem problem{image, filter, border, output};
        const Reference plain = compute_reference(problem);
        for (const std::vector<int>& cpus : {std::vector<int>{}, thread_cpus()}) {
          const Reference ahead = compute_reference_on(problem, cpus);
          ASSERT_EQ(ahead.values.size(), plain.values.size());
          EXPECT_EQ(ahead.type, plain.type);
          EXPECT_EQ(std::memcmp(ahead.values.data(), plain.values.data(),
                                plain.values.size() * sizeof(double)),
                    0)
              << to_string(border) << " " << to_string(output) << " K=" << k;
        }
      }
}

// The verification of one loop over the values in order, as it was before it ran in blocks.
Verification verified_in_one_loop(const OutputView& output, const Reference& reference,
                                  double tolerance) {
  Verification v;
  v.tolerance = tolerance;
  v.values_compared = reference.values.size();
  v.exactness_counted = reference.type == OutputType::u8;
  for (size_t i = 0; i < output.count; ++i) {
    const double value =
        output.type == OutputType::u8 ? double(output.u8()[i]) : double(output.f32()[i]);
    const double error = std::fabs(value - reference.values[i]);
    if (v.exactness_counted && value != reference.values[i]) ++v.values_not_exact;
    if (!(error <= tolerance)) ++v.values_beyond_tolerance;
    if (!(error <= v.max_abs_error)) {
      v.max_abs_error = std::isnan(error) ? INFINITY : error;
      v.worst_index = i;
    }
  }
  v.ok = v.values_beyond_tolerance == 0;
  return v;
}

void expect_same(const Verification& a, const Verification& b, const std::string& what) {
  EXPECT_EQ(a.ok, b.ok) << what;
  EXPECT_EQ(a.values_compared, b.values_compared) << what;
  EXPECT_EQ(a.values_beyond_tolerance, b.values_beyond_tolerance) << what;
  EXPECT_EQ(a.values_not_exact, b.values_not_exact) << what;
  EXPECT_EQ(a.worst_index, b.worst_index) << what;
  EXPECT_EQ(a.max_abs_error, b.max_abs_error) << what;
}

TEST(ParallelVerification, GivesWhatOneLoopInOrderGives) {
  const std::size_t n = (std::size_t(1) << 20) * 3 + 12345;  // four blocks, the last one short
  Reference reference;
  reference.type = OutputType::f32;
  reference.values.assign(n, 10.0);
  std::vector<float> out(n, 10.0f);
  const OutputView view{OutputType::f32, out.data(), n};
  const auto check = [&](const std::string& what) {
    for (const char* threads : {"1", "3"}) {
      setenv("CONVLAB_VERIFY_THREADS", threads, 1);
      expect_same(verify_output(view, reference, 0.25), verified_in_one_loop(view, reference, 0.25),
                  what + ", " + threads + " threads");
    }
    unsetenv("CONVLAB_VERIFY_THREADS");
  };
  check("all exact");
  out[5] = 10.5f;  // the first of two equal worst errors, in different blocks
  out[(1 << 20) + 7] = 9.5f;
  check("ties");
  out[(2 << 20) + 1] = 13.0f;  // a larger one later
  check("larger later");
  out[(1 << 20) + 9] = std::numeric_limits<float>::infinity();
  check("infinity");
  out[(2 << 20) + 3] = std::nanf("");  // a NaN is the worst from then on, the last one seen
  out[(3 << 20) + 2] = std::nanf("");
  out[(3 << 20) + 5] = 1e30f;
  check("NaNs");
  std::vector<std::uint8_t> bytes(n, 10);
  Reference rounded = reference;
  rounded.type = OutputType::u8;
  bytes[3] = 11;
  bytes[n - 1] = 8;
  const OutputView u8{OutputType::u8, bytes.data(), n};
  expect_same(verify_output(u8, rounded, 1.0), verified_in_one_loop(u8, rounded, 1.0), "u8");
  EXPECT_FALSE(verify_output(u8, rounded, 1.0).ok);
  EXPECT_EQ(verify_output(u8, rounded, 1.0).worst_index, n - 1);
}

// A CPU sweep of two problems on the point executor, with and without the next problem's image
// and reference made ahead: the same records, verdicts and verification figures.
const char* kTwoProblems = R"(name: ahead
images:
  - {type: generated, sizes: [96, 64], channels: 3, seed: 5}
kernels:
  - {type: gaussian, size: [5]}
border: reflect
output: [u8, f32]
implementations:
  sequential: {}
  openmp: {threads: [2]}
measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}
)";

class PrepareAhead : public testing::DirectoryTest {
 protected:
  std::vector<Record> run(bool ahead) {
    testing::write_text(dir_ / "ahead.yaml", kTwoProblems);
    const Config config = load_config((dir_ / "ahead.yaml").string());
    const std::vector<Point> plan = expand_plan(config);
    if (ahead) setenv("CONVLAB_PREPARE_AHEAD", "1", 1);
    PointExecutor executor(config, plan, dir_.string(), (dir_ / "results.json").string(), 0);
    unsetenv("CONVLAB_PREPARE_AHEAD");
    EXPECT_EQ(executor.prepares_ahead(), ahead);
    std::vector<Record> records;
    for (std::size_t i = 0; i < plan.size(); ++i) {
      // At a problem's first point, the next problem starts ahead (the executor allows it
      // between any points; the runner asks only between CUDA points).
      if (i + 1 < plan.size() &&
          (i == 0 || plan[i].image != plan[i - 1].image || plan[i].output != plan[i - 1].output)) {
        std::size_t next = i + 1;
        while (next < plan.size() && plan[next].image == plan[i].image &&
               plan[next].output == plan[i].output)
          ++next;
        if (next < plan.size()) executor.prepare_ahead(next);
      }
      records.push_back(executor.measure({executor.identify(i)})[0]);
    }
    executor.take_ahead();
    if (ahead) {
      EXPECT_GT(executor.ahead_seconds(), 0.0);
    } else {
      EXPECT_EQ(executor.ahead_seconds(), 0.0);
    }
    return records;
  }
};

TEST_F(PrepareAhead, GivesTheSameRecordsAndVerdicts) {
  const std::vector<Record> plain = run(false), ahead = run(true);
  ASSERT_EQ(plain.size(), 8u);
  ASSERT_EQ(ahead.size(), plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    EXPECT_EQ(ahead[i].status, Status::ok) << ahead[i].reason;
    EXPECT_EQ(ahead[i].status, plain[i].status);
    EXPECT_EQ(ahead[i].point_id, plain[i].point_id);
    ASSERT_TRUE(ahead[i].verification && plain[i].verification);
    expect_same(*ahead[i].verification, *plain[i].verification, "point " + std::to_string(i));
  }
}

// --- phases recorded by runs ---

const char* kSmallCpuRun = R"(name: phases
images:
  - {type: generated, sizes: [384, 256], channels: 3, seed: 7}
kernels:
  - {type: gaussian, size: [3, 7]}
border: replicate
output: u8
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 1, min_reps: 3, max_reps: 3, max_seconds: 0.05}
)";

TEST_F(PrepareAhead, RunRecordsPhasesThatAddUpToItsWallTime) {
  testing::write_text(dir_ / "phases.yaml", kSmallCpuRun);
  const auto start = std::chrono::steady_clock::now();
  const auto result = testing::run_convlab("run phases.yaml --out out --phases", dir_);
  const double outside =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("where the time went"), std::string::npos) << result.output;
  const ResultsFile file = read_results((dir_ / "out/results.json").string());
  ASSERT_EQ(file.runs.size(), 1u);
  ASSERT_TRUE(file.runs[0].phases) << "no run.phases";
  const RunPhases& phases = *file.runs[0].phases;
  // The run's wall time is the process's, less the last write of the results file and the exit.
  // The process's start is known to a clock tick only, so its age may be off by half a tick.
  EXPECT_GT(phases.wall, 0.0);
  EXPECT_LE(phases.wall, outside + process_clock_tick_seconds()) << "outside " << outside;
  EXPECT_GE(phases.wall, 0.5 * outside) << "outside " << outside;
  // The phases cover it: what no phase timed is a small part.
  EXPECT_GE(phases.other(), -1e-6);
  EXPECT_LT(phases.other(), 0.25 * phases.wall) << "other " << phases.other();
  for (WorkPhase phase : {WorkPhase::image, WorkPhase::reference, WorkPhase::prepare,
                          WorkPhase::timing, WorkPhase::verify, WorkPhase::record})
    EXPECT_GT(phases.totals[phase], 0.0) << phase_name(phase);
  EXPECT_EQ(phases.totals[WorkPhase::save], 0.0);
  // One entry per problem, their points the run's, and within each the same holds.
  ASSERT_EQ(phases.problems.size(), 4u);
  std::size_t points = 0;
  double walls = 0.0;
  PhaseSeconds summed;
  for (const auto& problem : phases.problems) {
    points += problem.points;
    walls += problem.wall;
    EXPECT_GE(problem.other(), -1e-6);
    EXPECT_LE(problem.phases.sum(), problem.wall + 1e-6);
    for (std::size_t i = 0; i < kWorkPhaseCount; ++i)
      summed.seconds[i] += problem.phases.seconds[i];
  }
  EXPECT_EQ(points, 12u);
  EXPECT_LE(walls, phases.wall);
  EXPECT_NEAR(summed[WorkPhase::verify], phases.totals[WorkPhase::verify], 1e-9);
  EXPECT_EQ(phases.problems[1].kernel, "gaussian7");
  EXPECT_EQ(phases.problems[2].image, "noise-256x256-c3-s7");
  EXPECT_FALSE(phases.cpus.empty());
  EXPECT_GE(phases.openmp_threads, 1);
}

// Fake devices: each worker records its phases, folded into results.json with its run block, and
// each gets CPUs of its own (under the old slicing both inherited the one CPU OpenMP had bound the
// first thread to). The pretend devices take 2.5 s and 1.4 s for the two problems, so that each
// worker has taken one before the other is done.
TEST_F(PrepareAhead, DeviceWorkersRecordPhasesOnCpusOfTheirOwn) {
  testing::write_text(dir_ / "gpu.yaml", R"(name: gpu
images:
  - {type: generated, sizes: [64, 48], channels: 1, seed: 2}
kernels:
  - {type: gaussian, size: [3]}
border: replicate
output: u8
implementations:
  cuda_global: {block: [[16, 16]]}
)");
  const auto result = testing::run_shell(
      "CONVLAB_TEST_DEVICE_COUNT=2 CONVLAB_TEST_DEVICE_GMACS=0.000015 \"$CONVLAB\" run gpu.yaml "
      "--out out --devices all --phases",
      dir_);
  ASSERT_LE(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("the device workers' time"), std::string::npos) << result.output;
  const ResultsFile file = read_results((dir_ / "out/results.json").string());
  ASSERT_EQ(file.runs.size(), 2u);
  std::vector<std::vector<int>> cpus;
  for (const auto& run : file.runs) {
    ASSERT_TRUE(run.phases);
    EXPECT_EQ(run.phases->problems.size(), 1u);
    EXPECT_EQ(run.phases->problems[0].points, 1u);
    cpus.push_back(parse_cpu_list(run.phases->cpus));
    EXPECT_FALSE(cpus.back().empty());
  }
  if (physical_cores(thread_cpus().size() > 1 ? thread_cpus() : start_cpus()).size() < 2)
    GTEST_SKIP() << "one core here: the workers share it";
  for (int cpu : cpus[0])
    EXPECT_EQ(std::find(cpus[1].begin(), cpus[1].end(), cpu), cpus[1].end())
        << "CPU " << cpu << " in both workers' slices";
}

}  // namespace
}  // namespace convlab
