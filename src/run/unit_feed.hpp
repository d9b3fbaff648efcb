// Where the walk of a run (run/local_run.hpp) takes its work units from: the job's schedule in
// order (a plain run, a shard, a device worker given a fixed part), or a device worker's share of
// the hand-out, asked for one problem group at a time (run/hand_out_channel.hpp).
#pragma once

#include <cstddef>

#include "run/schedule.hpp"

namespace convlab {

class UnitFeed {
 public:
  virtual ~UnitFeed() = default;
  // The next unit to walk; null when there is none.
  virtual const WorkUnit* next() = 0;
  // The unit after the one `next` gave last, when it is known now (so that its image and
  // reference can be made ahead); null otherwise.
  virtual const WorkUnit* after() = 0;
  // The unit `next` gave last is measured and its records are in the journal.
  virtual void finished() = 0;
};

// The units of a schedule, in its order.
class ScheduleFeed final : public UnitFeed {
 public:
  explicit ScheduleFeed(const Schedule& schedule) : schedule_(schedule) {}
  const WorkUnit* next() override {
    return position_ < schedule_.units.size() ? &schedule_.units[position_++] : nullptr;
  }
  const WorkUnit* after() override {
    return position_ < schedule_.units.size() ? &schedule_.units[position_] : nullptr;
  }
  void finished() override {}

 private:
  const Schedule& schedule_;
  std::size_t position_ = 0;
};

}  // namespace convlab
