// The hand-out of `convlab run --devices` (run/hand_out.hpp, run/hand_out_channel.hpp): which
// problem group a free worker takes, what happens to a group whose worker ends, the forecast the
// ETA and --dry-run use, and the messages between the run and its workers over a real socket. The
// processes themselves are tested in test_devices.cpp.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <set>
#include <thread>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "run/hand_out.hpp"
#include "run/hand_out_channel.hpp"
#include "run/progress.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

// An item of `cost` (whole microseconds) on `image`, one unit of its own.
HandOutItem item(std::int64_t cost, std::size_t image, std::size_t unit) {
  HandOutItem made;
  made.units = {unit};
  made.cost_us = cost;
  made.image = image;
  made.points = 1;
  return made;
}

std::vector<HandOutItem> items_of(const std::vector<std::pair<std::int64_t, std::size_t>>& costs) {
  std::vector<HandOutItem> items;
  for (std::size_t i = 0; i < costs.size(); ++i)
    items.push_back(item(costs[i].first, costs[i].second, i));
  return items;
}

// Takes everything for one worker, in order.
std::vector<std::size_t> drain(HandOut& queue, int worker) {
  std::vector<std::size_t> order;
  while (const auto taken = queue.take(worker)) {
    order.push_back(*taken);
    EXPECT_TRUE(queue.done(worker, *taken));
  }
  return order;
}

TEST(HandOut, OneWorkerTakesTheLargestFirstAndEveryItemOnce) {
  HandOut queue(items_of({{30, 0}, {100, 0}, {10, 0}, {100, 0}, {55, 0}}), 1);
  EXPECT_EQ(drain(queue, 0), (std::vector<std::size_t>{1, 3, 4, 0, 2}));  // ties: plan order
  EXPECT_TRUE(queue.finished());
  EXPECT_EQ(queue.done_count(), 5u);
  EXPECT_FALSE(queue.take(0));
}

TEST(HandOut, AWorkerKeepsItsImageWhileAGroupThereCostsAtLeastTwoThirdsOfTheLargest) {
  // Image 0: 100, 60, 40; image 1: 90, 45.
  HandOut queue(items_of({{100, 0}, {60, 0}, {40, 0}, {90, 1}, {45, 1}}), 1);
  // 100 (image 0), then 60 of image 0 before the larger 90 of image 1 (60 >= 90 * 2 / 3); then
  // 90, since 40 < 60; then 45 of image 1, then 40.
  EXPECT_EQ(drain(queue, 0), (std::vector<std::size_t>{0, 1, 3, 4, 2}));
}

TEST(HandOut, WorkersStartOnDifferentImagesWhenTheirGroupsAreComparable) {
  HandOut queue(items_of({{100, 0}, {95, 0}, {90, 0}, {70, 1}, {65, 1}, {10, 2}}), 2);
  const auto first = queue.take(0), second = queue.take(1);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(*first, 0u);
  EXPECT_EQ(*second, 3u) << "image 1 is held by nobody and its largest group is within a factor 2";
  // Each stays on its image.
  queue.done(0, *first);
  EXPECT_EQ(queue.take(0), std::optional<std::size_t>(1));
  queue.done(1, *second);
  EXPECT_EQ(queue.take(1), std::optional<std::size_t>(4));
  // Image 1 is done: worker 1 joins image 0 (its 90 is the largest; image 2's 10 is far below).
  queue.done(1, 4);
  EXPECT_EQ(queue.take(1), std::optional<std::size_t>(2));
}

TEST(HandOut, PinnedGroupsGoOnlyToTheirWorkerAndFirst) {
  HandOut queue(items_of({{100, 0}, {10, 0}, {50, 1}}), 2);
  queue.pin(1, 1);
  EXPECT_TRUE(queue.has_pinned(1));
  EXPECT_EQ(queue.take(1), std::optional<std::size_t>(1)) << "its pinned group, though small";
  EXPECT_EQ(queue.take(0), std::optional<std::size_t>(0));
  queue.done(0, 0);
  EXPECT_EQ(queue.take(0), std::optional<std::size_t>(2));
  queue.done(0, 2);
  EXPECT_FALSE(queue.take(0));
  EXPECT_FALSE(queue.finished()) << "worker 1 still holds its group";
  EXPECT_TRUE(queue.done(1, 1));
  EXPECT_FALSE(queue.done(1, 1)) << "done twice";
  EXPECT_TRUE(queue.finished());
  // Its pinned groups in plan order, as a part split before the run is walked.
  HandOut pins(items_of({{10, 0}, {90, 1}, {80, 0}}), 2);
  for (std::size_t i = 0; i < 3; ++i) pins.pin(i, 0);
  EXPECT_FALSE(pins.take(1)) << "all pinned to worker 0";
  EXPECT_EQ(drain(pins, 0), (std::vector<std::size_t>{0, 1, 2}));
}

TEST(HandOut, AGroupWhoseWorkerEndsIsQueuedAgainOnceThenAbandoned) {
  HandOut queue(items_of({{100, 0}, {50, 0}, {40, 0}}), 3);
  ASSERT_EQ(queue.take(0), std::optional<std::size_t>(0));
  HandOut::Lost lost = queue.lost(0);
  EXPECT_EQ(lost.requeued, std::vector<std::size_t>{0});
  EXPECT_TRUE(lost.repeated.empty() && lost.orphaned.empty());
  EXPECT_FALSE(queue.take(0)) << "an ended worker takes nothing";
  ASSERT_EQ(queue.take(1), std::optional<std::size_t>(0)) << "the group given back, largest";
  lost = queue.lost(1);
  EXPECT_EQ(lost.repeated, std::vector<std::size_t>{0}) << "it ended two workers";
  EXPECT_EQ(queue.abandoned(), std::vector<std::size_t>{0});
  EXPECT_EQ(drain(queue, 2), (std::vector<std::size_t>{1, 2}));
  EXPECT_TRUE(queue.finished());
  // A pin to a worker that ends is released.
  HandOut pinned(items_of({{10, 0}, {20, 0}}), 2);
  pinned.pin(0, 1);
  pinned.lost(1);
  EXPECT_EQ(drain(pinned, 0), (std::vector<std::size_t>{1, 0}));
}

TEST(HandOut, WithNoWorkerLeftEveryGroupNotDoneIsOrphaned) {
  HandOut queue(items_of({{100, 0}, {50, 0}, {40, 0}}), 2);
  ASSERT_TRUE(queue.take(0));
  queue.lost(1);
  const HandOut::Lost lost = queue.lost(0);
  EXPECT_TRUE(lost.requeued.empty());
  EXPECT_EQ(lost.orphaned, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_TRUE(queue.finished());
}

TEST(HandOutForecast, OneWorkerSumsItsGroupsAndEachImageChange) {
  HandOut queue(items_of({{3, 0}, {2, 1}, {1, 0}}), 1);
  const HandOutForecast forecast = forecast_hand_out(queue, {3.0, 2.0, 1.0}, {0.5, 0.25}, {});
  // 3 s on image 0 after its set-up, then 2 s on image 1 after its set-up (the 1 s group of image
  // 0 is below two thirds of it), then 1 s on image 0 after its set-up again.
  EXPECT_DOUBLE_EQ(forecast.seconds, 0.5 + 3.0 + 0.25 + 2.0 + 0.5 + 1.0);
  EXPECT_EQ(forecast.worker_of_item, (std::vector<int>{0, 0, 0}));
  EXPECT_FALSE(queue.take(0) == std::nullopt) << "the queue given is a copy";
}

TEST(HandOutForecast, GroupsOfTenfoldDifferentCostsEndWithinATenthOfTheAverage) {
  // 40 groups of cost 1..10 on one image, 4 workers.
  std::vector<std::pair<std::int64_t, std::size_t>> costs;
  std::vector<double> seconds;
  for (int i = 0; i < 40; ++i) {
    costs.push_back({1 + i % 10, 0});
    seconds.push_back(1.0 + i % 10);
  }
  const HandOutForecast forecast =
      forecast_hand_out(HandOut(items_of(costs), 4), seconds, {0.0}, {});
  const double average =
      std::accumulate(forecast.worker_seconds.begin(), forecast.worker_seconds.end(), 0.0) / 4;
  EXPECT_DOUBLE_EQ(average, 220.0 / 4);
  EXPECT_LE(forecast.seconds, 1.1 * average);
  // A worker busy for longer than the others need for everything takes nothing.
  const HandOutForecast late =
      forecast_hand_out(HandOut(items_of(costs), 4), seconds, {0.0}, {100.0, 0.0, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(late.seconds, 100.0);
  EXPECT_EQ(std::count(late.worker_of_item.begin(), late.worker_of_item.end(), 0), 0);
  EXPECT_LE(*std::max_element(late.worker_seconds.begin() + 1, late.worker_seconds.end()),
            220.0 / 3 * 1.1);
}

TEST(HandOutEta, ScalesTheForecastByWhatTheGroupsDoneTook) {
  HandOut queue(items_of({{10, 0}, {10, 0}, {10, 0}, {10, 0}}), 2);
  HandOutEta eta({10.0, 10.0, 10.0, 10.0}, {0.0}, 2);
  EXPECT_DOUBLE_EQ(eta.seconds_left(queue, 0.0), 20.0);
  for (int w = 0; w < 2; ++w) eta.taken(w, *queue.take(w), 0, 0.0);
  // Both groups took twice their estimate.
  for (int w = 0; w < 2; ++w) {
    queue.done(w, static_cast<std::size_t>(w));
    eta.done(w, 20.0);
  }
  EXPECT_DOUBLE_EQ(eta.scale(), 2.0);
  EXPECT_DOUBLE_EQ(eta.seconds_left(queue, 20.0), 20.0);
  // One more taken by worker 0, 5 s in: 15 s left of it, and worker 1's 20 s.
  eta.taken(0, *queue.take(0), 0, 20.0);
  EXPECT_DOUBLE_EQ(eta.seconds_left(queue, 25.0), 20.0);
  // Worker 1 ends: worker 0 does the last one after its own.
  queue.lost(1);
  eta.lost(1);
  EXPECT_DOUBLE_EQ(eta.seconds_left(queue, 25.0), 15.0 + 20.0);
}

// 2 images x 2 kernels x 2 outputs, CPU and CUDA points; with save_outputs both outputs of an
// (image, kernel) form one group.
const char* kSweep = R"(name: items
images:
  - {type: generated, sizes: [16, 32], channels: 1, seed: 3}
kernels:
  - {type: gaussian, size: [3, 5]}
border: replicate
output: [u8, f32]
implementations:
  sequential: {}
  cuda_global: {block: [[16, 16], [32, 8]]}
save_outputs: true
measure: {warmup: 0, min_reps: 1, max_reps: 1, max_seconds: 0.01}
)";

class HandOutItems : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "items.yaml", kSweep);
    config_ = load_config((dir_ / "items.yaml").string());
    plan_ = expand_plan(config_);
    split_ = split_by_family(config_, plan_, make_schedule(config_, plan_));
  }
  Config config_;
  std::vector<Point> plan_;
  Schedule split_;
};

TEST_F(HandOutItems, AreTheCudaGroupsWholeWithTheirCostAndImage) {
  const std::vector<HandOutItem> items = hand_out_items(split_, plan_);
  ASSERT_EQ(items.size(), 4u);  // (image, kernel): both outputs together
  for (const HandOutItem& item : items) {
    ASSERT_EQ(item.units.size(), 2u);
    EXPECT_EQ(item.points, 4u);
    std::int64_t cost = 0;
    for (std::size_t u : item.units) {
      const WorkUnit& unit = split_.units[u];
      EXPECT_TRUE(unit.gpu);
      cost += unit.cost_us;
      for (std::size_t p : unit.points) EXPECT_EQ(plan_[p].image, item.image);
    }
    EXPECT_EQ(item.cost_us, cost);
  }
  EXPECT_EQ(items[0].image, 0u);
  EXPECT_EQ(items[3].image, 1u);
  // Another plan (here: another filter) has another digest.
  const std::string digest = hand_out_digest(plan_, split_, items);
  EXPECT_EQ(digest, hand_out_digest(plan_, split_, hand_out_items(split_, plan_)));
  Schedule fewer = split_;
  fewer.units.pop_back();
  EXPECT_NE(digest, hand_out_digest(plan_, fewer, hand_out_items(fewer, plan_)));
}

TEST_F(HandOutItems, AResumedRunGivesAGroupToTheDeviceThatMeasuredMostOfIt) {
  const std::vector<HandOutItem> items = hand_out_items(split_, plan_);
  const auto digest_of = [&](std::size_t item, std::size_t k) {
    const WorkUnit& unit = split_.units[items[item].units[k / 2]];
    return plan_[unit.points[k % 2]].description.digest();
  };
  const std::vector<DevicePoint> measured = {
      {digest_of(0, 0), 3},   {digest_of(0, 1), 3}, {digest_of(0, 2), 1},  // group 0: device 3
      {digest_of(2, 0), 1},                                                // group 2: device 1
      {digest_of(3, 0), 7},  // a device this run does not use
      {"0123456789abcdef", 1}};
  const auto pins = resume_pins(plan_, split_, items, measured, {1, 3});
  EXPECT_EQ(pins, (std::vector<std::pair<std::size_t, int>>{{0, 1}, {2, 0}}));
}

// The worker's end in a thread of its own, the run's served here: every group is measured exactly
// once, a worker that asks while the last groups are held by another waits, and all get "end".
TEST(HandOutChannel, WorkersTakeEveryGroupOnceOverASocket) {
  Schedule schedule;
  std::vector<HandOutItem> items;
  for (std::size_t i = 0; i < 12; ++i) {
    WorkUnit unit;
    unit.points = {i};
    unit.gpu = true;
    unit.cost_us = static_cast<std::int64_t>(1 + i % 4);
    schedule.units.push_back(unit);
    items.push_back(item(unit.cost_us, i % 2, i));
  }
  HandOut queue(items, 3);
  HandOutServer server(queue, "digest");
  std::vector<std::size_t> done_by(12, 99);
  std::size_t taken = 0, done = 0;
  server.on_event = [&](const HandOutServer::Event& event) {
    if (event.kind == HandOutServer::Event::Kind::taken) ++taken;
    if (event.kind == HandOutServer::Event::Kind::done) ++done;
  };
  std::vector<std::thread> workers;
  std::vector<std::vector<std::size_t>> walked(3);
  std::atomic<int> ended{0};
  for (int w = 0; w < 3; ++w) {
    int fds[2];
    ASSERT_TRUE(hand_out_socket_pair(fds));
    server.add_worker(w, fds[0]);
    workers.emplace_back([&, w, fd = fds[1]] {
      // Worker 2 expanded another plan: it is given nothing.
      HandOutClient client(fd, schedule, items, w == 2 ? "other" : "digest", w == 0);
      while (const WorkUnit* unit = client.next()) {
        walked[w].push_back(unit->points.front());
        client.after();  // worker 0 asks ahead, as with CONVLAB_PREPARE_AHEAD=1
        client.finished();
      }
      ++ended;
    });
  }
  for (int i = 0; i < 4000 && ended < 3; ++i) server.serve(5);
  for (auto& worker : workers) worker.join();
  EXPECT_TRUE(queue.finished());
  EXPECT_TRUE(walked[2].empty());
  std::multiset<std::size_t> all(walked[0].begin(), walked[0].end());
  all.insert(walked[1].begin(), walked[1].end());
  EXPECT_EQ(all.size(), 12u);
  EXPECT_EQ(std::set<std::size_t>(all.begin(), all.end()).size(), 12u) << "each exactly once";
  EXPECT_EQ(taken, 12u);
  EXPECT_EQ(done, 12u);
}

TEST(HandOutChannel, AWorkerWhoseRunIsGoneTakesNothingMore) {
  Schedule schedule;
  WorkUnit unit;
  unit.points = {0};
  unit.gpu = true;
  schedule.units.push_back(unit);
  int fds[2];
  ASSERT_TRUE(hand_out_socket_pair(fds));
  ::close(fds[0]);
  HandOutClient client(fds[1], schedule, {item(1, 0, 0)}, "digest", true);
  EXPECT_EQ(client.next(), nullptr);
  EXPECT_EQ(client.after(), nullptr);
}

TEST(HandOutChannel, ALineWithoutEndClosesTheChannelAndAClosedOneSendsNothing) {
  int fds[2];
  ASSERT_TRUE(hand_out_socket_pair(fds));
  LineChannel run(fds[0]);
  const std::string endless(300, 'x');
  ASSERT_EQ(::send(fds[1], endless.data(), endless.size(), 0), 300);
  std::vector<std::string> lines;
  EXPECT_FALSE(run.receive_available(lines));
  EXPECT_TRUE(lines.empty());
  ::close(fds[1]);
  run.close();
  EXPECT_FALSE(run.send("take"));
}

}  // namespace
}  // namespace convlab
