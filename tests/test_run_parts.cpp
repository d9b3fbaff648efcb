// The parts of `convlab run`, each alone: the schedule (work units, shards, device spread), the
// point executor, the recorder and the observers.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "run/observers.hpp"
#include "run/point_executor.hpp"
#include "run/recorder.hpp"
#include "run/schedule.hpp"
#include "store/results_file.hpp"
#include "tables/summary_table.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// 4 images x 3 kernels x 2 borders x 2 outputs = 48 problems of 4 points (2 of them CUDA).
const char* kSweep = R"(name: parts
images:
  - {type: generated, sizes: [16, 24, 32, 48], channels: 1, seed: 3}
kernels:
  - {type: gaussian, size: [3, 5, 7]}
border: [reflect, zero]
output: [u8, f32]
implementations:
  sequential: {}
  openmp: {threads: [2]}
  cuda_global: {block: [[16, 16], [32, 8]]}
measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}
)";

class RunParts : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    config_ = load(kSweep);
    plan_ = expand_plan(config_);
  }
  Config load(const std::string& text) {
    testing::write_text(dir_ / "parts.yaml", text);
    return load_config((dir_ / "parts.yaml").string());
  }
  static std::tuple<size_t, size_t, Border, OutputType> problem(const Point& p) {
    return {p.image, p.filter, p.border, p.output};
  }
  Config config_;
  std::vector<Point> plan_;
};

TEST_F(RunParts, ScheduleHasOneUnitPerProblemInPlanOrder) {
  const Schedule schedule = make_schedule(config_, plan_);
  ASSERT_EQ(schedule.units.size(), 48u);
  EXPECT_EQ(schedule.points(), plan_.size());
  size_t next = 0;
  for (const auto& unit : schedule.units) {
    EXPECT_GT(unit.cost_us, 0);
    for (size_t i : unit.points) {
      EXPECT_EQ(i, next++);
      EXPECT_EQ(problem(plan_[i]), problem(plan_[unit.points.front()]));
    }
  }
  const Schedule split = split_by_family(config_, plan_, schedule);
  ASSERT_EQ(split.units.size(), 96u);
  for (const auto& unit : split.units)
    for (size_t i : unit.points)
      EXPECT_EQ(plan_[i].implementation->family == Family::cuda, unit.gpu);
}

TEST_F(RunParts, ShardsAreDeterministicBalancedAndKeepEveryProblemWhole) {
  const Schedule schedule = make_schedule(config_, plan_);
  for (int count : {1, 2, 3, 5, 7, 48, 60}) {
    const ShardCut cut = cut_into_shards(schedule, count);
    EXPECT_EQ(cut.digest, cut_into_shards(make_schedule(config_, plan_), count).digest);
    std::map<std::tuple<size_t, size_t, Border, OutputType>, std::set<int>> shards_of_problem;
    size_t points = 0;
    for (int shard = 0; shard < count; ++shard) {
      const Schedule part = units_of_shard(schedule, cut, shard);
      EXPECT_EQ(part.points(), cut.points[shard]);
      points += part.points();
      for (const auto& unit : part.units)
        for (size_t i : unit.points) shards_of_problem[problem(plan_[i])].insert(shard);
    }
    EXPECT_EQ(points, plan_.size()) << count << " shards";
    for (const auto& [key, shards] : shards_of_problem) EXPECT_EQ(shards.size(), 1u);
    // Greedy balance: no shard exceeds the mean by more than the largest unit.
    std::int64_t largest_unit = 0;
    for (const auto& unit : schedule.units) largest_unit = std::max(largest_unit, unit.cost_us);
    const double mean = double(schedule.cost_us()) / count;
    for (std::int64_t cost : cut.cost_us) EXPECT_LE(double(cost), mean + double(largest_unit));
  }
  // More shards than problems: some are empty, none is split.
  const ShardCut sparse = cut_into_shards(schedule, 60);
  EXPECT_EQ(std::count(sparse.points.begin(), sparse.points.end(), 0u), 12);
  EXPECT_NE(cut_into_shards(schedule, 2).digest, cut_into_shards(schedule, 3).digest);
}

TEST_F(RunParts, SaveOutputsKeepsEveryOutputOfAGalleryItemInOneShard) {
  std::string text = kSweep;
  text += "save_outputs: true\n";
  const Config config = load(text);
  const std::vector<Point> plan = expand_plan(config);
  const Schedule schedule = make_schedule(config, plan);
  const ShardCut cut = cut_into_shards(schedule, 5);
  std::map<std::tuple<size_t, size_t, Border>, std::set<int>> shards_of_item;
  for (size_t u = 0; u < schedule.units.size(); ++u) {
    const Point& p = plan[schedule.units[u].points.front()];
    shards_of_item[{p.image, p.filter, p.border}].insert(cut.shard_of_unit[u]);
  }
  EXPECT_EQ(shards_of_item.size(), 24u);
  for (const auto& [item, shards] : shards_of_item) EXPECT_EQ(shards.size(), 1u);
}

TEST_F(RunParts, DevicesGetWholeProblemsAndCpuUnitsStayOut) {
  const Schedule split = split_by_family(config_, plan_, make_schedule(config_, plan_));
  const std::vector<int> worker = spread_over_devices(split, 3);
  std::vector<std::int64_t> cost(3, 0);
  for (size_t u = 0; u < split.units.size(); ++u) {
    if (!split.units[u].gpu) {
      EXPECT_EQ(worker[u], -1);
      continue;
    }
    ASSERT_GE(worker[u], 0);
    cost[worker[u]] += split.units[u].cost_us;
  }
  for (int w = 0; w < 3; ++w) EXPECT_GT(cost[w], 0);
  EXPECT_EQ(units_of_worker(split, worker, -1).points(), 48u * 2);
}

TEST(ShardArgument, ParsesIOverNAndSaysWhatIsWrong) {
  std::string error;
  const auto shard = parse_shard("3/8", &error);
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 3);
  EXPECT_EQ(shard->count, 8);
  const std::map<std::string, std::string> bad{
      {"3/2", "the index 3 is not below the count 2: shards are numbered 0 to 1"},
      {"0/0", "the count must be at least 1"},
      {"-1/4", "the index must be 0 or more"},
      {"a/b", "expected I/N"},
      {"3", "expected I/N"},
      {"1/2/3", "expected I/N"},
      {"1 /2", "expected I/N"},
      {"99999999999/2", "expected I/N"}};
  for (const auto& [text, message] : bad) {
    EXPECT_FALSE(parse_shard(text, &error)) << text;
    EXPECT_NE(error.find(message), std::string::npos) << text << ": " << error;
  }
}

TEST_F(RunParts, ExecutorIdentifiesPointsAndMeasuresOneIntoARecord) {
  PointExecutor executor(config_, plan_, dir_.string(), (dir_ / "results.json").string(), 0);
  RunBlock run;
  run.id = "run-1";
  run.host = {{"cpu_model", "test CPU"}, {"hostname", "test"}};
  executor.stamp_records_with(run);
  const IdentifiedPoint first = executor.identify(0);
  EXPECT_EQ(first.digest, plan_[0].description.digest());
  EXPECT_EQ(first.key, executor.identify(0).key);
  EXPECT_NE(first.key, executor.identify(1).key);
  const std::vector<Record> records = executor.measure({first});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].status, Status::ok) << records[0].reason;
  EXPECT_EQ(records[0].key, first.key);
  EXPECT_EQ(records[0].point_id, first.id);
  EXPECT_EQ(records[0].run_id, "run-1");
  EXPECT_EQ(records[0].machine->cpu_model, "test CPU");
  EXPECT_EQ(records[0].description().digest(), first.digest);
  // A CUDA point on a machine without a device is skipped with the reason.
  const IdentifiedPoint cuda = executor.identify(2);
  ASSERT_EQ(plan_[2].implementation->family, Family::cuda);
  EXPECT_EQ(executor.measure({cuda})[0].status, Status::skipped);
}

TEST_F(RunParts, RecorderJournalsRecordsAndFoldsThemWhenTheRunEnds) {
  PointExecutor executor(config_, plan_, dir_.string(), (dir_ / "results.json").string(), 0);
  RunBlock run;
  run.id = "run-1";
  executor.stamp_records_with(run);
  {
    Recorder recorder(ResultsStore(dir_.string()), "parts");
    recorder.begin(run, {{"name", "parts"}});
    const IdentifiedPoint point = executor.identify(0);
    EXPECT_FALSE(recorder.has_ok_record(point.key));
    recorder.store(executor.measure({point})[0]);
    EXPECT_TRUE(recorder.has_ok_record(point.key));
    EXPECT_TRUE(fs::exists(dir_ / "results.journal"));
    EXPECT_EQ(recorder.points_done(), 1u);
    recorder.finish();
  }
  EXPECT_FALSE(fs::exists(dir_ / "results.journal"));
  const ResultsFile file = read_results((dir_ / "results.json").string());
  ASSERT_EQ(file.records.size(), 1u);
  ASSERT_EQ(file.runs.size(), 1u);
  EXPECT_TRUE(file.runs[0].finished.has_value());
  // Another experiment's file is refused; a later recorder finds the record.
  EXPECT_THROW(Recorder(ResultsStore(dir_.string()), "other"), ResultsFileError);
  Recorder again(ResultsStore(dir_.string()), "parts");
  EXPECT_TRUE(again.has_ok_record(file.records[0].key));
  EXPECT_NE(again.record(file.records[0].key), nullptr);
}

TEST_F(RunParts, RecorderCountsReadOnlyFilesAsMeasuredAndNeverWritesThem) {
  PointExecutor executor(config_, plan_, dir_.string(), (dir_ / "results.json").string(), 0);
  RunBlock run;
  run.id = "run-1";
  executor.stamp_records_with(run);
  const IdentifiedPoint point = executor.identify(0);
  {
    Recorder target(ResultsStore(dir_.string()), "parts");
    target.begin(run, {{"name", "parts"}});
    target.store(executor.measure({point})[0]);
    target.finish();
  }
  const std::string before = testing::read_text(dir_ / "results.json");
  Recorder worker(ResultsStore((dir_ / "workers").string(), "results.device-1.json"), "parts",
                  {(dir_ / "results.json").string()});
  EXPECT_TRUE(worker.has_ok_record(point.key));
  EXPECT_FALSE(worker.has_ok_record(executor.identify(1).key));
  EXPECT_EQ(testing::read_text(dir_ / "results.json"), before);
}

TEST(RunCounterObserver, CountsOutcomes) {
  RunCounter counter;
  IdentifiedPoint point;
  Record ok, skipped, failed;
  skipped.status = Status::skipped;
  failed.status = Status::failed;
  counter.kept(point);
  counter.finished(point, ok, true);
  counter.finished(point, skipped, false);
  counter.finished(point, failed, false);
  EXPECT_EQ(run_counts_line(counter.counts()),
            "kept 1 \u00b7 ran 1 \u00b7 skipped 1 \u00b7 failed 1");
}

}  // namespace
}  // namespace convlab
