// The points of a plan that will be skipped, known before anything runs, from the
// implementations' own checks (impl/implementation.hpp): those the config rules out on every
// machine (an unmet need: a Gaussian-only peer on a box kernel, a rank-1 rung on a kernel that is
// not separable, NPP with a border or output it lacks) and those this machine and build rule out
// (no CUDA device, OpenCV not built, a device limit). `convlab validate` and `--dry-run` count
// them apart and leave them out of the cost estimate.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "impl/implementation.hpp"
#include "plan/plan.hpp"

namespace convlab {

enum class SkipCause { config, machine };

struct PlannedSkip {
  SkipCause cause = SkipCause::config;
  // What points are counted by: "opencv_gaussianblur needs a Gaussian kernel" (config), or the
  // machine's reason ("no CUDA device: ...").
  std::string summary;
  std::string reason;  // as the skipped record will state it
};

// One entry per point of `plan`: nullopt where the point will run (as far as can be known before
// running it). `context` is the run's: its CUDA device.
std::vector<std::optional<PlannedSkip>> planned_skips(const Config& config,
                                                      const std::vector<Point>& plan,
                                                      const RunContext& context);

struct SkipGroup {
  SkipCause cause = SkipCause::config;
  std::string summary;
  size_t points = 0;
};

struct PlanCounts {
  size_t points = 0;
  size_t to_run = 0;
  std::vector<SkipGroup> skipped;  // the config's causes first, then the machine's; most first
};

PlanCounts count_plan(const std::vector<std::optional<PlannedSkip>>& skips);

// "48 points: 42 to run, 6 skipped: opencv_gaussianblur needs a Gaussian kernel"; with several
// causes, the counts on the first line and one indented line per cause ("6 skipped on this
// machine: no CUDA device ..."), at most `shown` of them. No trailing newline.
std::string plan_counts_text(const PlanCounts& counts, size_t shown = 8);

}  // namespace convlab
