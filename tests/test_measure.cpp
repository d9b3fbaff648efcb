#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/point_filter.hpp"
#include "core/sha256.hpp"
#include "images/image_source.hpp"
#include "measure/interleaved.hpp"
#include "measure/stats.hpp"

namespace convlab {
namespace {

TEST(Stats, QuartilesInterpolateLikeNumpy) {
  const SampleStats s = summarize({4, 1, 3, 2, 5});
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_NEAR(s.stddev, 1.5811388300841898, 1e-12);  // sample standard deviation
  EXPECT_NEAR(s.cv, 1.5811388300841898 / 3, 1e-12);
  const SampleStats even = summarize({1, 2, 3, 10});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_DOUBLE_EQ(even.q1, 1.75);  // numpy.percentile([1,2,3,10], 25)
  EXPECT_DOUBLE_EQ(even.q3, 4.75);
  const SampleStats one = summarize({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
}

// A point that only writes its calls into a shared log: "w<id>" for untimed, "t<id>" for timed
// calls (the log cannot tell them apart, so it counts: the first `warmup` calls are warm-ups).
class LoggingPoint : public PreparedPoint {
 public:
  LoggingPoint(int id, std::vector<int>& log, int throw_on_call = -1)
      : id_(id), log_(log), throw_on_call_(throw_on_call) {}
  std::optional<PhaseTimes> execute() override {
    if (!inside_) throw std::logic_error("called without before_call");
    if (calls_++ == throw_on_call_) throw std::runtime_error("call " + std::to_string(calls_));
    log_.push_back(id_);
    return std::nullopt;
  }
  OutputView output() const override { return {}; }
  void before_call() override {
    if (inside_) throw std::logic_error("before_call twice");
    inside_ = true;
  }
  void after_call() override {
    inside_ = false;
    ++after_calls_;
  }
  int calls() const { return calls_; }
  int after_calls() const { return after_calls_; }
  bool inside() const { return inside_; }

 private:
  int id_;
  std::vector<int>& log_;
  int throw_on_call_;
  int calls_ = 0;
  int after_calls_ = 0;
  bool inside_ = false;
};

MeasureSpec spec(int warmup, int min_reps, int max_reps, double max_seconds = 1e9) {
  MeasureSpec m;
  m.warmup = warmup;
  m.min_reps = min_reps;
  m.max_reps = max_reps;
  m.max_seconds = max_seconds;
  return m;
}

std::vector<InterleavedPoint> entries(std::vector<LoggingPoint>& points,
                                      const std::vector<MeasureSpec>& specs) {
  std::vector<InterleavedPoint> out;
  for (size_t i = 0; i < points.size(); ++i) {
    out.emplace_back();
    out.back().point = &points[i];
    out.back().measure = specs[i];
  }
  return out;
}

TEST(Interleaved, WarmUpsFirstThenRoundsOfEveryPointStillMeasuring) {
  std::vector<int> log;
  std::vector<LoggingPoint> points{{0, log}, {1, log}, {2, log}};
  auto timed = entries(points, {spec(1, 2, 3), spec(2, 2, 5), spec(0, 1, 2)});
  const int rounds = time_interleaved(timed, 12345);
  EXPECT_EQ(rounds, 5);
  EXPECT_EQ(timed[0].samples.compute_ms.size(), 3u);
  EXPECT_EQ(timed[1].samples.compute_ms.size(), 5u);
  EXPECT_EQ(timed[2].samples.compute_ms.size(), 2u);
  // Warm-ups round by round: 0 and 1, then 1 again; no timed call before them.
  ASSERT_GE(log.size(), 3u);
  EXPECT_EQ((std::vector<int>{log[0], log[1], log[2]}), (std::vector<int>{0, 1, 1}));
  // Then rounds: 3 points in rounds 1-2, 2 in round 3 (point 2 is done), 1 in rounds 4-5; every
  // round holds each point still measuring exactly once.
  const std::vector<std::vector<int>> expected_members{{0, 1, 2}, {0, 1, 2}, {0, 1}, {1}, {1}};
  size_t at = 3;
  for (const auto& members : expected_members) {
    ASSERT_LE(at + members.size(), log.size());
    std::vector<int> round(log.begin() + at, log.begin() + at + members.size());
    std::sort(round.begin(), round.end());
    EXPECT_EQ(round, members) << "round starting at call " << at;
    at += members.size();
  }
  EXPECT_EQ(at, log.size());
  for (const auto& p : timed) {
    EXPECT_EQ(p.samples.interleaved_points, 3);
    double sum = 0;
    for (double ms : p.samples.compute_ms) sum += ms;
    EXPECT_NEAR(p.samples.total_seconds, sum / 1000.0, 1e-9);
  }
}

TEST(Interleaved, OrderIsShuffledPerRoundAndFixedByTheSeed) {
  auto run = [](std::uint32_t seed) {
    std::vector<int> log;
    std::vector<LoggingPoint> points{{0, log}, {1, log}, {2, log}, {3, log}, {4, log}};
    std::vector<MeasureSpec> specs(5, spec(0, 10, 10));
    auto timed = entries(points, specs);
    time_interleaved(timed, seed);
    return log;
  };
  const std::vector<int> first = run(7), again = run(7), other = run(8);
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other);
  std::set<std::vector<int>> orders;
  for (size_t r = 0; r < 10; ++r) orders.insert({first.begin() + 5 * r, first.begin() + 5 * r + 5});
  EXPECT_GT(orders.size(), 5u) << "rounds should not repeat one order";
}

TEST(Interleaved, APointThatThrowsLeavesTheRoundsAndTheOthersFinish) {
  std::vector<int> log;
  std::vector<LoggingPoint> points{{0, log}, {1, log, 2}};  // point 1's third call throws
  auto timed = entries(points, {spec(1, 4, 4), spec(1, 4, 4)});
  time_interleaved(timed, 1);
  EXPECT_FALSE(timed[0].error);
  EXPECT_EQ(timed[0].samples.compute_ms.size(), 4u);
  ASSERT_TRUE(timed[1].error);
  EXPECT_EQ(*timed[1].error, "call 3");
  EXPECT_EQ(timed[1].samples.compute_ms.size(), 1u);  // the warm-up, one timed call, then the throw
  // Every call, the one that threw included, had after_call: nothing stays set.
  for (const auto& p : points) {
    EXPECT_FALSE(p.inside());
    EXPECT_EQ(p.after_calls(), p.calls());
  }
}

TEST(Repetitions, EveryCallHasBeforeAndAfterCallAround) {
  std::vector<int> log;
  LoggingPoint point(0, log);
  const TimingSamples samples = time_repetitions(point, spec(2, 3, 3));
  EXPECT_EQ(samples.compute_ms.size(), 3u);
  EXPECT_EQ(point.calls(), 5);
  EXPECT_EQ(point.after_calls(), 5);
  EXPECT_FALSE(point.inside());
}

TEST(Interleaved, APointStopsAtMinRepsOnceItsOwnTimeIsSpent) {
  std::vector<int> log;
  std::vector<LoggingPoint> points{{0, log}, {1, log}};
  auto timed = entries(points, {spec(0, 2, 20, 1e-12), spec(0, 6, 6)});
  time_interleaved(timed, 3);
  EXPECT_EQ(timed[0].samples.compute_ms.size(), 2u);
  EXPECT_EQ(timed[1].samples.compute_ms.size(), 6u);
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 pieces;  // the same bytes fed in uneven pieces
  const std::string million(1000000, 'a');
  for (size_t i = 0; i < million.size(); i += 777) pieces.update(million.substr(i, 777));
  EXPECT_EQ(pieces.finish_hex(),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(GeneratedImages, AreTheSameOnEveryMachine) {
  // SplitMix64 bytes: these hashes are the contract that a seed means the same image everywhere.
  EXPECT_EQ(generate_image(4, 3, 3, 42, "noise").sha256,
            sha256_hex(generate_image(4, 3, 3, 42, "noise").pixels.data(), 36));
  const Image a = generate_image(64, 48, 3, 42, "noise");
  const Image b = generate_image(64, 48, 3, 43, "noise");
  EXPECT_NE(a.sha256, b.sha256);
  SplitMix64 random(0);
  EXPECT_EQ(random.next(), 0xe220a8397b1dcdafULL);  // SplitMix64 reference output for seed 0
  EXPECT_EQ(random.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(a.pixels[0], static_cast<std::uint8_t>(
                             SplitMix64(42ULL ^ (64ULL << 40) ^ (48ULL << 16) ^ 3ULL).next()));
  const Image scene = generate_image(40, 30, 1, 5, "scene");
  EXPECT_EQ(scene.sha256, generate_image(40, 30, 1, 5, "scene").sha256);
}

TEST(PointFilter, ParsesAndMatches) {
  const nlohmann::json record{{"implementation", "openmp"},
                              {"params", {{"threads", 4}, {"block", {32, 8}}}},
                              {"kernel", {{"name", "gaussian7"}, {"size", 7}}},
                              {"border", "replicate"}};
  auto check = [&](const std::string& expression) {
    std::string error;
    const auto filter = parse_point_filter(expression, &error);
    EXPECT_TRUE(filter.has_value()) << expression << ": " << error;
    return filter && matches(*filter, record);
  };
  EXPECT_TRUE(check("implementation=openmp"));
  EXPECT_TRUE(check("implementation=sequential|openmp, kernel.size>=7"));
  EXPECT_FALSE(check("implementation=openmp,kernel.size<7"));
  EXPECT_TRUE(check("params.threads=4.0"));
  EXPECT_TRUE(check("params.block=32x8"));
  EXPECT_TRUE(check("kernel.name~gauss"));
  EXPECT_TRUE(check("border!=zero"));
  EXPECT_FALSE(check("params.missing=1"));
  EXPECT_TRUE(check(""));
  std::string error;
  EXPECT_FALSE(parse_point_filter("kernel.size", &error).has_value());
  EXPECT_FALSE(parse_point_filter("kernel.size>big", &error).has_value());
  EXPECT_FALSE(parse_point_filter("=3", &error).has_value());
}

}  // namespace
}  // namespace convlab
