// `convlab run --devices all|0,1,...`: which CUDA devices get a worker process each.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace convlab {

struct DeviceChoice {
  bool all = false;
  std::vector<int> listed;  // in the order given
  std::string text;         // as given, for messages
};

// "all" or a list of distinct device indices ("0,1,3"); nullopt with `error` saying what is
// wrong.
std::optional<DeviceChoice> parse_devices(const std::string& text, std::string* error);

// The devices to use. "all" is every CUDA device this process sees; a list must name devices
// that exist. Throws RunArgumentError: "--devices all: no CUDA device", "--devices 7: CUDA
// device 7 not present (this machine has 1 CUDA device: 0)". With `check` false (--dry-run) a
// list is taken as given, so a split over 4 or 8 devices can be shown anywhere.
//
// CONVLAB_TEST_DEVICE_COUNT=N makes this process believe it sees N devices: the split and the
// workers can then be tested on a machine without a GPU (their CUDA points are recorded as
// skipped: no CUDA device). It changes nothing else.
std::vector<int> resolve_devices(const DeviceChoice& choice, bool check);

// With CONVLAB_TEST_DEVICE_COUNT, CONVLAB_TEST_DEVICE_GMACS=R makes each pretend device take a CUDA
// point's multiply-adds of one call at R GMAC/s: the point is still recorded as skipped (no CUDA
// device), after that long. Problems then cost in proportion to their work, so the hand-out of
// `--devices` can be timed on a machine without a GPU (scripts/bench/handout.sh). A list
// "R0,R1,..." gives device D the D-th rate (the last for the devices beyond): devices of unequal
// speed, which the cost model, knowing only the first, does not foresee. The seconds a point takes
// on `device` (-1: as the cost model estimates it, at the first rate); 0 without both variables,
// or for a CPU point.
double pretend_device_seconds(const Config& config, const Point& point, int device = -1);

}  // namespace convlab
