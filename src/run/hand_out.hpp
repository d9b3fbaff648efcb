// The queue of `convlab run --devices`: the CUDA problem groups of a schedule, handed out one at a
// time to the device worker that becomes free, instead of a split made before the run
// (docs/scale-out.md, "Hand-out"). A group is a bundle of run/schedule.hpp: one problem, or with
// save_outputs every output of one (image, kernel, border), so every comparison still pairs
// records of one device.
//
// Which group a free worker takes: the groups pinned to it first, in plan order (a resumed run:
// their points have ok records of its device); then, among the groups pinned to nobody that cost
// at least two thirds of the largest of them (largest first, within a factor of 1.5), one on the
// image the worker holds, then one on an image the fewest other workers hold, then the largest,
// then the earliest in plan order.
// So the large groups start first and the small ones fill the end, and a worker changes images
// (making the image, its buffers) only when no comparable group of its image is left.
//
// A worker that ends while holding groups gives them back: each is queued again once, for another
// worker; a group that was given back twice is abandoned and named (its points stay unmeasured and
// are measured when the run is started again).
//
// The class is plain bookkeeping, without processes or clocks: the device-workers backend
// (run/device_workers.cpp) drives it, and the forecast below replays it with estimated times.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "run/schedule.hpp"
#include "store/record.hpp"

namespace convlab {

// A problem group as it is handed out: its units, whole, and the config image of its points.
struct HandOutItem : ProblemGroup {
  std::size_t image = 0;
};

// The CUDA bundles of `schedule`, in the order of their first unit.
std::vector<HandOutItem> hand_out_items(const Schedule& schedule, const std::vector<Point>& plan);

class HandOut {
 public:
  HandOut(std::vector<HandOutItem> items, int workers);

  const std::vector<HandOutItem>& items() const { return items_; }
  int workers() const { return static_cast<int>(held_image_.size()); }

  // Only `worker` takes `item` (while it is alive).
  void pin(std::size_t item, int worker);
  bool has_pinned(int worker) const;
  // The next item for `worker`; nullopt when none is queued that it may take.
  std::optional<std::size_t> take(int worker);
  // Hands `item` to `worker`, as a finished run did (a replay, run/eta_replay.hpp); false when it
  // is not queued.
  bool assign(int worker, std::size_t item);
  // `worker` measured `item`; false when it did not hold it.
  bool done(int worker, std::size_t item);
  // `worker` ended: the items it held and had not finished are queued again, or abandoned when
  // they were given back before; with no worker left, every item not done is abandoned. Its pins
  // are released.
  struct Lost {
    std::vector<std::size_t> requeued;  // held by it, queued again
    std::vector<std::size_t> repeated;  // held by it, given back before: abandoned
    std::vector<std::size_t> orphaned;  // no worker is left to measure them: abandoned
  };
  Lost lost(int worker);

  bool alive(int worker) const { return alive_[worker]; }
  // Nothing queued and nothing held: every item is done or abandoned.
  bool finished() const;
  std::size_t queued() const;
  std::size_t done_count() const;
  const std::vector<std::size_t>& held(int worker) const { return held_[worker]; }
  std::optional<std::size_t> held_image(int worker) const { return held_image_[worker]; }
  const std::vector<std::size_t>& abandoned() const { return abandoned_; }

 private:
  enum class State { queued, held, done, abandoned };
  std::optional<std::size_t> choose(int worker) const;
  int holders_of(std::size_t image, int except) const;

  std::vector<HandOutItem> items_;
  std::vector<State> state_;
  std::vector<int> pinned_;      // per item: the worker, or -1
  std::vector<int> given_back_;  // per item: how often a worker ended holding it
  std::vector<std::optional<std::size_t>> held_image_;  // per worker: the image of its last item
  std::vector<std::vector<std::size_t>> held_;          // per worker
  std::vector<bool> alive_;
  std::vector<std::size_t> abandoned_;
};

// A point measured on a device of this host: its digest (plan.hpp point_digest) and the device.
struct DevicePoint {
  std::string digest;
  int device = 0;
};
// The points of the ok CUDA records of `records` measured on host `hostname`.
std::vector<DevicePoint> device_points(const std::vector<Record>& records,
                                       const std::string& hostname);

// The items with points in `measured` on one of `devices` (a stopped run's), each with the worker
// (position in `devices`) whose device measured most of them: a resumed run gives them to the same
// device, which keeps them instead of measuring them again on another.
std::vector<std::pair<std::size_t, int>> resume_pins(const std::vector<Point>& plan,
                                                     const Schedule& schedule,
                                                     const std::vector<HandOutItem>& items,
                                                     const std::vector<DevicePoint>& measured,
                                                     const std::vector<int>& devices);

// A digest of the items (their points' digests, group by group): a worker checks that it expanded
// the same plan as the process that hands out the items.
std::string hand_out_digest(const std::vector<Point>& plan, const Schedule& schedule,
                            const std::vector<HandOutItem>& items);

// What the hand-out would do with estimated times: each time a worker is free (the earliest first,
// ties to the lower worker) it takes the item take() gives it, which lasts the item's seconds plus,
// when the item's image is not the one the worker holds, `image_setup[image]`.
struct HandOutForecast {
  std::vector<int> worker_of_item;  // -1: not handed out (abandoned)
  std::vector<double> worker_seconds;
  double seconds = 0.0;  // the last worker's end
};
// `free_at`: when each worker is free (0 at the start; a worker that is not alive is left out);
// `queue` is a copy, so the real one is not touched.
HandOutForecast forecast_hand_out(HandOut queue, const std::vector<double>& item_seconds,
                                  const std::vector<double>& image_setup,
                                  std::vector<double> free_at);

// CONVLAB_HAND_OUT: "queue" (the default) or "fixed" (the split before the run, as before, to
// measure the difference). Anything else: the default, with `warning` saying so.
enum class HandOutPolicy { queue, fixed };
HandOutPolicy hand_out_policy(std::string* warning);

}  // namespace convlab
